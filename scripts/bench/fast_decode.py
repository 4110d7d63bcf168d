#!/usr/bin/env python3
"""What `--fast-decode` costs and gives: on every shared JPEG, each model's results decoded exactly
(MediaPipe's pixels) and at a reduced DCT scale (libjpeg-turbo, no smaller than the model's input),
compared — detections matched by category and IoU, classifications by their top categories — and the
decode and file → result times of both (release build, pinned to one CPU, medians).

Usage: fast_decode.py --bin VISION_TASKS --assets DIR [--cpu 1] [--runs 30]
"""
import argparse
import json
import os
import subprocess

PHOTOS = ["cat_720p.jpg", "dog.jpg", "face.jpg", "giraffe.jpg", "owl.jpg", "person.jpg", "pets.jpg"]
MODELS = [
    ("detect", "ssd_mobilenet_v1_coco_quant_metadata.tflite"),
    ("detect", "ssd_mobilenet_v2_fpnlite_320_coco_hybrid_metadata.tflite"),
    ("classify", "mobilenet_v2_1.0_224_quant.tflite"),
]


def records(bin_, task, model, photos, fast, cpu):
    cmd = ["taskset", "-c", str(cpu), bin_, task, "--model", model, "--jsonl", "-", "--sequential"] + (["--fast-decode"] if fast else []) + photos
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    return {os.path.basename(r["source"]): r for r in map(json.loads, out.strip().splitlines()) if "source" in r}


def iou(a, b):
    ax, ay, aw, ah = a["originX"], a["originY"], a["width"], a["height"]
    bx, by, bw, bh = b["originX"], b["originY"], b["width"], b["height"]
    iw = max(0, min(ax + aw, bx + bw) - max(ax, bx))
    ih = max(0, min(ay + ah, by + bh) - max(ay, by))
    inter = iw * ih
    union = aw * ah + bw * bh - inter
    return inter / union if union > 0 else 0.0


def compare_detections(exact, fast, threshold=0.5):
    """Detections scoring ≥ threshold exactly: matched in the fast run (same category, best IoU)."""
    kept = [d for d in exact["detections"] if d["categories"][0]["score"] >= threshold]
    matched, ious, diffs = 0, [], []
    for d in kept:
        name = d["categories"][0]["categoryName"]
        same = [f for f in fast["detections"] if f["categories"][0]["categoryName"] == name]
        if not same:
            continue
        best = max(same, key=lambda f: iou(d["boundingBox"], f["boundingBox"]))
        o = iou(d["boundingBox"], best["boundingBox"])
        if o >= 0.5:
            matched += 1
            ious.append(o)
            diffs.append(abs(best["categories"][0]["score"] - d["categories"][0]["score"]))
    return len(kept), matched, ious, diffs


def compare_classes(exact, fast):
    e = exact["classifications"][0]["categories"] if "classifications" in exact else exact["categories"]
    f = fast["classifications"][0]["categories"] if "classifications" in fast else fast["categories"]
    top_same = e[0]["index"] == f[0]["index"]
    fs = {c["index"]: c["score"] for c in f}
    diffs = [abs(c["score"] - fs.get(c["index"], 0.0)) for c in e[:5]]
    return top_same, diffs


def bench(bin_, model, photo, fast, cpu, runs):
    cmd = ["taskset", "-c", str(cpu), bin_, "bench", "--model", model, "--image", photo, "--runs", str(runs), "--threads", "1", "--json"]
    out = subprocess.run(cmd + (["--fast-decode"] if fast else []), check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--assets", required=True)
    ap.add_argument("--cpu", type=int, default=1)
    ap.add_argument("--runs", type=int, default=30)
    a = ap.parse_args()
    photos = [os.path.join(a.assets, "images", p) for p in PHOTOS]
    print("| model | results compared on 7 photos | decode exact → fast (cat_720p / dog) | file → result exact → fast (cat_720p / dog) |")
    print("|---|---|---|---|")
    for task, name in MODELS:
        model = os.path.join(a.assets, "models", name)
        exact = records(a.bin, task, model, photos, False, a.cpu)
        fast = records(a.bin, task, model, photos, True, a.cpu)
        if task == "detect":
            kept = matched = 0
            ious, diffs = [], []
            for p in PHOTOS:
                k, m, i, d = compare_detections(exact[p], fast[p])
                kept, matched, ious, diffs = kept + k, matched + m, ious + i, diffs + d
            summary = (f"{matched}/{kept} detections ≥ 0.5 found again (same class, IoU ≥ 0.5); IoU min {min(ious):.3f}, "
                       f"score diff max {max(diffs):.3f}, median {sorted(diffs)[len(diffs) // 2]:.3f}")
        else:
            same, diffs = 0, []
            for p in PHOTOS:
                s, d = compare_classes(exact[p], fast[p])
                same += s
                diffs += d
            summary = f"top-1 the same on {same}/{len(PHOTOS)}; top-5 score diff max {max(diffs):.3f}, median {sorted(diffs)[len(diffs) // 2]:.3f}"
        times = []
        for p in ["cat_720p.jpg", "dog.jpg"]:
            path = os.path.join(a.assets, "images", p)
            e, f = bench(a.bin, model, path, False, a.cpu, a.runs), bench(a.bin, model, path, True, a.cpu, a.runs)
            times.append((e["decode_ms"], f["decode_ms"], e["file_to_result_ms"], f["file_to_result_ms"]))
        dec = " / ".join(f"{t[0]:.1f} → {t[1]:.1f} ms" for t in times)
        e2e = " / ".join(f"{t[2]:.1f} → {t[3]:.1f} ms" for t in times)
        print(f"| {name} | {summary} | {dec} | {e2e} |", flush=True)


if __name__ == "__main__":
    main()
