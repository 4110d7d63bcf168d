#!/usr/bin/env python3
"""Checks SeedApp's JSON lines against MediaPipe 1.2.2's goldens (Tests/Goldens): seed 000's
detections, seed 001's categories, seed 003's object frames (the localizer's boxes at ≥ 0.5) and
seed 004's labels; the concurrency line's counts. Prints the detect time. Exit 1 on any difference.
With a 4th argument ARCH (aarch64), a golden in GOLDENS/ARCH/ is read in place of GOLDENS/'s (MediaPipe's
results on that architecture, scripts/arm64/goldens.sh)."""
import json
import os
import sys

BOX_TOLERANCE = 1      # pixels
SCORE_TOLERANCE = 1e-4


def load_golden(goldens_dir, name, arch):
    own = f"{goldens_dir}/{arch}/{name}" if arch else None
    return json.load(open(own if own and os.path.exists(own) else f"{goldens_dir}/{name}"))


def main(output_path, goldens_dir, label, arch=None):
    detector = load_golden(goldens_dir, "mediapipe_detector.json", arch)["results"]
    classifier = load_golden(goldens_dir, "mediapipe_classifier.json", arch)["results"]
    lines = [json.loads(line) for line in open(output_path) if line.startswith("{")]
    failures = []
    checked = {"000": 0, "001": 0, "003": 0, "004": 0}

    def close_box(a, b):
        return len(a) == len(b) and all(abs(x - y) <= BOX_TOLERANCE for x, y in zip(a, b))

    def ranked(got, golden, count, score_key, name_key, golden_name="name"):
        """The first `count` of `golden` against `got`: scores in order; results of equal score as sets
        (MediaPipe's order among ties is not specified), those tied at the cut with any of the tied."""
        want = golden[:count]
        if len(got) != len(want):
            return f"{len(got)} results, MediaPipe {len(want)}"
        for i, (g, w) in enumerate(zip(got, want)):
            if abs(g[score_key] - w["score"]) > SCORE_TOLERANCE:
                return f"#{i} score {g[score_key]}, MediaPipe {w['score']}"
        cut = want[-1]["score"] if want else None
        for score in {w["score"] for w in want if w["score"] != cut}:
            mine = {(g["index"], g[name_key]) for g in got if abs(g[score_key] - score) <= SCORE_TOLERANCE}
            theirs = {(w["index"], w[golden_name]) for w in want if w["score"] == score}
            if mine != theirs:
                return f"at score {score}: {sorted(mine)}, MediaPipe {sorted(theirs)}"
        return None

    for line in lines:
        seed, photo = line.get("seed"), line.get("photo")
        if seed == "000":
            golden = detector[f"ssd_mobilenet_v1_coco_quant_metadata.tflite|{photo}|default"][:5]
            got = line["detections"]
            if len(got) != len(golden):
                failures.append(f"000 {photo}: {len(got)} detections, MediaPipe {len(golden)}")
            for i, (g, w) in enumerate(zip(got, golden)):
                gc, wc = g["categories"][0], w["categories"][0]
                # MediaPipe's detector gives no index with a label (None); ours is the class index (Documentation/VisionTasks.docc/Compatibility.md).
                same_class = gc["name"] == wc["name"] and (wc["index"] is None or gc["index"] == wc["index"])
                if not close_box(g["box"], w["box"]) or not same_class or abs(gc["score"] - wc["score"]) > SCORE_TOLERANCE:
                    failures.append(f"000 {photo} #{i}: {g['box']} {gc}, MediaPipe {w['box']} {wc}")
        elif seed == "001":
            golden = classifier[f"mobilenet_v2_1.0_224_quant.tflite|{photo}|default"][0]["top"]
            problem = ranked(line["categories"], golden, 5, "score", "name")
            if problem:
                failures.append(f"001 {photo}: {problem}")
        elif seed == "003":
            golden = [d["box"] for d in detector[f"ssd_mobilenet_v1_coco_quant_metadata.tflite|{photo}|default"]
                      if d["categories"][0]["score"] >= 0.5][:5]
            # The localizer is the same model run class-agnostically (overlapping boxes of different
            # classes merged), so each object's frame is one of MediaPipe's boxes scoring >= 0.5.
            frames = [o["frame"] for o in line["objects"]]
            unmatched = [f for f in frames if not any(close_box(f, b) for b in golden)]
            if not frames or unmatched:
                failures.append(f"003 {photo}: frames {frames}, MediaPipe's boxes >= 0.5 {golden}")
            if any(any(l["confidence"] < 0.5 for l in o["labels"]) or len(o["labels"]) > 3 for o in line["objects"]):
                failures.append(f"003 {photo}: labels outside the seed's options (at most 3 labels, confidence >= 0.5): {line['objects']}")
        elif seed == "004":
            golden = classifier[f"mobilenet_v2_1.0_224_quant.tflite|{photo}|default"][0]["top"]
            labels = [{"index": l["index"], "text": l["text"], "score": l["confidence"]} for l in line["labels"]]
            problem = ranked(labels, golden, 10, "score", "text")
            if problem:
                failures.append(f"004 {photo}: {problem}")
        elif seed == "concurrency":
            want = {"tasks": 4, "dispatch": 4, "actor": 2, "liveStream": 5, "seed000LiveTimestamps": [0, 33, 66], "seed001LiveSetUp": True}
            for key, value in want.items():
                if line.get(key) != value:
                    failures.append(f"concurrency: {key} = {line.get(key)}, expected {value}")
            if line.get("asyncLabels") != 10 or line.get("videoFrames", 0) < 1:
                failures.append(f"concurrency: {line}")
        elif seed == "timing":
            print(f"{label}: detect {line['detect_ms']:.1f} ms (median of 15, SSD MobileNet v1, 1 thread)")
            continue
        else:
            continue
        if seed in checked:
            checked[seed] += 1
    if not any(l.get("seed") == "concurrency" for l in lines):
        failures.append("no concurrency line")
    if min(checked.values()) == 0:
        failures.append(f"a seed printed nothing: {checked}")
    for f in failures:
        print(f"{label}: {f}", file=sys.stderr)
    print(f"{label}: {sum(checked.values())} seed results checked against MediaPipe 1.2.2's goldens, "
          f"{len(failures)} difference(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
