#!/usr/bin/env python3
"""YOLO detect, ours vs Ultralytics' own predict on the same .tflite and photo (release build, 1
thread, medians). ROUNDS interleaved rounds (ours, Ultralytics, ours, …), each a process pinned to
the same CPU (taskset -c CPU) giving the median of RUNS calls; the table shows the median of the
rounds' medians, the ratio ours/Ultralytics with its spread (min–max over rounds), and the raw
LiteRT run of the model alone. Two comparisons: the task on a decoded picture (ours: `detect(image:)`
on an MPImage; Ultralytics: `predict` on a cv2 array) and file → result (decoding included: ours
with OpenCV's JPEG pixels as `detect` uses them for YOLO models; Ultralytics' `predict(path)`).

Usage: yolo_bench.py --bin VISION_TASKS --ultralytics PYTHON [--assets DIR] [--runs 100] [--rounds 5] [--cpu 1]
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import cpu, pinned, run_json  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "../.."))
PAIRS = [
    ("yolov8t_float32.tflite", "dog.jpg"), ("yolov8t_float32.tflite", "cat_720p.jpg"),
    ("yolov8t_int8.tflite", "dog.jpg"), ("yolo26t_e2e_float32.tflite", "dog.jpg"),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--ultralytics", required=True, help="a Python with ultralytics 8.4.190 (scripts/yolo/requirements.txt)")
    ap.add_argument("--assets", default=os.environ.get("VISION_TASKS_ASSETS", os.path.join(ROOT, "../shared")))
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--cpu", type=int, default=1)
    a = ap.parse_args()
    cpu_index = None if a.cpu < 0 else a.cpu
    name, flags = cpu()
    here = os.path.dirname(os.path.abspath(__file__))
    print(f"CPU: {name}; flags: {' '.join(flags)}; pinned to CPU {cpu_index}; {a.runs} runs per process, {a.rounds} interleaved rounds")
    print(f"{'model':<28} {'image':<13} {'raw_ms':>7} {'ours_ms':>8} {'ultra_ms':>9} {'ours/ul':>8} {'spread':>11} "
          f"{'file→ours':>10} {'file→ul':>9} {'ours/ul':>8} {'spread':>11}")
    for model, image in PAIRS:
        model_path = os.path.join(ROOT, "Tests/Fixtures/yolo", model)
        image_path = os.path.join(a.assets, "images", image)
        rounds = []
        for _ in range(a.rounds):
            ours = run_json(pinned([a.bin, "bench", "--model", model_path, "--image", image_path, "--runs", str(a.runs),
                                    "--threads", "1", "--json"], cpu_index))
            ul = run_json(pinned([a.ultralytics, os.path.join(here, "ultralytics_bench.py"), model_path, image_path,
                                  str(a.runs), "5"], cpu_index))
            rounds.append((ours, ul))
        med = lambda f: statistics.median(f(r) for r in rounds)
        task = [r[0]["detect_ms"] / r[1]["detect_ms"] for r in rounds]
        whole = [r[0]["file_to_result_ms"] / r[1]["file_to_result_ms"] for r in rounds]
        print(f"{model:<28} {image:<13} {med(lambda r: r[0]['raw_ms']):7.3f} {med(lambda r: r[0]['detect_ms']):8.3f} "
              f"{med(lambda r: r[1]['detect_ms']):9.3f} {statistics.median(task):8.2f} {min(task):5.2f}–{max(task):<5.2f} "
              f"{med(lambda r: r[0]['file_to_result_ms']):10.3f} {med(lambda r: r[1]['file_to_result_ms']):9.3f} "
              f"{statistics.median(whole):8.2f} {min(whole):5.2f}–{max(whole):<5.2f}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
