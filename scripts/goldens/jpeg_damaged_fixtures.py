"""Damaged and unusual JPEGs, and how MediaPipe 1.2.2 decodes each (sha256 of mp.Image pixels, or
the fact that it refuses the file), for the decoder's robustness tests: cuts at several points,
a missing EOI, stray bytes before EOI, flipped bytes in the scan, a cut progressive file, chroma
sampled more finely than luma (cjpeg -sample 1x1,2x2,2x2), CMYK with and without its Adobe marker,
RGB components. All made from a 67×45 crop of giraffe.jpg (a few KB each). Also MediaPipe's decodes
of dog.jpg cut at 10, 200, 2000 bytes and at half its size (keys "dog.jpg@N"; no file written).

Needs cjpeg (Debian: libjpeg-turbo-progs; installed with apt when missing).
Usage: python jpeg_damaged_fixtures.py ASSETS_DIR OUT_DIR > Tests/Goldens/mediapipe_jpeg_damaged.json
"""
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile

import mediapipe as mp
import numpy as np
from PIL import Image


def decode(path):
    try:
        image = mp.Image.create_from_file(path)
    except Exception as e:  # MediaPipe refuses the file
        return {"refused": True}
    a = np.array(image.numpy_view(), copy=True)
    return {"shape": list(a.shape), "sha256": hashlib.sha256(a.tobytes()).hexdigest()}


def main():
    assets, out = sys.argv[1], sys.argv[2]
    if shutil.which("cjpeg") is None:
        subprocess.run(["apt-get", "install", "-y", "-q", "libjpeg-turbo-progs"], check=True, stdout=subprocess.DEVNULL)
    crop = Image.open(os.path.join(assets, "images", "giraffe.jpg")).convert("RGB").crop((101, 203, 168, 248))
    buf = io.BytesIO()
    crop.save(buf, format="JPEG", quality=88, subsampling=2)
    base = buf.getvalue()
    buf = io.BytesIO()
    crop.save(buf, format="JPEG", quality=88, subsampling=2, progressive=True)
    progressive = buf.getvalue()
    eoi = base.rfind(b"\xff\xd9")
    scan = base.find(b"\xff\xda")
    files = {
        "cut_50.jpg": base[: len(base) // 2],
        "cut_75.jpg": base[: len(base) * 3 // 4],
        "cut_95.jpg": base[: len(base) * 95 // 100],
        "no_eoi.jpg": base[:eoi],
        "stray_before_eoi.jpg": base[:eoi] + b"\x12\x34\x56" + base[eoi:],
        "progressive_cut_60.jpg": progressive[: len(progressive) * 6 // 10],
    }
    flipped = bytearray(base)
    for i in range(scan + 40, eoi - 8, 97):
        flipped[i] = flipped[i] ^ 0x5A if flipped[i] != 0xFF and flipped[i] ^ 0x5A != 0xFF else flipped[i]
    files["flipped_bytes.jpg"] = bytes(flipped)
    with tempfile.TemporaryDirectory() as tmp:
        ppm = os.path.join(tmp, "crop.ppm")
        crop.save(ppm)
        files["chroma_finer_than_luma.jpg"] = subprocess.run(
            ["cjpeg", "-quality", "88", "-sample", "1x1,2x2,2x2", ppm], check=True, capture_output=True).stdout
        files["h1v2_440.jpg"] = subprocess.run(
            ["cjpeg", "-quality", "88", "-sample", "1x2,1x1,1x1", ppm], check=True, capture_output=True).stdout
    buf = io.BytesIO()
    crop.convert("CMYK").save(buf, format="JPEG", quality=88)
    cmyk = buf.getvalue()
    files["cmyk.jpg"] = cmyk
    app14 = cmyk.find(b"\xff\xee")
    if app14 >= 0:
        length = int.from_bytes(cmyk[app14 + 2: app14 + 4], "big")
        files["cmyk_no_adobe.jpg"] = cmyk[:app14] + cmyk[app14 + 2 + length:]
    buf = io.BytesIO()
    crop.save(buf, format="JPEG", quality=88, keep_rgb=True)
    files["rgb_components.jpg"] = buf.getvalue()
    golden = {}
    for name, data in sorted(files.items()):
        path = os.path.join(out, name)
        with open(path, "wb") as f:
            f.write(data)
        golden[name] = decode(path)
    dog = open(os.path.join(assets, "images", "dog.jpg"), "rb").read()
    with tempfile.TemporaryDirectory() as tmp:
        for cut in [10, 200, 2000, len(dog) // 2]:
            path = os.path.join(tmp, "cut.jpg")
            with open(path, "wb") as f:
                f.write(dog[:cut])
            golden[f"dog.jpg@{cut}"] = decode(path)
    json.dump(golden, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
