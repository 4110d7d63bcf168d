"""Times Ultralytics' own predict on a YOLO .tflite and one photo (its LiteRT backend, 1 thread, CPU,
predict's defaults: conf 0.25, IoU 0.7, letterbox to the model's size): the median of RUNS calls on
the decoded picture (a BGR array, as cv2.imread gives it) after WARMUP; then, interleaved, the
decoding alone (cv2.imread) and file → result (predict on the path). Prints one JSON object.

Run with the YOLO venv's Python (scripts/yolo/requirements.txt).
Usage: python ultralytics_bench.py MODEL IMAGE [RUNS] [WARMUP]
"""
import json
import os
import statistics
import sys
import time

os.environ.setdefault("YOLO_OFFLINE", "1")
import cv2  # noqa: E402
import torch  # noqa: E402
import ultralytics  # noqa: E402
import ultralytics.nn.backends.litert as litert  # noqa: E402
from ultralytics import YOLO  # noqa: E402


def main():
    model_path, image_path = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    warmup = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    litert.NUM_THREADS = 1  # one interpreter thread, as ours
    torch.set_num_threads(1)
    model = YOLO(model_path, task="detect")
    picture = cv2.imread(image_path)
    predict = lambda source: model.predict(source, verbose=False)[0]
    for _ in range(warmup):
        predict(picture)
    samples, decode, whole = [], [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        predict(picture)
        t1 = time.perf_counter()
        cv2.imread(image_path)
        t2 = time.perf_counter()
        predict(image_path)
        t3 = time.perf_counter()
        samples.append(t1 - t0)
        decode.append(t2 - t1)
        whole.append(t3 - t2)
    print(json.dumps({"ultralytics": ultralytics.__version__, "model": model_path, "image": image_path, "runs": runs,
                      "detect_ms": statistics.median(samples) * 1000, "decode_ms": statistics.median(decode) * 1000,
                      "file_to_result_ms": statistics.median(whole) * 1000}))


if __name__ == "__main__":
    main()
