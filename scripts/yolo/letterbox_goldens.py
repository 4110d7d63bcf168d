#!/usr/bin/env python3
"""Ultralytics' letterbox (8.4.190's LetterBox: cv2.resize INTER_LINEAR + copyMakeBorder 114) on
synthetic pictures — sizes that shrink, grow, stay and are odd, 1, 3 and 4 channels — written to
Tests/Goldens/ultralytics_letterbox.json as the padded RGB bytes' SHA-256 and the geometry.
The pictures are made the same way in the Swift test (value = (x·7 + y·13 + c·29 + x·y) mod 256).
Also the SHA-256 of OpenCV's decode of each shared JPEG (what JPEGDecoding.openCV must give).
Run inside the YOLO venv (scripts/yolo/generate.sh runs it after the fixtures)."""
import hashlib
import json
import os
from pathlib import Path

import cv2
import numpy as np
from ultralytics.data.augment import LetterBox

ROOT = Path(__file__).resolve().parents[2]
CASES = [  # source width, height, channels (1 gray, 3 RGB, 4 RGBA), tensor width, height
    (37, 23, 3, 64, 64), (5, 3, 3, 64, 48), (300, 200, 3, 64, 64), (640, 427, 3, 192, 192), (193, 97, 1, 96, 128),
    (1000, 17, 3, 160, 160), (64, 64, 3, 64, 64), (128, 96, 4, 64, 64), (81, 203, 3, 320, 256), (2, 2, 3, 32, 32),
]


def picture(w: int, h: int, c: int) -> np.ndarray:
    y, x = np.mgrid[0:h, 0:w]
    return np.stack([(x * 7 + y * 13 + k * 29 + x * y) % 256 for k in range(c)], axis=-1).astype(np.uint8)


def main() -> None:
    out = []
    for w, h, c, tw, th in CASES:
        rgb = picture(w, h, c)
        bgr = rgb[..., ::-1] if c >= 3 else rgb  # cv2 works on BGR; resizing is per channel
        box = LetterBox(new_shape=(th, tw), auto=False, stride=32)
        if c == 4:
            bgr = cv2.cvtColor(np.ascontiguousarray(rgb), cv2.COLOR_RGBA2BGR)  # Ultralytics reads 3 channels
        elif c == 1:
            bgr = cv2.cvtColor(rgb, cv2.COLOR_GRAY2BGR)
        img = box(image=np.ascontiguousarray(bgr))
        params = box.get_params({"img": np.ascontiguousarray(bgr)})
        padded_rgb = np.ascontiguousarray(img[..., ::-1])
        out.append({"width": w, "height": h, "channels": c, "tensorWidth": tw, "tensorHeight": th,
                    "resized": list(params["new_unpad"]), "left": params["left"], "top": params["top"],
                    "sha256": hashlib.sha256(padded_rgb.tobytes()).hexdigest(), "first": padded_rgb.reshape(-1)[:48].tolist()})
    # OpenCV's JPEG pixels (stored orientation), which JPEGDecoding.openCV reproduces.
    assets = Path(os.environ.get("VISION_TASKS_ASSETS", ROOT.parent / "shared"))
    jpegs = {}
    for photo in sorted((assets / "images").glob("*.jpg")):
        bgr = cv2.imread(str(photo), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
        jpegs[photo.name] = hashlib.sha256(np.ascontiguousarray(bgr[..., ::-1]).tobytes()).hexdigest()
    path = ROOT / "Tests/Goldens/ultralytics_letterbox.json"
    path.write_text(json.dumps({"ultralytics": __import__("ultralytics").__version__, "opencv": cv2.__version__, "cases": out,
                                "opencvJPEG": jpegs}, indent=1))
    print("wrote", path)


if __name__ == "__main__":
    main()
