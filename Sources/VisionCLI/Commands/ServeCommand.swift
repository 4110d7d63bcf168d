import VisionPipeline
import VisionServer

/// `vision-tasks serve`: detection as a service — the DeepStack / CodeProject.AI detection API that
/// Frigate, Home Assistant, Blue Iris and Agent DVR call, Frigate's ZMQ detector, and our JSON API
/// giving the records `--jsonl` writes — on libmicrohttpd and libzmq, with a bounded queue, deadlines,
/// body and connection limits, an API key, health, readiness and Prometheus metrics, and a drain on
/// SIGTERM (Documentation/VisionTasks.docc/Serving.md).
enum ServeCommand {
    static let spec = CommandSpec(
        name: "serve", summary: "serve detection over HTTP (DeepStack's API, our JSON API) and Frigate's ZMQ detector",
        options: ServeConfig.options,
        notes:
            "Example: vision-tasks serve --model ssd=ssd_mobilenet_v1.tflite --model mobilenet_v2.tflite\n"
            + "  curl -F image=@dog.jpg http://127.0.0.1:8080/v1/vision/detection\n"
            + "  curl --data-binary @dog.jpg 'http://127.0.0.1:8080/v1/detect?maxResults=3'\n"
            + "Frigate: detectors: {ds: {type: deepstack, api_url: http://HOST:8080/v1/vision/detection}}; "
            + "or --zmq tcp://0.0.0.0:5555 and {type: zmq, endpoint: tcp://HOST:5555}.",
        run: run)

    static func run(_ p: ParsedCommand, _ console: Console) throws {
        try Server.run(try ServeConfig(p), console: console)
    }
}
