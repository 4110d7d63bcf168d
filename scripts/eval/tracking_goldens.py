#!/usr/bin/env python3
"""The tracking-evaluation fixture and its reference numbers (Tests/Fixtures/eval/mot_gt.txt,
mot_tracks.txt → Tests/Goldens/tracking_eval.json): TrackEval's HOTA, CLEAR and Identity metrics
(trackeval 1.3.0, its metric classes on box IoU) and py-motmetrics' MOTA/IDF1 (motmetrics 1.4.0).

The sequence is synthetic and seeded: 7 objects over 80 frames, moving and resizing; the "tracker"
sees them with jittered boxes, swaps two IDs halfway, loses one object for a while and gives it a
new ID, misses some boxes, adds false positives, starts one track late and keeps one past its end.
Run: v/bin/pip install -r scripts/eval/requirements.txt && v/bin/python scripts/eval/tracking_goldens.py
"""
import json
import os
import random

import motmetrics as mm
import numpy as np
from trackeval.datasets._base_dataset import _BaseDataset
from trackeval.metrics import CLEAR, HOTA, Identity

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def sequence():
    rng = random.Random(2026)
    gt, tr = [], []
    objects = []
    for k in range(7):
        objects.append({"x": rng.uniform(0, 500), "y": rng.uniform(0, 300), "w": rng.uniform(30, 120), "h": rng.uniform(40, 160),
                        "vx": rng.uniform(-4, 4), "vy": rng.uniform(-3, 3), "start": rng.randint(1, 15), "end": rng.randint(55, 80)})
    for f in range(1, 81):
        for k, o in enumerate(objects):
            if not (o["start"] <= f <= o["end"]):
                continue
            t = f - o["start"]
            x, y = o["x"] + o["vx"] * t, o["y"] + o["vy"] * t
            w, h = o["w"] * (1 + 0.004 * t), o["h"] * (1 + 0.003 * t)
            gt.append((f, k + 1, round(x, 2), round(y, 2), round(w, 2), round(h, 2)))
            if rng.random() < 0.08 or (k == 3 and 30 <= f <= 37):
                continue  # a miss, and object 4 lost for a while
            track = k + 1
            if k in (0, 1) and f >= 40:
                track = 2 - k  # objects 1 and 2 swap IDs
            if k == 3 and f > 37:
                track = 40  # object 4 comes back under a new ID
            if k == 5 and f < o["start"] + 6:
                continue  # a late start
            j = lambda v, s: round(v + rng.gauss(0, s), 2)
            tr.append((f, track, j(x, w * 0.06), j(y, h * 0.06), j(w, w * 0.05), j(h, h * 0.05)))
        if rng.random() < 0.25:
            tr.append((f, 90 + f % 3, round(rng.uniform(0, 600), 2), round(rng.uniform(0, 400), 2), 50.0, 60.0))  # false positives
    last = max((o for o in objects if o["end"] < 80), key=lambda o: o["end"])
    for f in range(last["end"] + 1, min(80, last["end"] + 5) + 1):  # a track kept past its object's end
        tr.append((f, 77, 10.0 + f, 20.0, 40.0, 40.0))
    return gt, tr


def write(rows, path):
    with open(path, "w") as f:
        for r in rows:
            f.write(f"{r[0]},{r[1]},{r[2]},{r[3]},{r[4]},{r[5]},1,-1,-1,-1\n")


def trackeval_data(gt, tr):
    frames = sorted({r[0] for r in gt} | {r[0] for r in tr})
    gt_ids = sorted({r[1] for r in gt}); tr_ids = sorted({r[1] for r in tr})
    gi = {v: i for i, v in enumerate(gt_ids)}; ti = {v: i for i, v in enumerate(tr_ids)}
    data = {"gt_ids": [], "tracker_ids": [], "similarity_scores": [], "num_gt_dets": len(gt), "num_tracker_dets": len(tr),
            "num_gt_ids": len(gt_ids), "num_tracker_ids": len(tr_ids), "num_timesteps": len(frames)}
    for f in frames:
        g = [r for r in gt if r[0] == f]; t = [r for r in tr if r[0] == f]
        data["gt_ids"].append(np.array([gi[r[1]] for r in g], dtype=int))
        data["tracker_ids"].append(np.array([ti[r[1]] for r in t], dtype=int))
        gb = np.array([r[2:6] for r in g], dtype=float).reshape(-1, 4); tb = np.array([r[2:6] for r in t], dtype=float).reshape(-1, 4)
        data["similarity_scores"].append(_BaseDataset._calculate_box_ious(gb, tb, box_format="xywh"))
    return data


def motmetrics(gt, tr):
    acc = mm.MOTAccumulator(auto_id=False)
    for f in sorted({r[0] for r in gt} | {r[0] for r in tr}):
        g = [r for r in gt if r[0] == f]; t = [r for r in tr if r[0] == f]
        gb = np.array([r[2:6] for r in g], dtype=float).reshape(-1, 4); tb = np.array([r[2:6] for r in t], dtype=float).reshape(-1, 4)
        iou = _BaseDataset._calculate_box_ious(gb, tb, box_format="xywh")
        dist = np.where(iou >= 0.5, 1 - iou, np.nan)
        acc.update([r[1] for r in g], [r[1] for r in t], dist, frameid=f)
    summary = mm.metrics.create().compute(acc, metrics=["mota", "idf1", "num_switches", "num_false_positives", "num_misses"], name="seq")
    return {k: float(summary[k].iloc[0]) for k in summary.columns}


def main():
    gt, tr = sequence()
    out = os.path.join(ROOT, "Tests/Fixtures/eval")
    os.makedirs(out, exist_ok=True)
    write(gt, os.path.join(out, "mot_gt.txt"))
    write(tr, os.path.join(out, "mot_tracks.txt"))
    data = trackeval_data(gt, tr)
    hota = HOTA().eval_sequence(data)
    clear = CLEAR().eval_sequence(data)
    identity = Identity().eval_sequence(data)
    golden = {
        "trackeval": "1.3.0", "motmetrics": "1.4.0",
        "hota": {k: float(np.mean(hota[k])) for k in ["HOTA", "DetA", "AssA", "LocA", "DetRe", "DetPr", "AssRe", "AssPr"]},
        "hota_by_alpha": [float(x) for x in hota["HOTA"]],
        "clear": {k: float(clear[k]) for k in ["MOTA", "MOTP", "CLR_TP", "CLR_FN", "CLR_FP", "IDSW", "Frag", "MT", "PT", "ML"]},
        "identity": {k: float(identity[k]) for k in ["IDF1", "IDP", "IDR", "IDTP", "IDFP", "IDFN"]},
        "py_motmetrics": motmetrics(gt, tr),
        "gt_boxes": len(gt), "tracker_boxes": len(tr),
    }
    with open(os.path.join(ROOT, "Tests/Goldens/tracking_eval.json"), "w") as f:
        json.dump(golden, f, indent=1)
    print(json.dumps({k: golden[k] for k in ["hota", "clear", "identity", "py_motmetrics"]}, indent=1))


if __name__ == "__main__":
    main()
