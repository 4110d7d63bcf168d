"""Golden ImageClassifier results from MediaPipe 1.2.2 (Python tasks API, IMAGE mode, CPU).

For all five shared classifiers on every shared photo: default options; max_results=5 with
score_threshold=0.3; an allowlist (the model's top-3 labels on one photo, recorded in the file); a
region of interest; and the photo given rotated (iOS .right = rotation_degrees -270).
Each case keeps the number of categories and the top 10.

The cases follow iOS, whose `scoreThreshold` defaults to 0 and always replaces the threshold in a
model's metadata. MediaPipe's Python API treats a threshold <= 0 as unset (the metadata's then
applies), so for a model whose metadata has a threshold these cases run on a copy whose threshold
is patched to -FLT_MAX (4 bytes; every score passes, as with iOS's 0). The `model_threshold` case runs
the original model with Python's defaults: the metadata's threshold (Swift: usesModelScoreThreshold).

Usage: python mediapipe_classifier_goldens.py ASSETS_DIR > Tests/Goldens/mediapipe_classifier.json
"""
import json
import os
import struct
import sys
import tempfile

import mediapipe as mp
from mediapipe.tasks.python import vision
from mediapipe.tasks.python.components.containers.rect import RectF
from mediapipe.tasks.python.core.base_options import BaseOptions
from mediapipe.tasks.python.vision.core.image_processing_options import ImageProcessingOptions

MODELS = {
    "aiy_vision_classifier_birds_V1_3.tflite": "bird.png",
    "mobilenet_v2_1.0_224_inat_bird_quant.tflite": "bird.png",
    "mobilenet_v2_1.0_224_quant.tflite": "dog.jpg",
    "mobilenet_v1_0.25_128_quant.tflite": "dog.jpg",
    "tf2_mobilenet_v2_1.0_224_ptq.tflite": "dog.jpg",
}
PHOTOS = ["bird.png", "cat_720p.jpg", "dog.jpg", "face.jpg", "giraffe.jpg", "grace_hopper.png",
          "owl.jpg", "person.jpg", "pets.jpg"]
ROI = (0.2, 0.1, 0.6, 0.8)  # x, y, width, height (normalized)
METADATA_THRESHOLDS = {"aiy_vision_classifier_birds_V1_3.tflite": 0.2}


def ios_threshold_model(path, model, folder):
    """The model as iOS's default threshold 0 sees it: its metadata threshold patched to -FLT_MAX."""
    if model not in METADATA_THRESHOLDS:
        return path
    data = open(path, "rb").read()
    old = struct.pack("<f", METADATA_THRESHOLDS[model])
    assert data.count(old) == 1, f"{model}: the threshold's bytes are not unique"
    patched = os.path.join(folder, model)
    with open(patched, "wb") as f:
        f.write(data.replace(old, struct.pack("<f", -3.4028234663852886e38)))
    return patched


def classify(model_path, image, ipo=None, **kwargs):
    options = vision.ImageClassifierOptions(base_options=BaseOptions(model_asset_path=model_path),
                                            running_mode=vision.RunningMode.IMAGE, **kwargs)
    with vision.ImageClassifier.create_from_options(options) as classifier:
        result = classifier.classify(image, ipo)
    heads = []
    for c in result.classifications:
        heads.append({"head_index": c.head_index, "head_name": c.head_name, "count": len(c.categories),
                      "top": [{"index": k.index, "score": k.score, "name": k.category_name, "display": k.display_name}
                              for k in c.categories[:10]]})
    return heads


def main():
    assets = sys.argv[1]
    golden = {"mediapipe": mp.__version__, "roi": ROI, "allowlists": {}, "results": {}}
    folder = tempfile.mkdtemp()
    for model, pick_photo in MODELS.items():
        original = os.path.join(assets, "models", model)
        path = ios_threshold_model(original, model, folder)
        pick = classify(path, mp.Image.create_from_file(os.path.join(assets, "images", pick_photo)), max_results=3, score_threshold=0.0)
        allow = [k["name"] for k in pick[0]["top"]]
        golden["allowlists"][model] = allow
        x, y, w, h = ROI
        cases = {
            "default": ({}, None),
            "max5_thr0.3": ({"max_results": 5, "score_threshold": 0.3}, None),
            "allowlist": ({"category_allowlist": allow}, None),
            "roi": ({}, ImageProcessingOptions(region_of_interest=RectF(left=x, top=y, right=x + w, bottom=y + h))),
            "right": ({}, ImageProcessingOptions(rotation_degrees=-270)),
        }
        for photo in PHOTOS:
            image = mp.Image.create_from_file(os.path.join(assets, "images", photo))
            for case, (kwargs, ipo) in cases.items():
                golden["results"][f"{model}|{photo}|{case}"] = classify(path, image, ipo, **kwargs)
            golden["results"][f"{model}|{photo}|model_threshold"] = classify(original, image)
    json.dump(golden, sys.stdout, indent=0, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
