"""A bad-input campaign against a running `vision-tasks serve` (started here on loopback): cut
multipart forms, huge headers, wrong content types, empty bodies, a declared 1 GB body, random bytes,
non-pictures, damaged JPEGs, unknown routes, methods and arguments; DOODS2 requests with bad base64,
wrong JSON types, huge region lists, unknown labels and detectors (each must be a 4xx); ZMQ requests of the wrong shape,
dtype and size, garbage frames and broken model uploads. After each kind the server must still be
up; every HTTP answer must be a clear error (our JSON error, DeepStack's `success: false`, DOODS' `error`, or
libmicrohttpd's own status for a request it cannot read); resident memory must stay bounded.
Prints the counts as JSON; exits 1 when the server went down or an answer was unclear.

  campaign.py VISION_TASKS MODEL PICTURE [--rounds N]
"""
import argparse
import base64
import json
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import time

import requests
import zmq

parser = argparse.ArgumentParser()
parser.add_argument("binary")
parser.add_argument("model")
parser.add_argument("picture")
parser.add_argument("--rounds", type=int, default=20)
args = parser.parse_args()
rng = random.Random(20261204)
folder = tempfile.mkdtemp(prefix="vt-campaign-")
server = subprocess.Popen(
    [args.binary, "serve", "--listen", "127.0.0.1:0", "--model", "ssd=" + args.model, "--zmq", "tcp://127.0.0.1:*",
     "--accept-models", folder + "/models", "--max-body", "4000000", "--max-model-bytes", "8000000", "--idle-timeout", "3",
     "--workers", "2"],
    stderr=subprocess.PIPE, text=True)
log = []
port = endpoint = None
deadline = time.time() + 120
while time.time() < deadline and port is None:
    line = server.stderr.readline()
    log.append(line)
    m = re.search(r"zmq detector on (\S+)", line)
    if m:
        endpoint = m.group(1)
    m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
    if m:
        port = int(m.group(1))
if port is None:
    print(json.dumps({"error": "server did not start", "log": log}))
    sys.exit(1)
base = f"http://127.0.0.1:{port}"
with open(args.picture, "rb") as f:
    jpeg = f.read()


def rss():
    with open(f"/proc/{server.pid}/status") as f:
        return int(next(l.split()[1] for l in f if l.startswith("VmRSS")))


counts = {}
unclear = []


def count(kind, outcome):
    counts.setdefault(kind, {})
    counts[kind][outcome] = counts[kind].get(outcome, 0) + 1


def clear(response):
    """Our JSON error, DeepStack's, or libmicrohttpd's own status (it has no body we write)."""
    if response.status_code < 400:
        return True
    try:
        body = response.json()
    except ValueError:
        return response.status_code in (400, 413, 431, 500)  # the library's own answers
    return "error" in body or body.get("success") is False


def http(kind, method, path, client_error=False, **kw):
    """One request; its answer must be clear (and a 4xx when `client_error`)."""
    try:
        r = requests.request(method, base + path, timeout=20, **kw)
        count(kind, str(r.status_code))
        if not clear(r) or (client_error and not 400 <= r.status_code < 500):
            unclear.append((kind, r.status_code, r.text[:200]))
    except requests.exceptions.RequestException as e:
        count(kind, type(e).__name__)


def raw(kind, data, read=True):
    """Bytes straight onto a socket; the first status line back (or how the connection ended)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        s.sendall(data)
        if not read:
            count(kind, "sent")
            return
        s.shutdown(socket.SHUT_WR)
        reply = s.recv(200)
        m = re.match(rb"HTTP/1\.[01] (\d+)", reply)
        count(kind, m.group(1).decode() if m else ("closed" if not reply else "garbage-reply"))
    except OSError as e:
        count(kind, type(e).__name__)
    finally:
        s.close()


def alive(after):
    try:
        ok = requests.get(base + "/healthz", timeout=10).status_code == 200
    except requests.exceptions.RequestException:
        ok = False
    if not ok or server.poll() is not None:
        print(json.dumps({"down_after": after, "counts": counts}))
        sys.exit(1)


def multipart(parts, boundary="b0"):
    body = b""
    for name, filename, data in parts:
        disposition = f'form-data; name="{name}"' + (f'; filename="{filename}"' if filename else "")
        body += f"--{boundary}\r\nContent-Disposition: {disposition}\r\n\r\n".encode() + data + b"\r\n"
    return body + f"--{boundary}--\r\n".encode()


start = rss()
for _ in range(2):  # warm-up: the models' memory
    http("warm-up", "POST", "/v1/detect", data=jpeg)
warm = rss()
for round_ in range(args.rounds):
    form = multipart([("image", "image.jpg", jpeg)])
    cut = form[: rng.randrange(1, len(form))]
    raw("cut multipart", b"POST /v1/vision/detection HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b0\r\n"
        + f"Content-Length: {len(form)}\r\n\r\n".encode() + cut, read=False)
    raw("huge headers", b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * rng.choice([20000, 70000, 300000]) + b"\r\n\r\n")
    http("wrong content type", "POST", "/v1/detect", data=b"text", headers={"Content-Type": "text/plain"})
    http("wrong content type", "POST", "/v1/vision/detection", data=form, headers={"Content-Type": "multipart/form-data"})
    http("wrong content type", "POST", "/v1/vision/detection", data=form, headers={"Content-Type": "multipart/form-data; boundary=zz"})
    http("empty body", "POST", rng.choice(["/v1/detect", "/v1/classify", "/v1/vision/detection", "/v1/track/x"]), data=b"")
    raw("declared 1 GB", b"POST /v1/detect HTTP/1.1\r\nHost: x\r\nContent-Length: 1073741824\r\n\r\n" + jpeg[:1000])
    raw("random bytes", bytes(rng.randrange(256) for _ in range(rng.randrange(1, 3000))))
    http("non-picture", "POST", "/v1/detect", data=rng.choice([b"%PDF-1.4 ...", b"\x89PNG\r\n\x1a\n", b"GIF89a", os.urandom(5000)]))
    damaged = bytearray(jpeg)
    for _ in range(rng.randrange(1, 40)):
        damaged[rng.randrange(len(damaged))] = rng.randrange(256)
    http("damaged JPEG", "POST", "/v1/detect", data=bytes(damaged))
    http("damaged JPEG", "POST", "/v1/vision/detection", files={"image": jpeg[: rng.randrange(2, len(jpeg))]})
    http("unknown route or method", rng.choice(["GET", "PUT", "PATCH", "DELETE", "POST"]),
         rng.choice(["/v1/nothing", "/v1/detect", "/admin", "/v1/vision/custom/../../etc", "/v1/track/" + "x" * 100]))
    http("bad arguments", "POST", "/v1/detect?" + rng.choice(["maxResults=0", "maxResults=x", "scoreThreshold=nan",
                                                            "roi=1,2,3", "model=nope", "allow=a&deny=b", "zz=1"]), data=jpeg)
    # DOODS2's /detect: each of these is the caller's mistake, answered 4xx with DOODS' `error`.
    b64 = base64.b64encode(jpeg).decode()
    bad_doods = rng.choice([
        {"data": b64[: rng.randrange(1, len(b64))] + "!"},
        {"data": base64.b64encode(os.urandom(rng.randrange(1, 3000))).decode(), "detect": {"*": 0}},
        {"data": b64, "detect": rng.choice([["person"], "person", 5, {"person": "high"}, {"person": -1}, {"person": 1e9},
                                            {"person": True}, {"person": None}])},
        {"data": b64, "regions": [{"top": rng.random(), "detect": {"*": 0}}] * rng.randrange(65, 5000)},
        {"data": b64, "regions": [{"top": rng.choice([-1, 2, "x", None, True]), "detect": {}}]},
        {"data": b64, "regions": rng.choice(["all", 5, {"top": 0}, [[0, 0, 1, 1]], [{"covers": "yes"}]])},
        {"data": b64, "detect": {f"unicorn{i}": 50 for i in range(rng.randrange(1, 3000))}},
        {"data": rng.choice([None, 7, [], {}, ""])},
        {"data": b64, "detector_name": rng.choice(["nope", 7, "../x", ["default"]])},
        {"data": b64, "image": "jpeg", "preprocess": ["grayscale"]},
    ])
    http("DOODS bad request", "POST", "/detect", client_error=True, json=bad_doods)
    http("DOODS not JSON", "POST", "/detect", client_error=True,
         data=rng.choice([b"", b"[1,", os.urandom(300), b"null", b'"x"', b"{" * 5000]))
    http("DOODS wrong method", rng.choice(["GET", "PUT", "DELETE"]), "/detect", client_error=True)
    http("probes", "GET", rng.choice(["/detectors", "/v1/status/updateavailable", "/v1/server/status/ping"]))
    alive(f"round {round_} (HTTP)")

# ZMQ: a REQ socket as Frigate's, recreated after each exchange (a dropped message leaves REQ stuck).
context = zmq.Context()


def zreq(kind, frames):
    s = context.socket(zmq.REQ)
    s.setsockopt(zmq.RCVTIMEO, 10000)
    s.setsockopt(zmq.LINGER, 0)
    s.connect(endpoint)
    try:
        s.send_multipart(frames)
        reply = s.recv_multipart()
        if len(reply) == 1 and len(reply[0]) == 480:
            count(kind, "zero reply" if not any(reply[0]) else "rows")
        else:
            try:
                accepted = sorted(k for k, v in json.loads(reply[0]).items() if v is True)
                count(kind, "json " + ",".join(accepted) if accepted else "json refusal")
            except ValueError:
                count(kind, "unclear")
                unclear.append((kind, reply[0][:100]))
    except zmq.Again:
        count(kind, "no reply")
    finally:
        s.close()


for round_ in range(args.rounds):
    h, w = rng.choice([(300, 300), (320, 320), (1, 1), (3, 300)])
    zreq("ZMQ wrong shape", [json.dumps({"shape": [1, h, w, 3], "dtype": "uint8"}).encode(), bytes(h * w * 3)])
    zreq("ZMQ wrong dtype", [json.dumps({"shape": [1, 300, 300, 3], "dtype": rng.choice(["float64", "int16", "", 7])}).encode(),
                             bytes(300 * 300 * 3)])
    zreq("ZMQ wrong size", [json.dumps({"shape": [1, 300, 300, 3], "dtype": "uint8"}).encode(), bytes(rng.randrange(0, 400000))])
    zreq("ZMQ garbage", [os.urandom(rng.randrange(1, 200))] + [os.urandom(10)] * rng.randrange(0, 3))
    zreq("ZMQ bad header", [rng.choice([b'{"shape": "x"}', b'{"shape": [1e30, 2]}', b'{"shape": [-1, 300, 300, 3]}',
                                        b'{"shape": []}', b"[]", b"null"]), b"x"])
    model = bytearray(open(args.model, "rb").read())
    for _ in range(rng.randrange(1, 20)):
        model[rng.randrange(min(len(model), 20000))] = rng.randrange(256)
    zreq("ZMQ bad model upload", [json.dumps({"model_data": True, "model_name": f"bad{round_}.tflite"}).encode(),
                                  bytes(model[: rng.randrange(100, len(model))])])
    zreq("ZMQ bad model upload", [json.dumps({"model_data": True, "model_name": "../escape.tflite"}).encode(), bytes(model)])
    alive(f"round {round_} (ZMQ)")

end = rss()
server.terminate()
server.wait(timeout=60)
escaped = os.path.exists(os.path.join(folder, "escape.tflite")) or os.path.exists(os.path.join(folder, "..", "escape.tflite"))
result = {
    "rounds": args.rounds, "requests": sum(sum(v.values()) for v in counts.values()), "counts": counts,
    "unclear": unclear[:10], "rssKiB": {"start": start, "afterWarmup": warm, "end": end}, "exit": server.returncode,
    "uploadEscaped": escaped,
}
print(json.dumps(result, indent=1))
bounded = end <= warm * 1.5 + 50_000
sys.exit(0 if not unclear and bounded and server.returncode == 0 and not escaped else 1)
