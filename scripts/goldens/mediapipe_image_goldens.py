"""How MediaPipe 1.2.2 decodes each shared photo (mp.Image.create_from_file): shape and the
sha256 of its pixels, so that our decoder can be checked bit for bit.

Usage: python mediapipe_image_goldens.py ASSETS_DIR > Tests/Goldens/mediapipe_images.json
"""
import hashlib
import json
import os
import sys

import mediapipe as mp
import numpy as np

def main():
    assets = sys.argv[1]
    out = {}
    for name in sorted(os.listdir(os.path.join(assets, "images"))):
        if not name.endswith((".jpg", ".png")):
            continue
        image = mp.Image.create_from_file(os.path.join(assets, "images", name))
        a = np.array(image.numpy_view(), copy=True)  # copy while `image` still owns the pixels
        out[name] = {"shape": list(a.shape), "sha256": hashlib.sha256(a.tobytes()).hexdigest(),
                     "first": [int(x) for x in a.flatten()[:6]]}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()

if __name__ == "__main__":
    main()
