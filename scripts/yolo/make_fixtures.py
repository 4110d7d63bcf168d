#!/usr/bin/env python3
"""YOLO test models and Ultralytics' own predictions on them (issue 23's goldens).

Builds two small detectors from Ultralytics' model definitions (no downloaded weights: none are on
PyPI), trains each briefly on the shared photos with the eval fixture's boxes as labels (so scores
and boxes are real, varied outputs of a trained network, not random-init ties), exports them with
Ultralytics' own exporter, and records `YOLO(model).predict(...)` on the photos:

  yolov8t      YOLOv8 head, output [1, 4+C, N] (centre-size boxes / input size, class scores)
               -> yolov8t_float32.tflite, yolov8t_int8.tflite (int8 inside, float input/output)
  yolo26t      YOLO26 NMS-free head, output [1, K, 6] (x1, y1, x2, y2, score, class)
               -> yolo26t_e2e_float32.tflite

The models are small (about 2.5 MB together), so they are kept as test fixtures in
Tests/Fixtures/yolo (the training work files go to --out, default .cache/yolo); the goldens go to
Tests/Goldens/ultralytics_yolo.json: per model and photo, every box (xyxy in the photo's pixels),
score and class at Ultralytics' predict defaults (conf 0.25, IoU 0.7, 192×192 letterbox). Training
is not bit-reproducible across machines: regenerate models and goldens together.

Run: make yolo-fixtures (scripts/yolo/generate.sh: a .venv-yolo from scripts/yolo/requirements.txt,
about 7 GB of PyPI wheels since Ultralytics pulls CUDA torch, then this script; nothing is downloaded
at run time).
"""
import argparse
import glob
import json
import os
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
os.environ.setdefault("YOLO_CONFIG_DIR", str(ROOT / ".cache/yolo/config"))
os.environ.setdefault("YOLO_OFFLINE", "1")

import torch  # noqa: E402
import ultralytics  # noqa: E402
import yaml  # noqa: E402
from PIL import Image  # noqa: E402
from ultralytics import YOLO  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import variants  # noqa: E402

CONF, IMGSZ, COPIES = 0.25, 192, 24


def dataset(work: Path, assets: Path) -> tuple[Path, dict[int, str]]:
    """A YOLO dataset of the shared photos labelled with the eval fixture's boxes (FPNLite's detections)."""
    gt = json.loads((ROOT / "Tests/Fixtures/eval/coco_gt.json").read_text())
    images = {i["id"]: i for i in gt["images"] if (assets / "images" / i["file_name"]).exists()}
    used = sorted({a["category_id"] for a in gt["annotations"] if a["image_id"] in images and not a.get("iscrowd")})
    names = {k: next(c["name"] for c in gt["categories"] if c["id"] == cid) for k, cid in enumerate(used)}
    index = {cid: k for k, cid in enumerate(used)}
    for split in ("train", "val"):
        (work / "data/images" / split).mkdir(parents=True, exist_ok=True)
        (work / "data/labels" / split).mkdir(parents=True, exist_ok=True)
    for iid, im in images.items():
        w, h = Image.open(assets / "images" / im["file_name"]).size
        lines = [f"{index[a['category_id']]} {(a['bbox'][0] + a['bbox'][2] / 2) / w:.6f} {(a['bbox'][1] + a['bbox'][3] / 2) / h:.6f} "
                 f"{a['bbox'][2] / w:.6f} {a['bbox'][3] / h:.6f}"
                 for a in gt["annotations"] if a["image_id"] == iid and not a.get("iscrowd") and a["category_id"] in index]
        # Nine photos make one batch; copies make an epoch long enough to learn from.
        stem, ext = Path(im["file_name"]).stem, Path(im["file_name"]).suffix
        for split, copies in (("train", COPIES), ("val", 1)):
            for k in range(copies):
                shutil.copy(assets / "images" / im["file_name"], work / "data/images" / split / f"{stem}_{k}{ext}")
                (work / "data/labels" / split / f"{stem}_{k}.txt").write_text("\n".join(lines) + "\n")
    data = work / "data.yaml"
    data.write_text(yaml.safe_dump({"path": str(work / "data"), "train": "images/train", "val": "images/val", "names": names}))
    return data, names


def tiny(definition: str, nc: int, work: Path) -> Path:
    cfg = yaml.safe_load(open(Path(ultralytics.__file__).parent / "cfg/models" / definition))
    cfg["nc"] = nc
    cfg["scales"] = {"t": [0.33, 0.125, 256]}
    path = work / (Path(definition).stem + "t.yaml")
    path.write_text(yaml.safe_dump(cfg))
    return path


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--assets", type=Path, default=Path(os.environ.get("VISION_TASKS_ASSETS", ROOT.parent / "shared")))
    parser.add_argument("--out", type=Path, default=ROOT / ".cache/yolo")
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--only", help="one model: yolov8t or yolo26t")
    parser.add_argument("--goldens-only", action="store_true", help="keep the models in Tests/Fixtures/yolo; remake the variants and goldens")
    args = parser.parse_args()
    fixtures = ROOT / "Tests/Fixtures/yolo"
    if args.goldens_only:
        names = {i: n for i, n in enumerate(YOLO(str(fixtures / "yolov8t_float32.tflite"), task="detect").names.values())}
        models = {p.name: p for p in sorted(fixtures.glob("*.tflite")) if "nhwc" not in p.name}
        models.update({k: v for k, v in variants.make(fixtures).items() if "nhwc" not in k})
        return goldens(models, names, args.assets)
    work = args.out / "work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    data, names = dataset(work, args.assets)
    torch.manual_seed(0)
    models = {}
    for name, definition, exports in [
        ("yolov8t", "v8/yolov8.yaml", [("float32", {}), ("int8", {"int8": True, "data": str(data)})]),
        ("yolo26t", "26/yolo26.yaml", [("e2e_float32", {"nms": False})]),
    ]:
        if args.only and name != args.only:
            continue
        t0 = time.time()
        model = YOLO(str(tiny(definition, len(names), work)))
        model.train(data=str(data), epochs=args.epochs, imgsz=IMGSZ, batch=16, workers=0, device="cpu", seed=0, deterministic=True,
                    project=str(work / "runs"), name=name, exist_ok=True, verbose=False, plots=False, val=False, amp=False)
        print(f"{name}: trained in {time.time() - t0:.0f} s", flush=True)
        for suffix, extra in exports:
            exported = Path(model.export(format="tflite", imgsz=IMGSZ, **extra))
            target = fixtures / f"{name}_{suffix}.tflite"
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(exported, target)
            models[target.name] = target
            print(f"  {target} ({target.stat().st_size} bytes)", flush=True)
    # Integer-I/O and NHWC/transposed variants (the latter's reference is yolov8t_float32's golden).
    if not args.only or args.only == "yolov8t":
        models.update({k: v for k, v in variants.make(fixtures).items() if "nhwc" not in k})
    return goldens(models, names, args.assets)


def goldens(models: dict, names: dict, assets: Path) -> int:
    """Ultralytics' predict on every photo with every model, written to Tests/Goldens/ultralytics_yolo.json."""
    photos = sorted(glob.glob(str(assets / "images/*.jpg")) + glob.glob(str(assets / "images/*.png")))
    golden = {"ultralytics": ultralytics.__version__, "torch": torch.__version__, "imgsz": IMGSZ, "conf": CONF, "iou": 0.7,
              "names": {str(k): v for k, v in names.items()}, "models": {}}
    for file, path in sorted(models.items()):
        predictor = YOLO(str(path), task="detect")
        per_photo = {}
        for photo in photos:
            r = predictor.predict(photo, imgsz=IMGSZ, conf=CONF, verbose=False)[0]
            per_photo[Path(photo).name] = [
                {"box": [float(v) for v in b], "score": float(s), "class": int(c)}
                for b, s, c in zip(r.boxes.xyxy.tolist(), r.boxes.conf.tolist(), r.boxes.cls.tolist())]
        golden["models"][file] = per_photo
        print(file, {k: len(v) for k, v in per_photo.items()}, flush=True)
    out = ROOT / "Tests/Goldens/ultralytics_yolo.json"
    out.write_text(json.dumps(golden, indent=1))
    print("wrote", out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
