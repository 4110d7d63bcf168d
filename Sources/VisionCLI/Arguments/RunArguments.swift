import Foundation
import VisionPipeline

/// The options every task command shares — inputs, sharding, outputs, comfort — declared once.
enum RunArguments {
    static let all: [OptionSpec] = [
        OptionSpec(.every, .integer(1...1_000_000), "N", default: "1", help: "videos: process every Nth frame"),
        OptionSpec(
            .live, .text, "SOURCE",
            help:
                "a camera (/dev/video0), a stream URL (rtsp://, http://, udp://…) or a video file played in real "
                + "time; live-stream mode, frames dropped while busy"
        ),
        OptionSpec(.json, .flag, help: "one JSON document on standard output"),
        OptionSpec(
            .jsonl, .text, "PATH",
            help: "one JSON record per picture or frame, written as each finishes ('-': standard output)"),
        OptionSpec(
            .output, .text, "PATH",
            help: "annotated pictures and videos: a folder (or a .jpg/.png file for one picture)"),
        OptionSpec(
            .report, .text, "PATH", help: "a self-contained HTML report (thumbnails, counts per class, results, timing)"
        ),
        OptionSpec(
            .shard, .text, "K/N", help: "process share K of N (K from 0); also read from SLURM_ARRAY_TASK_ID/_COUNT"),
        OptionSpec(
            .shardCount, .integer(1...1_000_000), "N",
            help: "shards in all, with JOB_COMPLETION_INDEX (Kubernetes Indexed Job)"),
        OptionSpec(.resume, .flag, help: "skip what the --jsonl file already holds and append the rest"),
        OptionSpec(
            .workers, .integer(1...64), "N",
            help:
                "inference workers, each a copy of the model with --threads threads "
                + "(default: CPUs ÷ threads; 1 for track)"
        ),
        OptionSpec(.sequential, .flag, help: "no pipeline: decode, run and write one item after another"),
        OptionSpec(
            .progress, .choice(["auto", "bar", "lines", "off"]), default: "auto",
            help: "progress on standard error (auto: a bar on a terminal, else lines)"),
        OptionSpec(.quiet, .flag, help: "no text results, progress or summary"),
    ]
}
