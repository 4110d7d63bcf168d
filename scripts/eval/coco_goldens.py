#!/usr/bin/env python3
"""The detection-evaluation fixture and pycocotools' numbers for it (Tests/Fixtures/eval/coco_gt.json,
coco_dt.json → Tests/Goldens/pycocotools_eval.json).

Ground truth: MediaPipe 1.2.2's FPNLite detections (score ≥ 0.35) on the shared photos
(Tests/Goldens/mediapipe_detector.json), plus hand-made edge cases: a crowd box, an annotation whose
area is not its box's, an image with no objects but predictions, an image with neither, a category
no prediction has, a category with no annotation, small/medium/large boxes. Predictions: MediaPipe's
SSD MobileNet v1 detections (every score), plus a duplicated detection and one on an unlisted
category. Run: python3 -m venv v && v/bin/pip install -r scripts/eval/requirements.txt &&
v/bin/python scripts/eval/coco_goldens.py
"""
import contextlib
import io
import json
import os

import numpy as np
from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PHOTOS = ["bird.png", "cat_720p.jpg", "dog.jpg", "face.jpg", "giraffe.jpg", "grace_hopper.png", "owl.jpg", "person.jpg", "pets.jpg"]
GT_MODEL = "ssd_mobilenet_v2_fpnlite_320_coco_hybrid_metadata"
DT_MODEL = "ssd_mobilenet_v1_coco_quant_metadata"


def detections(results, model, photo):
    key = f"{model}.tflite|{photo}|default"
    if key not in results:
        raise SystemExit(f"no golden for {key}")
    return results[key]


def main():
    results = json.load(open(os.path.join(ROOT, "Tests/Goldens/mediapipe_detector.json")))["results"]
    images = [{"id": i + 1, "file_name": p} for i, p in enumerate(PHOTOS)]
    images += [{"id": 20, "file_name": "empty_with_predictions.jpg"}, {"id": 21, "file_name": "empty.jpg"}]
    names = {}

    def category(name):
        if name not in names:
            names[name] = len(names) + 1
        return names[name]

    annotations, dts = [], []
    for image in images[: len(PHOTOS)]:
        for d in detections(results, GT_MODEL, image["file_name"]):
            top = d["categories"][0]
            if top["score"] < 0.35:
                continue
            x, y, w, h = d["box"]
            annotations.append({"image_id": image["id"], "category_id": category(top["name"]), "bbox": [x, y, w, h],
                                "area": float(w * h), "iscrowd": 0})
        for d in detections(results, DT_MODEL, image["file_name"]):
            top = d["categories"][0]
            x, y, w, h = d["box"]
            dts.append({"image_id": image["id"], "category_id": category(top["name"]), "bbox": [x, y, w, h], "score": top["score"]})
    # Edge cases.
    person = category("person")
    annotations.append({"image_id": 9, "category_id": person, "bbox": [0, 0, 400, 300], "area": 120000.0, "iscrowd": 1})
    annotations.append({"image_id": 3, "category_id": category("bicycle"), "bbox": [10, 10, 30, 20], "area": 2000.0, "iscrowd": 0})
    annotations.append({"image_id": 2, "category_id": category("umbrella"), "bbox": [5, 5, 60, 40], "area": 2400.0, "iscrowd": 0})
    annotations.append({"image_id": 5, "category_id": category("kite"), "bbox": [700, 20, 20, 12], "area": 240.0, "iscrowd": 0})
    dts.append({"image_id": 5, "category_id": category("kite"), "bbox": [702, 21, 19, 12], "score": 0.31})
    dts.append({"image_id": 20, "category_id": person, "bbox": [30, 40, 120, 200], "score": 0.9})
    dts.append({"image_id": 20, "category_id": category("dog"), "bbox": [300, 40, 20, 20], "score": 0.2})
    dts.append({"image_id": 9, "category_id": person, "bbox": [10, 10, 100, 100], "score": 0.77})
    dts.append({"image_id": 9, "category_id": person, "bbox": [200, 50, 100, 200], "score": 0.5})
    first = next(d for d in dts if d["image_id"] == 3)
    dts.append(dict(first))  # a duplicate detection
    dts.append({"image_id": 4, "category_id": 999, "bbox": [1, 1, 10, 10], "score": 0.99})  # a category the ground truth lacks
    category("toaster")  # listed, never annotated
    for i, a in enumerate(annotations):
        a["id"] = i + 1
    gt = {"info": {"description": "VisionTasks evaluation fixture"}, "images": images, "categories": [{"id": i, "name": n} for n, i in names.items()],
          "annotations": annotations}
    out = os.path.join(ROOT, "Tests/Fixtures/eval")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "coco_gt.json"), "w") as f:
        json.dump(gt, f, indent=1)
    with open(os.path.join(out, "coco_dt.json"), "w") as f:
        json.dump(dts, f, indent=1)
    with contextlib.redirect_stdout(io.StringIO()):
        coco = COCO(os.path.join(out, "coco_gt.json"))
        res = coco.loadRes(os.path.join(out, "coco_dt.json"))
        e = COCOeval(coco, res, "bbox")
        e.evaluate()
        e.accumulate()
        e.summarize()
    precision = e.eval["precision"]
    per_class = {}
    for k, cat in enumerate(e.params.catIds):
        s = precision[:, :, k, 0, -1]
        per_class[str(cat)] = float(np.mean(s[s > -1])) if (s > -1).any() else -1.0
    curves = []
    for t in range(precision.shape[0]):
        row = []
        for r in range(precision.shape[1]):
            s = precision[t, r, :, 0, -1]
            row.append(float(np.mean(s[s > -1])) if (s > -1).any() else -1.0)
        curves.append(row)
    golden = {"pycocotools": "2.0.10", "stats": [float(x) for x in e.stats], "per_class_ap": per_class, "precision_curves": curves,
              "images": len(images), "annotations": len(annotations), "detections": len(dts)}
    with open(os.path.join(ROOT, "Tests/Goldens/pycocotools_eval.json"), "w") as f:
        json.dump(golden, f, indent=1)
    print(json.dumps(golden["stats"]))


if __name__ == "__main__":
    main()
