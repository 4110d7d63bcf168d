#!/usr/bin/env python3
"""Reference detections (and a stand-in tracker) from MediaPipe's Python ObjectDetector.

Runs MediaPipe Tasks' ObjectDetector (IMAGE mode, CPU) with the SSD MobileNet v1
COCO model on every frame of a video (decoded with the ``ffmpeg`` binary) and
writes the detections in the same JSON-lines format as
``vision-tasks track --detections-jsonl``::

    {"frame": k, "timestampMs": t, "detections": [{"x":..,"y":..,"width":..,"height":..,"score":..}]}

Class-agnostic: every detection above --threshold is kept, whatever its label.
With --gt it also prints the detector's recall on the ground truth (IoU >= 0.5),
which tells whether a sequence can judge a tracker at all.

With --tracks-jsonl it also writes a naive stand-in for ``vision-tasks track
--jsonl`` (greedy IoU association of detections to the previous frame's boxes,
new ids for unmatched detections), so score.py can be exercised before the
Swift CLI exists.  It is not meant to be a good tracker.

Needs a Python with ``mediapipe`` (1.2.x) and numpy, e.g. /work/mpvenv/bin/python.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np


def probe_size(video: Path) -> tuple[int, int]:
    out = subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
         "-of", "csv=p=0", str(video)], check=True, capture_output=True, text=True).stdout.strip()
    w, h = out.split(",")[:2]
    return int(w), int(h)


def frames(video: Path):
    """Yield (1-based index, timestamp ms, RGB frame) for every decoded frame."""
    w, h = probe_size(video)
    proc = subprocess.Popen(
        ["ffmpeg", "-v", "error", "-i", str(video), "-f", "rawvideo", "-pix_fmt", "rgb24",
         "-fps_mode", "passthrough", "-"], stdout=subprocess.PIPE)
    size = w * h * 3
    fps = 30.0
    try:
        rate = subprocess.run(
            ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=avg_frame_rate",
             "-of", "csv=p=0", str(video)], check=True, capture_output=True, text=True).stdout.strip()
        num, den = (int(x) for x in rate.split("/"))
        fps = num / den if den else fps
    except (ValueError, subprocess.CalledProcessError):
        pass
    k = 0
    while True:
        buf = proc.stdout.read(size)
        if len(buf) < size:
            break
        k += 1
        yield k, round((k - 1) * 1000.0 / fps), np.frombuffer(buf, np.uint8).reshape(h, w, 3)
    proc.wait()


def iou(a, b) -> float:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    iw = max(0.0, min(ax + aw, bx + bw) - max(ax, bx))
    ih = max(0.0, min(ay + ah, by + bh) - max(ay, by))
    inter = iw * ih
    union = aw * ah + bw * bh - inter
    return inter / union if union > 0 else 0.0


class NaiveTracker:
    """Greedy IoU matching to the previous frame; unmatched detections start new ids."""

    def __init__(self, min_score: float = 0.3, min_iou: float = 0.3):
        self.min_score, self.min_iou = min_score, min_iou
        self.prev: list[tuple[int, tuple]] = []
        self.next_id = 1

    def update(self, dets: list[dict]) -> list[dict]:
        boxes = [(d["x"], d["y"], d["width"], d["height"]) for d in dets if d["score"] >= self.min_score]
        pairs = sorted(((iou(pb, b), pi, bi) for pi, (_, pb) in enumerate(self.prev)
                        for bi, b in enumerate(boxes)), reverse=True)
        used_p, used_b, ids = set(), set(), {}
        for v, pi, bi in pairs:
            if v < self.min_iou or pi in used_p or bi in used_b:
                continue
            used_p.add(pi)
            used_b.add(bi)
            ids[bi] = self.prev[pi][0]
        for bi in range(len(boxes)):
            if bi not in ids:
                ids[bi] = self.next_id
                self.next_id += 1
        self.prev = [(ids[bi], b) for bi, b in enumerate(boxes)]
        return [{"frame": {"x": b[0], "y": b[1], "width": b[2], "height": b[3]},
                 "trackingID": ids[bi], "labels": []} for bi, b in enumerate(boxes)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("video", type=Path)
    assets = Path(os.environ.get("VISION_TASKS_ASSETS") or Path(__file__).resolve().parents[3] / "shared")
    parser.add_argument("--model", type=Path,
                        default=assets / "models" / "ssd_mobilenet_v1_coco_quant_metadata.tflite",
                        help="detector model (default: $VISION_TASKS_ASSETS/models/ssd_mobilenet_v1_coco_quant_metadata.tflite)")
    parser.add_argument("--threshold", type=float, default=0.1, help="score threshold (default 0.1)")
    parser.add_argument("--max-results", type=int, default=100)
    parser.add_argument("--out", type=Path, required=True, help="detections JSON lines to write")
    parser.add_argument("--tracks-jsonl", type=Path, help="also write a naive stand-in tracker's output")
    parser.add_argument("--gt", type=Path, help="NAME.gt.json: print the detector's recall at IoU 0.5")
    args = parser.parse_args(argv)

    try:
        import mediapipe as mp
        from mediapipe.tasks.python import vision
        from mediapipe.tasks.python.core.base_options import BaseOptions
    except ImportError:
        raise SystemExit("error: mediapipe is not installed in this Python (try /work/mpvenv/bin/python)")
    if not args.model.is_file():
        raise SystemExit(f"error: model {args.model} not found (--model)")
    options = vision.ObjectDetectorOptions(
        base_options=BaseOptions(model_asset_path=str(args.model)),
        running_mode=vision.RunningMode.IMAGE,
        score_threshold=args.threshold, max_results=args.max_results)
    detector = vision.ObjectDetector.create_from_options(options)

    gt = None
    if args.gt:
        gt = {f["frame"]: f["objects"] for f in json.loads(args.gt.read_text())["frames"]}
    tracker = NaiveTracker() if args.tracks_jsonl else None
    hits = total = 0
    n = 0
    with args.out.open("w") as out, (args.tracks_jsonl.open("w") if tracker else open("/dev/null", "w")) as tout:
        for k, ts, rgb in frames(args.video):
            n = k
            result = detector.detect(mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(rgb)))
            dets = [{"x": d.bounding_box.origin_x, "y": d.bounding_box.origin_y,
                     "width": d.bounding_box.width, "height": d.bounding_box.height,
                     "score": round(float(d.categories[0].score), 4)} for d in result.detections]
            out.write(json.dumps({"frame": k, "timestampMs": ts, "detections": dets}) + "\n")
            if tracker:
                tout.write(json.dumps({"frame": k, "timestampMs": ts, "objects": tracker.update(dets)}) + "\n")
            if gt is not None:
                boxes = [(d["x"], d["y"], d["width"], d["height"]) for d in dets]
                for o in gt.get(k, []):
                    total += 1
                    g = (o["x"], o["y"], o["width"], o["height"])
                    hits += any(iou(g, b) >= 0.5 for b in boxes)
    detector.close()
    msg = f"{args.video.name}: {n} frames"
    if gt is not None:
        msg += f", detector recall@IoU0.5 = {hits}/{total} = {hits / max(1, total):.3f}"
    print(msg)
    return 0


if __name__ == "__main__":
    sys.exit(main())
