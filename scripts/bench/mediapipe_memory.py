"""Resident memory of MediaPipe 1.2.2's Python ObjectDetector/ImageClassifier in its own process:
before the task exists (mediapipe imported), once it is created, after 1 and after CALLS calls.
The counterpart of `vision-tasks bench --memory --json`. Prints one JSON object (MiB).

Usage: python mediapipe_memory.py MODEL IMAGE [CALLS] [detect|classify]
"""
import json
import os
import sys

import mediapipe as mp
from mediapipe.tasks.python import vision
from mediapipe.tasks.python.core.base_options import BaseOptions


def rss_mib():
    with open("/proc/self/statm", encoding="utf-8") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1048576


def main():
    model, image_path = sys.argv[1], sys.argv[2]
    calls = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    task = sys.argv[4] if len(sys.argv) > 4 else "detect"
    image = mp.Image.create_from_file(image_path)
    baseline = rss_mib()
    if task == "detect":
        runner = vision.ObjectDetector.create_from_options(vision.ObjectDetectorOptions(
            base_options=BaseOptions(model_asset_path=model), running_mode=vision.RunningMode.IMAGE))
        call = runner.detect
    else:
        runner = vision.ImageClassifier.create_from_options(vision.ImageClassifierOptions(
            base_options=BaseOptions(model_asset_path=model), running_mode=vision.RunningMode.IMAGE))
        call = runner.classify
    created = rss_mib()
    call(image)
    first = rss_mib()
    for _ in range(calls - 1):
        call(image)
    after = rss_mib()
    runner.close()
    print(json.dumps({"mediapipe": mp.__version__, "model": model, "task": task, "calls": calls, "baselineMiB": baseline,
                      "createdMiB": created, "firstCallMiB": first, "afterCallsMiB": after}))


if __name__ == "__main__":
    main()
