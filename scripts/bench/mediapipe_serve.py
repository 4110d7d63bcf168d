"""What a user would otherwise write: MediaPipe 1.2.2's ObjectDetector behind a minimal FastAPI
server on uvicorn, with DeepStack's detection route (multipart `image`, `min_confidence`), so that
the same client can drive it and `vision-tasks serve` side by side (scripts/bench/bench-serve.sh).

  uvicorn --app-dir scripts/bench mediapipe_serve:app --host 127.0.0.1 --port PORT --workers N
  (model: $MEDIAPIPE_SERVE_MODEL)

Each worker process holds one detector, used under a lock: MediaPipe's tasks are not meant to be
called from several threads at once (FastAPI runs plain `def` routes on a thread pool).
"""
import io
import os
import threading
import time

import mediapipe as mp
import numpy as np
from fastapi import FastAPI, File, Form, UploadFile
from fastapi.responses import JSONResponse
from mediapipe.tasks import python as mp_tasks
from mediapipe.tasks.python import vision
from PIL import Image

MODEL = os.environ["MEDIAPIPE_SERVE_MODEL"]
detector = vision.ObjectDetector.create_from_options(
    vision.ObjectDetectorOptions(base_options=mp_tasks.BaseOptions(model_asset_path=MODEL), score_threshold=0.0))
lock = threading.Lock()
app = FastAPI()


@app.post("/v1/vision/detection")
def detection(image: UploadFile = File(...), min_confidence: float = Form(0.4), api_key: str = Form("")):
    t0 = time.monotonic()
    try:
        picture = Image.open(io.BytesIO(image.file.read())).convert("RGB")
    except Exception as e:  # noqa: BLE001 - any decoding failure is the client's
        return JSONResponse({"success": False, "error": f"invalid image file: {e}"}, status_code=400)
    frame = mp.Image(image_format=mp.ImageFormat.SRGB, data=np.asarray(picture))
    with lock:
        t1 = time.monotonic()
        result = detector.detect(frame)
        t2 = time.monotonic()
    predictions = []
    for d in result.detections:
        top = d.categories[0]
        if top.score < min_confidence:
            continue
        b = d.bounding_box
        predictions.append({
            "label": top.category_name, "confidence": top.score, "x_min": b.origin_x, "y_min": b.origin_y,
            "x_max": b.origin_x + b.width, "y_max": b.origin_y + b.height,
        })
    predictions.sort(key=lambda p: -p["confidence"])
    return {
        "success": True, "predictions": predictions[:20], "count": len(predictions[:20]),
        "inferenceMs": int((t2 - t1) * 1000), "processMs": int((time.monotonic() - t0) * 1000),
    }


@app.get("/healthz")
def healthz():
    return {"status": "ok"}
