"""A robustness campaign: thousands of mutated models and pictures through the release CLI.

Models are mutated with knowledge of their structure, walked with TFLite's schema (the same
generated layout the verifier uses, read from Sources/TFLiteModel/TFLiteSchema.swift): uoffsets,
vtable entries, vector lengths, scalar fields (shapes, indices, types), custom options
(FlexBuffers), the metadata buffer and the appended zip, plus cuts and random bytes. Pictures are
mutated in their markers and chunks (JPEG SOF sizes, tables, scan headers; PNG IHDR, chunk lengths)
and bytes. Each input runs in its own `vision-tasks` process (2 at a time) with a timeout.

A crash is a process killed by a signal or an exit status that is not one of MediaPipe's codes
(1–16) or 64; a hang is a run past the timeout; memory is the peak RSS of each process.
Crashing and hanging inputs are kept in .build/campaign/. Exits 1 if any.

Usage: python3 scripts/campaign.py [--count N] [--pictures N] [--seed S] [--jobs 2] [--timeout 30]
"""
import argparse
import json
import os
import random
import re
import struct
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ASSETS = os.environ.get("VISION_TASKS_ASSETS", os.path.join(ROOT, "..", "shared"))
CLI = os.path.join(ROOT, ".build", "release", "vision-tasks")
OUT = os.path.join(ROOT, ".build", "campaign")
MODELS = {  # model → command (weights favour the small, fast ones)
    "face_detection_short_range.tflite": ("classify", 3),
    "mobilenet_v1_0.25_128_quant.tflite": ("classify", 4),
    "face_detection_full_range_sparse.tflite": ("classify", 1),
    "ssd_mobilenet_v1_coco_quant_metadata.tflite": ("detect", 2),
    "aiy_vision_classifier_birds_V1_3.tflite": ("classify", 1),
}
PHOTO = os.path.join(ASSETS, "images", "dog.jpg")
SMALL_MODEL = os.path.join(ASSETS, "models", "mobilenet_v1_0.25_128_quant.tflite")


def schema():
    """Table layouts from the generated Swift schema: [(name, [slot kinds])], unions, root."""
    text = open(os.path.join(ROOT, "Sources", "TFLiteModel", "TFLiteSchema.swift")).read()
    unions = [[int(x) for x in m.group(1).split(",")] for m in re.finditer(r"\[(-1(?:, \d+)*)\],", text)]
    tables = []
    for m in re.finditer(r'\.init\(name: "(\w+)", slots: \[(.*?)\]\),', text):
        slots = re.findall(r"\.vector\(\.(?:scalar\((\d+)\)|(string)|table\((\d+)\))\)|\.scalar\((\d+)\)|\.(string)|\.table\((\d+)\)|\.(unionType)|\.union\((\d+)\)", m.group(2))
        kinds = []
        for vs, vstr, vt, s, st, t, ut, u in slots:
            if vs: kinds.append(("vector", ("scalar", int(vs))))
            elif vstr: kinds.append(("vector", ("string",)))
            elif vt: kinds.append(("vector", ("table", int(vt))))
            elif s: kinds.append(("scalar", int(s)))
            elif st: kinds.append(("string",))
            elif t: kinds.append(("table", int(t)))
            elif ut: kinds.append(("unionType",))
            else: kinds.append(("union", int(u)))
        tables.append((m.group(1), kinds))
    root = int(re.search(r"static let root = (\d+)", text).group(1))
    return tables, unions, root


TABLES, UNIONS, ROOT_TABLE = schema()


def walk(data):
    """Positions of the model's structure: offsets, vtable entries, vector lengths, scalars, blobs."""
    spots = {"offset": [], "vtable": [], "length": [], "scalar": [], "blob": []}
    seen = set()

    def u32(p):
        return struct.unpack_from("<I", data, p)[0] if 0 <= p <= len(data) - 4 else None

    def table(pos, tid, depth):
        if depth > 40 or pos in seen or len(seen) > 20000 or not (0 <= pos <= len(data) - 4):
            return
        seen.add(pos)
        vt = pos - struct.unpack_from("<i", data, pos)[0]
        if not (0 <= vt <= len(data) - 4):
            return
        vsize = struct.unpack_from("<H", data, vt)[0]
        slots = TABLES[tid][1]
        utype = 0
        for i in range(min((vsize - 4) // 2, len(slots))):
            e = vt + 4 + 2 * i
            if e + 2 > len(data):
                break
            spots["vtable"].append(e)
            off = struct.unpack_from("<H", data, e)[0]
            if off == 0:
                continue
            p = pos + off
            kind = slots[i]
            if kind[0] == "scalar":
                spots["scalar"].append((p, kind[1]))
            elif kind[0] == "unionType":
                if p < len(data):
                    utype = data[p]
                    spots["scalar"].append((p, 1))
            else:
                t = u32(p)
                if t is None:
                    continue
                spots["offset"].append(p)
                target = p + t
                if kind[0] == "table":
                    table(target, kind[1], depth + 1)
                elif kind[0] == "union":
                    members = UNIONS[kind[1]]
                    if 0 < utype < len(members):
                        table(target, members[utype], depth + 1)
                elif kind[0] == "vector":
                    n = u32(target)
                    if n is None:
                        continue
                    spots["length"].append(target)
                    el = kind[1]
                    if el[0] == "scalar":
                        if el[1] == 1 and n > 16:
                            spots["blob"].append((target + 4, n))
                        else:
                            spots["scalar"] += [(target + 4 + k * el[1], el[1]) for k in range(min(n, 64))]
                    else:
                        for k in range(min(n, 4096)):
                            q = target + 4 + 4 * k
                            t2 = u32(q)
                            if t2 is None:
                                break
                            spots["offset"].append(q)
                            if el[0] == "table":
                                table(q + t2, el[1], depth + 1)
    root = u32(0)
    if root is not None:
        table(root, ROOT_TABLE, 0)
    return spots


BOUNDARY = [0, 1, 2, 3, 4, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 3870895, 1 << 20]


def mutate_model(data, spots, rng):
    b = bytearray(data)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        kind = rng.choice(["offset", "vtable", "length", "scalar", "scalar", "blob", "cut", "bytes"])
        if kind == "cut":
            return bytes(b[: rng.randrange(8, len(b))])
        if kind == "bytes" or not spots[kind]:
            for _ in range(rng.randrange(1, 16)):
                b[rng.randrange(len(b))] = rng.randrange(256)
            continue
        if kind == "blob":
            start, n = rng.choice(spots["blob"])
            for _ in range(rng.randrange(1, 8)):
                b[start + rng.randrange(n)] = rng.choice([0, 0xFF, 0x80, 0x7F, rng.randrange(256)])
            continue
        if kind == "scalar":
            p, size = rng.choice(spots["scalar"])
            v = rng.choice(BOUNDARY + [rng.randrange(1 << (8 * size))])
            b[p:p + size] = (v & ((1 << (8 * size)) - 1)).to_bytes(size, "little")
            continue
        p = rng.choice(spots[kind])
        size = 2 if kind == "vtable" else 4
        v = rng.choice(BOUNDARY + [rng.randrange(len(b)), struct.unpack_from("<I" if size == 4 else "<H", b, p)[0] + rng.choice([-8, -4, 4, 8])])
        b[p:p + size] = (v & ((1 << (8 * size)) - 1)).to_bytes(size, "little")
    return bytes(b)


def mutate_picture(data, rng):
    b = bytearray(data)
    if b[:2] == b"\xff\xd8":
        markers = [m.start() for m in re.finditer(rb"\xff[\xc0-\xfe]", bytes(b))]
    else:
        markers = [m.start() - 4 for m in re.finditer(rb"IHDR|IDAT|IEND|PLTE|tRNS", bytes(b))]
    for _ in range(rng.choice([1, 1, 2, 3])):
        kind = rng.choice(["marker", "marker", "size", "cut", "bytes"])
        if kind == "cut":
            return bytes(b[: rng.randrange(2, len(b))])
        if kind == "size" and b[:2] == b"\xff\xd8":
            sof = [p for p in markers if p + 9 < len(b) and b[p + 1] in (0xC0, 0xC1, 0xC2)]
            if sof:
                p = rng.choice(sof)
                b[p + 5:p + 9] = struct.pack(">HH", rng.choice([0, 1, 30000, 32768, 65000, 65535]), rng.choice([0, 1, 30000, 32768, 65000, 65535]))
                continue
        if kind in ("marker", "size") and markers:
            p = rng.choice(markers) + rng.randrange(2, 12)
            if p < len(b):
                b[p] = rng.choice([0, 1, 0xFF, 0x80, 0x10, 0x22, rng.randrange(256)])
            continue
        for _ in range(rng.randrange(1, 12)):
            b[rng.randrange(len(b))] = rng.randrange(256)
    return bytes(b)


def run(args, timeout, log):
    """Runs one CLI process: (exit status, -signal or 'hang'; seconds; peak RSS in MiB; stderr tail)."""
    start = time.time()
    with open(log, "wb") as err:
        p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=err)
        timer = threading.Timer(timeout, p.kill)
        timer.start()
        _, code, usage = os.wait4(p.pid, 0)
        timer.cancel()
    p.returncode = os.waitstatus_to_exitcode(code)
    hung = time.time() - start >= timeout
    tail = open(log, "rb").read()[-300:].decode("utf-8", "replace")
    return ("hang" if hung else p.returncode), time.time() - start, usage.ru_maxrss / 1024, tail


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=5000, help="mutated models (and pictures, unless --pictures)")
    parser.add_argument("--pictures", type=int, default=None)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=30)
    a = parser.parse_args()
    pictures = a.count if a.pictures is None else a.pictures
    rng = random.Random(a.seed)
    os.makedirs(os.path.join(OUT, "inputs"), exist_ok=True)
    os.makedirs(os.path.join(OUT, "failures"), exist_ok=True)
    models = {}
    for name, (command, weight) in MODELS.items():
        data = open(os.path.join(ASSETS, "models", name), "rb").read()
        models[name] = (data, walk(data), command, weight)
    photos = [os.path.join(ASSETS, "images", n) for n in ["dog.jpg", "bird.png", "grace_hopper.png", "owl.jpg"]]
    for folder in ["Tests/Fixtures/jpeg", "Tests/Fixtures/jpeg-damaged"]:
        photos += [os.path.join(ROOT, folder, n) for n in sorted(os.listdir(os.path.join(ROOT, folder)))]
    photo_bytes = [open(p, "rb").read() for p in photos]
    names = list(models)
    weights = [models[n][3] for n in names]
    # Jobs are drawn up front (cheap) and mutated in the worker, so that this process stays small:
    # a child forked from a large parent would report the parent's memory as its own peak.
    plan = [("model", rng.choices(names, weights)[0], rng.randrange(1 << 30)) for _ in range(a.count)]
    plan += [("picture", rng.randrange(len(photos)), rng.randrange(1 << 30)) for _ in range(pictures)]

    def materialize(index):
        kind, which, seed = plan[index]
        r = random.Random(seed)
        if kind == "model":
            data, spots, command, _ = models[which]
            return kind, which, mutate_model(data, spots, r), command
        ext = ".png" if photo_bytes[which][:4] == b"\x89PNG" else ".jpg"
        return kind, os.path.basename(photos[which]), mutate_picture(photo_bytes[which], r), ext

    results = {"model": {}, "picture": {}}
    failures = []
    peak = [0.0]

    def one(index):
        kind, name, data, extra = materialize(index)
        path = os.path.join(OUT, "inputs", f"{index % (a.jobs * 4)}-{index}" + (".tflite" if kind == "model" else extra))
        with open(path, "wb") as f:
            f.write(data)
        if kind == "model":
            args = [CLI, extra, "--model", path, PHOTO]
        else:
            args = [CLI, "classify", "--model", SMALL_MODEL, path]
        status, seconds, rss, err = run(args, a.timeout, path + ".log")
        ok = status != "hang" and (status == 0 or 1 <= status <= 16 or status == 64)
        os.remove(path)
        os.remove(path + ".log")
        return kind, name, status, seconds, rss, ok, (data if not ok or rss > 2048 else b""), err

    started = time.time()
    with ThreadPoolExecutor(a.jobs) as pool:
        for n, (kind, name, status, seconds, rss, ok, data, err) in enumerate(pool.map(one, range(len(plan)))):
            label = "hang" if status == "hang" else ("ok" if status == 0 else (f"exit {status}" if ok else f"CRASH {status}"))
            results[kind][label] = results[kind].get(label, 0) + 1
            peak[0] = max(peak[0], rss)
            if not ok or rss > 2048:
                kept = os.path.join(OUT, "failures", f"{kind}-{n}-{name}")
                with open(kept, "wb") as f:
                    f.write(data)
                failures.append({"kind": kind, "from": name, "status": str(status), "rss_mb": round(rss), "kept": kept, "stderr": err})
            if (n + 1) % 500 == 0:
                print(f"  {n + 1}/{len(plan)} runs, {len(failures)} failures, peak RSS {peak[0]:.0f} MiB, {time.time() - started:.0f}s", flush=True)
    summary = {"seed": a.seed, "models": a.count, "pictures": pictures, "results": results, "failures": len(failures),
               "peak_rss_mb": round(peak[0]), "seconds": round(time.time() - started)}
    print(json.dumps(summary, indent=1))
    for f in failures[:20]:
        print(json.dumps(f))
    json.dump({"summary": summary, "failures": failures}, open(os.path.join(OUT, f"campaign-{a.seed}.json"), "w"), indent=1)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
