"""Times MediaPipe 1.2.2's Python ObjectDetector.detect or ImageClassifier.classify on one model and
photo (IMAGE mode, CPU, default options): median of RUNS calls after WARMUP; then, interleaved, the
decoding of the file alone (mp.Image.create_from_file) and file → result (decoding + the call).
Prints one JSON object.

Usage: python mediapipe_bench.py MODEL IMAGE [RUNS] [WARMUP] [detect|classify]
"""
import json
import statistics
import sys
import time

import mediapipe as mp
from mediapipe.tasks.python import vision
from mediapipe.tasks.python.core.base_options import BaseOptions


def main():
    model, image_path = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    warmup = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    task = sys.argv[5] if len(sys.argv) > 5 else "detect"
    image = mp.Image.create_from_file(image_path)
    if task == "detect":
        options = vision.ObjectDetectorOptions(base_options=BaseOptions(model_asset_path=model),
                                               running_mode=vision.RunningMode.IMAGE)
        runner = vision.ObjectDetector.create_from_options(options)
        call = runner.detect
    else:
        options = vision.ImageClassifierOptions(base_options=BaseOptions(model_asset_path=model),
                                                running_mode=vision.RunningMode.IMAGE)
        runner = vision.ImageClassifier.create_from_options(options)
        call = runner.classify
    with runner:
        for _ in range(warmup):
            call(image)
        samples, decode, whole = [], [], []
        for _ in range(runs):
            t0 = time.perf_counter()
            call(image)
            t1 = time.perf_counter()
            mp.Image.create_from_file(image_path)
            t2 = time.perf_counter()
            call(mp.Image.create_from_file(image_path))
            t3 = time.perf_counter()
            samples.append(t1 - t0)
            decode.append(t2 - t1)
            whole.append(t3 - t2)
    print(json.dumps({"mediapipe": mp.__version__, "model": model, "image": image_path, "runs": runs,
                      "detect_ms": statistics.median(samples) * 1000, "decode_ms": statistics.median(decode) * 1000,
                      "file_to_result_ms": statistics.median(whole) * 1000}))


if __name__ == "__main__":
    main()
