"""MediaPipe's results for photos as JSON (run with MediaPipe's aarch64 wheel under qemu by insncount.sh):
usage: mp_results.py MODEL TASK PHOTO...; prints {photo: rows}, with rows
detect (max_results 5, as the counted runs) → [[category name, score, [originX, originY, width, height]], ...] (MediaPipe
gives a detector's categories no index);
classify → [[category index, score], ...] for every category, in MediaPipe's order (its sort leaves equal scores in
no defined order: insncount.sh compares ours' top 5 with it tie-insensitively)."""
import json
import sys

import mediapipe as mp
from mediapipe.tasks import python as mpt
from mediapipe.tasks.python import vision

model, kind, photos = sys.argv[1], sys.argv[2], sys.argv[3:]
base = mpt.BaseOptions(model_asset_path=model)
if kind == "detect":
    task = vision.ObjectDetector.create_from_options(vision.ObjectDetectorOptions(base_options=base, max_results=5))
else:
    task = vision.ImageClassifier.create_from_options(vision.ImageClassifierOptions(base_options=base))
results = {}
for photo in photos:
    image = mp.Image.create_from_file(photo)
    if kind == "detect":
        rows = []
        for d in task.detect(image).detections:
            b = d.bounding_box
            rows.append([d.categories[0].category_name, d.categories[0].score, [b.origin_x, b.origin_y, b.width, b.height]])
    else:
        rows = [[c.index, c.score] for c in task.classify(image).classifications[0].categories]
    results[photo] = rows
print(json.dumps(results))
