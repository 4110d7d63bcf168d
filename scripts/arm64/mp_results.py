"""MediaPipe's results for one photo as JSON (run with MediaPipe's aarch64 wheel under qemu by insncount.sh):
detect → [[category index, score, [originX, originY, width, height]], ...];
classify → [[category index, score], ...] (max_results 5, as the counted runs)."""
import json
import sys

import mediapipe as mp
from mediapipe.tasks import python as mpt
from mediapipe.tasks.python import vision

model, photo, kind = sys.argv[1], sys.argv[2], sys.argv[3]
base = mpt.BaseOptions(model_asset_path=model)
image = mp.Image.create_from_file(photo)
if kind == "detect":
    task = vision.ObjectDetector.create_from_options(vision.ObjectDetectorOptions(base_options=base, max_results=5))
    rows = []
    for d in task.detect(image).detections:
        b = d.bounding_box
        rows.append([d.categories[0].index, d.categories[0].score, [b.origin_x, b.origin_y, b.width, b.height]])
else:
    task = vision.ImageClassifier.create_from_options(vision.ImageClassifierOptions(base_options=base, max_results=5))
    rows = [[c.index, c.score] for c in task.classify(image).classifications[0].categories]
print(json.dumps(rows))
