"""Golden result timestamps from MediaPipe 1.2.2 (Python tasks API, CPU) in each running mode.

ImageClassifier (mobilenet_v2_1.0_224_quant.tflite on dog.jpg, max_results=3): the result's
timestamp_ms for three consecutive classify() calls on one classifier (IMAGE mode), for
classify_for_video() at 0, 30, 70, 1000 ms (VIDEO mode), and for classify_async() at 5, 40, 90 ms
(LIVE_STREAM mode; the callback's result.timestamp_ms and its output timestamp). Each mode also
keeps the top category, to show the results themselves do not depend on the mode.

ObjectDetector (ssd_mobilenet_v1_coco_quant_metadata.tflite on dog.jpg, max_results=3): the public
attributes of its DetectionResult (whether it has a timestamp at all) and the live-stream
callback's output timestamp for detect_async() at 5, 40, 90 ms.

Usage: python mediapipe_timestamp_goldens.py ASSETS_DIR > Tests/Goldens/mediapipe_timestamps.json
"""
import json
import os
import sys
import threading
import time

import mediapipe as mp
from mediapipe.tasks.python import vision
from mediapipe.tasks.python.core.base_options import BaseOptions

CLASSIFIER = "mobilenet_v2_1.0_224_quant.tflite"
DETECTOR = "ssd_mobilenet_v1_coco_quant_metadata.tflite"
PHOTO = "dog.jpg"
VIDEO_TIMESTAMPS = [0, 30, 70, 1000]
LIVE_TIMESTAMPS = [5, 40, 90]
WAIT_S = 10.0


def top(result):
    k = result.classifications[0].categories[0]
    return {"name": k.category_name, "score": k.score}


def live(create, options_cls, model_path, send, image):
    """Sends the photo at LIVE_TIMESTAMPS, one at a time; returns the callbacks' arguments."""
    calls = []
    done = threading.Condition()

    def callback(result, _image, timestamp_ms):
        with done:
            calls.append((result, timestamp_ms))
            done.notify_all()

    options = options_cls(base_options=BaseOptions(model_asset_path=model_path),
                          running_mode=vision.RunningMode.LIVE_STREAM, max_results=3,
                          result_callback=callback)
    with create(options) as task:
        for i, t in enumerate(LIVE_TIMESTAMPS):
            send(task, image, t)
            deadline = time.monotonic() + WAIT_S
            with done:  # wait for this frame's result so that none is dropped
                while len(calls) <= i and time.monotonic() < deadline:
                    done.wait(deadline - time.monotonic())
            assert len(calls) == i + 1, f"no callback for the frame at {t} ms"
    return calls


def main():
    assets = sys.argv[1]
    image = mp.Image.create_from_file(os.path.join(assets, "images", PHOTO))
    classifier_path = os.path.join(assets, "models", CLASSIFIER)
    detector_path = os.path.join(assets, "models", DETECTOR)

    def classifier_options(mode):
        return vision.ImageClassifierOptions(base_options=BaseOptions(model_asset_path=classifier_path),
                                             running_mode=mode, max_results=3)

    with vision.ImageClassifier.create_from_options(classifier_options(vision.RunningMode.IMAGE)) as c:
        image_results = [c.classify(image) for _ in range(3)]
    with vision.ImageClassifier.create_from_options(classifier_options(vision.RunningMode.VIDEO)) as c:
        video_results = [c.classify_for_video(image, t) for t in VIDEO_TIMESTAMPS]
    live_calls = live(vision.ImageClassifier.create_from_options, vision.ImageClassifierOptions,
                      classifier_path, lambda task, im, t: task.classify_async(im, t), image)

    detector_options = vision.ObjectDetectorOptions(base_options=BaseOptions(model_asset_path=detector_path),
                                                    running_mode=vision.RunningMode.IMAGE, max_results=3)
    with vision.ObjectDetector.create_from_options(detector_options) as d:
        detection = d.detect(image)
    detector_calls = live(vision.ObjectDetector.create_from_options, vision.ObjectDetectorOptions,
                          detector_path, lambda task, im, t: task.detect_async(im, t), image)

    golden = {
        "mediapipe": mp.__version__,
        "classifier": {
            "model": CLASSIFIER,
            "image": PHOTO,
            "max_results": 3,
            "image_mode": [r.timestamp_ms for r in image_results],
            "image_mode_top": [top(r) for r in image_results],
            "video_mode": {"timestamps": VIDEO_TIMESTAMPS,
                           "result_timestamps": [r.timestamp_ms for r in video_results],
                           "top": [top(r) for r in video_results]},
            "live_stream": {"timestamps": LIVE_TIMESTAMPS,
                            "result_timestamps": [r.timestamp_ms for r, _ in live_calls],
                            "callback_timestamps": [t for _, t in live_calls],
                            "top": [top(r) for r, _ in live_calls]},
        },
        "detector": {
            "model": DETECTOR,
            "image": PHOTO,
            "max_results": 3,
            "result_type": type(detection).__name__,
            "result_fields": [a for a in dir(detection) if not a.startswith("_")],
            "detections": len(detection.detections),
            "live_stream": {"timestamps": LIVE_TIMESTAMPS,
                            "callback_timestamps": [t for _, t in detector_calls],
                            "detections": [len(r.detections) for r, _ in detector_calls]},
        },
    }
    json.dump(golden, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
