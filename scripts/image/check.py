"""Runs the image as its users do and checks it (CI, via scripts/image/check.sh):

  check.py IMAGE --binary VISION_TASKS --model MODEL --picture PICTURE

- the container (non-root) serves the bundled model with its key from a mounted file, on loopback
  (--network host, --listen 127.0.0.1:PORT, no --model);
- Frigate's deepstack post and pydoods get `vision-tasks detect`'s rows on PICTURE (run here, from
  BINARY, on the same model file): label, confidence, box within a pixel;
- /v1/video answers 501 naming the FFmpeg library the slim image leaves out (with --video, for the
  VIDEO=yes image: the clip is run and its annotated copy downloads);
- a wrong key is refused (401); /healthz answers; the image's HEALTHCHECK passes (`podman healthcheck run`);
- SIGTERM (`podman stop`) drains and exits 0;
- the default command with nothing but VISION_TASKS_LISTEN moved to loopback serves the bundled model.
Prints one JSON summary; exits 1 on any failure.
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

import requests
from pydoods import PyDOODS

parser = argparse.ArgumentParser()
parser.add_argument("image")
parser.add_argument("--binary", required=True)
parser.add_argument("--model", required=True)
parser.add_argument("--picture", required=True)
parser.add_argument("--video", help="a clip: the image has FFmpeg (VIDEO=yes), /v1/video must run it")
args = parser.parse_args()
failures = []
summary = {"image": args.image}


def check(ok, what):
    if not ok:
        failures.append(what)
    return ok


def podman(*argv, check_status=True):
    r = subprocess.run(["podman", *argv], capture_output=True, text=True, timeout=300)
    if check_status and r.returncode != 0:
        raise SystemExit(f"podman {' '.join(argv)}: {r.returncode}\n{r.stderr}")
    return r


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_up(base, container, seconds=90):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if requests.get(base + "/healthz", timeout=2).status_code == 200:
                return True
        except requests.RequestException:
            pass
        if podman("inspect", "--format", "{{.State.Running}}", container).stdout.strip() != "true":
            return False
        time.sleep(0.5)
    return False


# detect's rows on the picture, here, from the same model file.
detect = subprocess.run([args.binary, "detect", "--model", args.model, "--score-threshold", "0", "--jsonl", "-",
                         args.picture], capture_output=True, text=True, check=True)
record = json.loads(detect.stdout.splitlines()[0])
w, h = record["width"], record["height"]
rows = sorted(
    ((d["categories"][0]["categoryName"], d["categories"][0]["score"], d["boundingBox"]) for d in record["detections"]),
    key=lambda r: -r[1])
summary["detectRows"] = len(rows)

key_dir = tempfile.mkdtemp()
with open(os.path.join(key_dir, "api-key"), "w") as f:
    f.write("c0ntainer-s3cret\n")
os.chmod(key_dir, 0o755)
os.chmod(os.path.join(key_dir, "api-key"), 0o444)
port = free_port()
base = f"http://127.0.0.1:{port}"
# No systemd here to run the health check's timer: it is run by hand below (podman healthcheck run).
container = podman("run", "-d", "--health-interval", "disable", "--network", "host", "-v", f"{key_dir}/api-key:/run/secrets/api-key:ro", args.image,
                   "serve", "--listen", f"127.0.0.1:{port}", "--api-key-file", "/run/secrets/api-key").stdout.strip()
try:
    check(wait_up(base, container), "the container did not answer /healthz")
    summary["user"] = podman("exec", container, "id", "-u").stdout.strip()
    check(summary["user"] == "10001", "the container runs as root")
    # Frigate's deepstack detector: api_key and image fields, DeepStack's 0.4 default.
    r = requests.post(base + "/v1/vision/detection", data={"api_key": "c0ntainer-s3cret"},
                      files={"image": open(args.picture, "rb").read()}, timeout=30)
    got = [(p["label"], p["confidence"], p["x_min"], p["y_min"], p["x_max"], p["y_max"]) for p in r.json()["predictions"]]
    want = [(l, s, b["originX"], b["originY"], b["originX"] + b["width"], b["originY"] + b["height"]) for l, s, b in rows if s >= 0.4]
    summary["frigate"] = {"status": r.status_code, "rows": len(got)}
    check(r.status_code == 200 and len(got) == len(want) and len(got) > 0, f"Frigate's post: {r.status_code} {got} vs {want}")
    for g, e in zip(got, want):
        check(g[0] == e[0] and abs(g[1] - e[1]) < 1e-6 and all(abs(a - b) <= 1 for a, b in zip(g[2:], e[2:])),
              f"Frigate's row {g} vs detect's {e}")
    # pydoods, as Home Assistant's doods integration calls it.
    doods = PyDOODS(base, auth_key="c0ntainer-s3cret", timeout=30)
    names = [d["name"] for d in doods.get_detectors()["detectors"]]
    reply = doods.detect(open(args.picture, "rb").read(), dconfig={"*": 0}, detector_name="default")
    summary["pydoods"] = {"detectors": names, "rows": len(reply["detections"])}
    check(names == ["ssd_mobilenet_v1", "default"] and "error" not in reply, f"pydoods: {names} {reply.get('error')}")
    check(len(reply["detections"]) == len(rows), f"pydoods: {len(reply['detections'])} rows, detect {len(rows)}")
    for g, (label, score, b) in zip(reply["detections"], rows):
        check(g["label"] == label and abs(g["confidence"] - score * 100) < 1e-4, f"pydoods {g} vs {label} {score}")
        check(abs(g["top"] * h - b["originY"]) <= 1 and abs(g["left"] * w - b["originX"]) <= 1
              and abs(g["bottom"] * h - b["originY"] - b["height"]) <= 1 and abs(g["right"] * w - b["originX"] - b["width"]) <= 1,
              f"pydoods box {g} vs {b}")
    if args.video:
        # With FFmpeg (VIDEO=yes): the clip is tracked and its annotated copy downloads.
        video = requests.post(base + "/v1/video?task=detect", data=open(args.video, "rb").read(), timeout=300,
                              headers={"Authorization": "Bearer c0ntainer-s3cret"})
        body = video.json()
        summary["video"] = {"status": video.status_code, "frames": body.get("frames")}
        check(video.status_code == 200 and body.get("frames", 0) > 0, f"/v1/video: {video.status_code} {video.text[:300]}")
        copy = requests.get(base + body.get("video", "/"), timeout=60,
                            headers={"Authorization": "Bearer c0ntainer-s3cret"}) if video.status_code == 200 else None
        check(copy is not None and copy.status_code == 200 and copy.content[4:8] == b"ftyp", "the annotated video")
    else:
        # Without FFmpeg in the image, video is refused by name; everything else is served.
        video = requests.post(base + "/v1/video", data=b"\x00\x00\x00\x18ftypmp42", timeout=30,
                              headers={"Authorization": "Bearer c0ntainer-s3cret"})
        summary["video"] = {"status": video.status_code, "message": video.json()["error"]["message"][:160]}
        check(video.status_code == 501 and "cannot be loaded" in video.text
              and "install FFmpeg's libraries (Debian: libavformat" in video.text,
              f"/v1/video without FFmpeg: {video.status_code} {video.text[:300]}")
    wrong = requests.post(base + "/v1/vision/detection", data={"api_key": "guess"},
                          files={"image": open(args.picture, "rb").read()}, timeout=30)
    check(wrong.status_code == 401, f"a wrong key: {wrong.status_code}")
    health = podman("healthcheck", "run", container, check_status=False)
    summary["healthcheck"] = health.returncode == 0 and "unhealthy" not in health.stdout
    check(summary["healthcheck"], f"podman healthcheck run: {health.returncode} {health.stdout} {health.stderr}")
    t0 = time.monotonic()
    podman("stop", "-t", "40", container)
    summary["stopSeconds"] = round(time.monotonic() - t0, 2)
    state = podman("inspect", "--format", "{{.State.ExitCode}}", container).stdout.strip()
    printed = podman("logs", container)
    logs = printed.stderr + printed.stdout
    summary["exitCode"] = state
    check(state == "0" and "SIGTERM: draining" in logs and "vision-tasks serve: stopped" in logs,
          f"SIGTERM: exit {state}; log: {logs[-500:]}")
    check("c0ntainer-s3cret" not in " ".join(json.loads(podman("inspect", container).stdout)[0]["Args"]),
          "the key is on the command line")
finally:
    podman("rm", "-f", container, check_status=False)

# The default command: the bundled model, on the address VISION_TASKS_LISTEN names.
port = free_port()
base = f"http://127.0.0.1:{port}"
container = podman("run", "-d", "--health-interval", "disable", "--network", "host", "-e", f"VISION_TASKS_LISTEN=127.0.0.1:{port}", args.image).stdout.strip()
try:
    check(wait_up(base, container), "the default command did not answer /healthz")
    models = requests.get(base + "/v1/models", timeout=10).json()["models"]
    summary["defaultCommand"] = [m["name"] for m in models]
    check([m["name"] for m in models] == ["ssd_mobilenet_v1"], f"the default command serves {models}")
    inspected = json.loads(podman("image", "inspect", args.image).stdout)[0]
    config = inspected["Config"]
    summary["entrypoint"], summary["cmd"] = config.get("Entrypoint"), config.get("Cmd")
    check(config.get("Entrypoint") == ["/usr/local/bin/vision-tasks"] and config.get("Cmd") == ["serve"],
          f"entry point {config.get('Entrypoint')}, command {config.get('Cmd')}")
    check("VISION_TASKS_LISTEN=0.0.0.0:8080" in config.get("Env", []), f"env {config.get('Env')}")
    check((inspected.get("Healthcheck") or {}).get("Test") == ["CMD", "/usr/local/bin/vision-tasks-healthcheck"],
          f"HEALTHCHECK {inspected.get('Healthcheck')}")
    health = podman("healthcheck", "run", container, check_status=False)
    check(health.returncode == 0, f"podman healthcheck run (default command): {health.returncode} {health.stdout}")
finally:
    podman("rm", "-f", container, check_status=False)

summary["sizeMB"] = round(int(podman("image", "inspect", "--format", "{{.Size}}", args.image).stdout.strip()) / 1e6)
summary["failures"] = failures
print(json.dumps(summary))
sys.exit(1 if failures else 0)
