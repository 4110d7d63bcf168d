"""Golden ObjectDetector results from MediaPipe 1.2.2 (Python tasks API, IMAGE mode, CPU).

For both shared COCO detectors and every shared photo: default options; max_results=5 with
score_threshold=0.3; an allowlist; a denylist; and the photo given rotated (iOS .left, .right,
.down, i.e. rotation_degrees -90, -270, -180).

Also the raw-SSD path: face_detection_short_range.tflite with DETECTOR_METADATA written by our own
`vision-tasks metadata` (the augmented file is the second argument), on every photo: default,
max_results=5 with score_threshold=0.5, and the three rotations; keypoints included.

Usage: python mediapipe_detector_goldens.py ASSETS_DIR AUGMENTED_FACE_MODEL > Tests/Goldens/mediapipe_detector.json
"""
import json
import os
import sys

import mediapipe as mp
from mediapipe.tasks.python import vision
from mediapipe.tasks.python.core.base_options import BaseOptions
from mediapipe.tasks.python.vision.core.image_processing_options import ImageProcessingOptions

MODELS = [
    "ssd_mobilenet_v1_coco_quant_metadata.tflite",
    "ssd_mobilenet_v2_fpnlite_320_coco_hybrid_metadata.tflite",
]
PHOTOS = ["bird.png", "cat_720p.jpg", "dog.jpg", "face.jpg", "giraffe.jpg", "grace_hopper.png",
          "owl.jpg", "person.jpg", "pets.jpg"]
CASES = {
    "default": ({}, 0),
    "max5_thr0.3": ({"max_results": 5, "score_threshold": 0.3}, 0),
    "allow_dog_cat_person": ({"category_allowlist": ["dog", "cat", "person"]}, 0),
    "deny_person_car": ({"category_denylist": ["person", "car"]}, 0),
    "left": ({}, -90),
    "right": ({}, -270),
    "down": ({}, -180),
}


def run(model_path, image, kwargs, rotation):
    options = vision.ObjectDetectorOptions(
        base_options=BaseOptions(model_asset_path=model_path),
        running_mode=vision.RunningMode.IMAGE, **kwargs)
    with vision.ObjectDetector.create_from_options(options) as detector:
        ipo = ImageProcessingOptions(rotation_degrees=rotation) if rotation else None
        result = detector.detect(image, ipo)
    out = []
    for d in result.detections:
        b = d.bounding_box
        out.append({
            "box": [b.origin_x, b.origin_y, b.width, b.height],
            "categories": [{"index": c.index, "score": c.score, "name": c.category_name,
                            "display": c.display_name} for c in d.categories],
            "keypoints": [[k.x, k.y] for k in (d.keypoints or [])],
        })
    return out


def main():
    assets = sys.argv[1]
    golden = {"mediapipe": mp.__version__, "results": {}}
    for model in MODELS:
        for photo in PHOTOS:
            image = mp.Image.create_from_file(os.path.join(assets, "images", photo))
            for case, (kwargs, rotation) in CASES.items():
                key = f"{model}|{photo}|{case}"
                golden["results"][key] = run(os.path.join(assets, "models", model), image, kwargs, rotation)
    face = sys.argv[2]
    raw_cases = {"default": ({}, 0), "max5_thr0.5": ({"max_results": 5, "score_threshold": 0.5}, 0),
                 "left": ({}, -90), "right": ({}, -270), "down": ({}, -180)}
    for photo in PHOTOS:
        image = mp.Image.create_from_file(os.path.join(assets, "images", photo))
        for case, (kwargs, rotation) in raw_cases.items():
            golden["results"][f"face_detection_short_range+DETECTOR_METADATA|{photo}|{case}"] = run(face, image, kwargs, rotation)
    json.dump(golden, sys.stdout, indent=0, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
