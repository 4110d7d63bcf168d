"""Times MediaPipe 1.2.2's Python ObjectDetector.detect on one model and photo (IMAGE mode, CPU):
median of RUNS calls after WARMUP. Prints one JSON object.

Usage: python mediapipe_bench.py MODEL IMAGE [RUNS] [WARMUP]
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
    options = vision.ObjectDetectorOptions(base_options=BaseOptions(model_asset_path=model),
                                           running_mode=vision.RunningMode.IMAGE)
    image = mp.Image.create_from_file(image_path)
    with vision.ObjectDetector.create_from_options(options) as detector:
        for _ in range(warmup):
            detector.detect(image)
        samples = []
        for _ in range(runs):
            t0 = time.perf_counter()
            detector.detect(image)
            samples.append(time.perf_counter() - t0)
    print(json.dumps({"mediapipe": mp.__version__, "model": model, "image": image_path, "runs": runs,
                      "detect_ms": statistics.median(samples) * 1000}))


if __name__ == "__main__":
    main()
