"""Small JPEG fixtures in the layouts the shared photos lack — 4:2:2 and 4:2:0 chroma, progressive,
grayscale, odd sizes — made with Pillow from a 67×45 crop of giraffe.jpg, and how MediaPipe 1.2.2
decodes each (sha256 of mp.Image pixels), for the decoder's bit-exactness tests.

Usage: python jpeg_variant_fixtures.py ASSETS_DIR OUT_DIR > Tests/Goldens/mediapipe_jpeg_variants.json
"""
import hashlib
import json
import os
import sys

import mediapipe as mp
import numpy as np
from PIL import Image

def main():
    assets, out = sys.argv[1], sys.argv[2]
    crop = Image.open(os.path.join(assets, "images", "giraffe.jpg")).convert("RGB").crop((101, 203, 168, 248))
    variants = {
        "h2v1_422.jpg": dict(quality=88, subsampling=1),
        "h2v2_420.jpg": dict(quality=88, subsampling=2),
        "h1v1_444.jpg": dict(quality=88, subsampling=0),
        "progressive_420.jpg": dict(quality=88, subsampling=2, progressive=True),
    }
    golden = {}
    for name, kwargs in variants.items():
        crop.save(os.path.join(out, name), **kwargs)
    crop.convert("L").save(os.path.join(out, "gray.jpg"), quality=88)
    for name in sorted(os.listdir(out)):
        image = mp.Image.create_from_file(os.path.join(out, name))
        a = np.array(image.numpy_view(), copy=True)
        golden[name] = {"shape": list(a.shape), "sha256": hashlib.sha256(a.tobytes()).hexdigest()}
    json.dump(golden, sys.stdout, indent=1, sort_keys=True)
    print()

if __name__ == "__main__":
    main()
