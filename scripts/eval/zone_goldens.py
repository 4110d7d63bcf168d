#!/usr/bin/env python3
"""The zone-counting fixture and supervision's answers on it (Tests/Fixtures/eval/zone_tracks.json →
Tests/Goldens/supervision_zones.json): supervision 0.30.9's LineZone (several lines, anchors and
crossing thresholds) and PolygonZone (a rectangle, a slanted pentagon, any-of-two-anchors) fed the
same tracks frame by frame.

The tracks are synthetic and seeded: objects walking across a vertical line both ways, one whose
box jitters on the line, one crossing beyond the segment's end, one that vanishes for a frame and
one for long enough to be forgotten, a large box that straddles the line, unconfirmed objects
without an ID, three classes. Boxes have two decimals, as `track --jsonl` writes them.
Run: v/bin/pip install -r scripts/eval/requirements.txt && v/bin/python scripts/eval/zone_goldens.py
"""
import json
import os
import random
import warnings

import numpy as np

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import supervision as sv

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FRAMES = 150

POSITIONS = {
    "center": sv.Position.CENTER, "center-left": sv.Position.CENTER_LEFT, "center-right": sv.Position.CENTER_RIGHT,
    "top-center": sv.Position.TOP_CENTER, "top-left": sv.Position.TOP_LEFT, "top-right": sv.Position.TOP_RIGHT,
    "bottom-center": sv.Position.BOTTOM_CENTER, "bottom-left": sv.Position.BOTTOM_LEFT, "bottom-right": sv.Position.BOTTOM_RIGHT,
}
CORNERS = ["top-left", "top-right", "bottom-left", "bottom-right"]

LINES = [
    {"name": "door", "start": [320, 40], "end": [320, 300], "anchors": ["bottom-center"], "minimumCrossingFrames": 1},
    {"name": "door3", "start": [320, 40], "end": [320, 300], "anchors": ["bottom-center"], "minimumCrossingFrames": 3},
    {"name": "corners", "start": [320, 40], "end": [320, 300], "anchors": CORNERS, "minimumCrossingFrames": 1},
    {"name": "diagonal", "start": [100.5, 50], "end": [540, 330.25], "anchors": ["center"], "minimumCrossingFrames": 2},
    {"name": "up", "start": [600, 200], "end": [40, 200], "anchors": ["bottom-center"], "minimumCrossingFrames": 1},
]
ZONES = [
    {"name": "desk", "polygon": [[200, 100], [440, 100], [440, 340], [200, 340]], "anchors": ["bottom-center"], "requireAll": True},
    {"name": "lobby", "polygon": [[50, 300], [300, 80], [600, 150], [560, 350], [120, 355]], "anchors": ["center"], "requireAll": True},
    {"name": "either", "polygon": [[200, 100], [440, 100], [440, 340], [200, 340]], "anchors": ["top-left", "bottom-right"], "requireAll": False},
]


def tracks():
    rng = random.Random(7)
    actors = []
    classes = ["person", "dog", "car"]
    for k in range(12):  # walkers across the vertical line, both ways, at various heights
        left = k % 2 == 0
        actors.append({"id": k + 1, "cls": classes[k % 3], "x0": rng.uniform(40, 200) if left else rng.uniform(440, 560),
                       "vx": rng.uniform(2, 6) * (1 if left else -1), "y0": rng.uniform(60, 260), "vy": rng.uniform(-0.8, 0.8),
                       "w": rng.uniform(30, 70), "h": rng.uniform(40, 110), "start": rng.randint(1, 60), "life": rng.randint(50, 110)})
    actors.append({"id": 30, "cls": "person", "jitter": True, "start": 5, "life": 120})              # on the line, jittering
    actors.append({"id": 31, "cls": "dog", "x0": 150, "vx": 4, "y0": 330, "vy": 0, "w": 40, "h": 20,  # below the segment's end
                   "start": 10, "life": 100})
    actors.append({"id": 32, "cls": "car", "x0": 250, "vx": 3, "y0": 120, "vy": 0.5, "w": 60, "h": 60, "start": 20, "life": 80,
                   "gaps": [(40, 40), (60, 65)]})                                                      # a 1-frame gap, a 6-frame gap
    actors.append({"id": 33, "cls": "person", "x0": 250, "vx": 1.5, "y0": 60, "vy": 0, "w": 160, "h": 150, "start": 1, "life": 140})
    actors.append({"id": 34, "cls": "person", "x0": 330, "vx": 0, "y0": 20, "vy": 2.5, "w": 50, "h": 60, "start": 30, "life": 100})
    frames = []
    for f in range(1, FRAMES + 1):
        objs = []
        for a in actors:
            t = f - a["start"]
            if t < 0 or t >= a["life"] or any(lo <= f <= hi for lo, hi in a.get("gaps", [])):
                continue
            if a.get("jitter"):
                w, h = 50.0, 80.0
                cx = 320 + rng.choice([-2.5, -1.25, 0.75, 1.5, 3.0]) + (12 if t > 90 else 0)
                x, y = cx - w / 2, 150 + rng.uniform(-1, 1)
            else:
                x, y = a["x0"] + a["vx"] * t, a["y0"] + a["vy"] * t
                w, h = a["w"], a["h"]
            objs.append({"id": a["id"], "class": a["cls"], "x": round(x, 2), "y": round(y, 2), "width": round(w, 2), "height": round(h, 2)})
        for _ in range(rng.choice([0, 0, 1, 2])):  # unconfirmed objects
            objs.append({"id": None, "class": "person", "x": round(rng.uniform(0, 600), 2), "y": round(rng.uniform(0, 320), 2),
                         "width": 30.0, "height": 40.0})
        rng.shuffle(objs)
        frames.append({"frame": f, "timestampMs": round((f - 1) * 1000 / 30), "objects": objs})
    return {"width": 640, "height": 360, "frames": frames}


def detections(objs, class_ids):
    if not objs:
        return sv.Detections.empty()
    xyxy = np.array([[o["x"], o["y"], o["x"] + o["width"], o["y"] + o["height"]] for o in objs], dtype=float)
    return sv.Detections(xyxy=xyxy, class_id=np.array([class_ids[o["class"]] for o in objs]),
                         tracker_id=np.array([-1 if o["id"] is None else o["id"] for o in objs]))


def main():
    data = tracks()
    names = sorted({o["class"] for fr in data["frames"] for o in fr["objects"]})
    class_ids = {n: i for i, n in enumerate(names)}
    golden = {"supervision": sv.__version__, "lines": [], "zones": []}
    for spec in LINES:
        zone = sv.LineZone(start=sv.Point(*spec["start"]), end=sv.Point(*spec["end"]),
                           triggering_anchors=[POSITIONS[a] for a in spec["anchors"]],
                           minimum_crossing_threshold=spec["minimumCrossingFrames"])
        per_frame = []
        for fr in data["frames"]:
            crossed_in, crossed_out = zone.trigger(detections(fr["objects"], class_ids))
            per_frame.append({"in": [int(i) for i in np.flatnonzero(crossed_in)], "out": [int(i) for i in np.flatnonzero(crossed_out)]})
        golden["lines"].append(dict(spec, frames=per_frame,
                                    inPerClass={names[k]: v for k, v in zone.in_count_per_class.items()},
                                    outPerClass={names[k]: v for k, v in zone.out_count_per_class.items()}))
    for spec in ZONES:
        zone = sv.PolygonZone(polygon=np.array(spec["polygon"]), triggering_anchors=[POSITIONS[a] for a in spec["anchors"]],
                              require_all_anchors=spec["requireAll"])
        inside, counts = [], []
        for fr in data["frames"]:
            hits = zone.trigger(detections(fr["objects"], class_ids))
            inside.append([bool(h) for h in hits])
            counts.append(zone.current_count)
        golden["zones"].append(dict(spec, inside=inside, count=counts))
    with open(os.path.join(ROOT, "Tests/Fixtures/eval/zone_tracks.json"), "w") as f:
        json.dump(data, f, separators=(",", ":"))
    with open(os.path.join(ROOT, "Tests/Goldens/supervision_zones.json"), "w") as f:
        json.dump(golden, f, separators=(",", ":"))
    for line in golden["lines"]:
        print(line["name"], "in", line["inPerClass"], "out", line["outPerClass"])
    for z in golden["zones"]:
        print(z["name"], "max", max(z["count"]))


if __name__ == "__main__":
    main()
