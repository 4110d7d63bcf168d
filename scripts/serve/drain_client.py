"""Checks how `vision-tasks serve` stops: posts a picture, sends the server SIGTERM while that request
is being worked on, then opens new connections until one is refused (at most 5 s), and prints one
JSON object: the in-flight request's status, whether a new client was refused and how long after the
signal (ms), and how long after the signal the in-flight request was answered (ms). The caller checks the
server's exit status.

  drain_client.py URL PICTURE PID [--wait-ms MS]

--wait-ms: how long after posting the signal is sent (default 300; the server should be slower, e.g.
--delay-ms 1500, so the request is still in flight).
"""
import argparse
import json
import os
import signal
import socket
import threading
import time
from urllib.parse import urlparse

import requests

parser = argparse.ArgumentParser()
parser.add_argument("url")
parser.add_argument("picture")
parser.add_argument("pid", type=int)
parser.add_argument("--wait-ms", type=int, default=300)
args = parser.parse_args()

with open(args.picture, "rb") as f:
    picture = f.read()
address = urlparse(args.url)
outcome = {}


def post():
    try:
        r = requests.post(args.url, data=picture, timeout=30)
        answered = time.monotonic()
        outcome["inflightAfterMs"] = round((answered - marks["signal"]) * 1000) if "signal" in marks else -1
        outcome["inflight"] = r.status_code
        outcome["inflightDetections"] = len(r.json().get("detections", []))
    except (requests.RequestException, ValueError) as e:
        outcome["inflight"] = "error: %s" % type(e).__name__


marks = {}  # "signal": when SIGTERM was sent (a response before it: -1)
worker = threading.Thread(target=post)
worker.start()
time.sleep(args.wait_ms / 1000)
signalled = marks["signal"] = time.monotonic()
os.kill(args.pid, signal.SIGTERM)
outcome["refused"] = False
while time.monotonic() - signalled < 5:
    try:
        with socket.create_connection((address.hostname, address.port), timeout=2):
            pass  # accepted (or still queued) before the server stopped listening: try again
    except ConnectionRefusedError:
        outcome["refused"] = True
        outcome["refusedAfterMs"] = round((time.monotonic() - signalled) * 1000)
        break
    except OSError as e:
        outcome["newClient"] = "error: %s" % type(e).__name__
    time.sleep(0.02)
worker.join(timeout=30)
print(json.dumps(outcome))
