"""Sends a picture to a route of `vision-tasks serve` (or any server) from C threads at once, each
with its own keep-alive session, for N requests or S seconds, and prints one JSON object: statuses,
requests per second, latency percentiles (ms), client errors, and whether 503s carried Retry-After.

  load_client.py URL PICTURE [--requests N | --seconds S] [--concurrency C] [--multipart]
                 [--timeout SECONDS]

--multipart posts the picture as DeepStack's `image` form field; otherwise as the body.
"""
import argparse
import json
import threading
import time

import requests

parser = argparse.ArgumentParser()
parser.add_argument("url")
parser.add_argument("picture")
parser.add_argument("--requests", type=int, default=0)
parser.add_argument("--seconds", type=float, default=0)
parser.add_argument("--concurrency", type=int, default=1)
parser.add_argument("--multipart", action="store_true")
parser.add_argument("--timeout", type=float, default=30)
args = parser.parse_args()
if not args.requests and not args.seconds:
    args.requests = 100

with open(args.picture, "rb") as f:
    picture = f.read()
lock = threading.Lock()
statuses, latencies, errors = {}, [], []
retry_after = [False]
sent = [0]
stop_at = time.monotonic() + args.seconds if args.seconds else None


def take():
    with lock:
        if args.requests and sent[0] >= args.requests:
            return False
        if stop_at and time.monotonic() >= stop_at:
            return False
        sent[0] += 1
        return True


def worker():
    session = requests.Session()
    while take():
        t0 = time.monotonic()
        try:
            if args.multipart:
                r = session.post(args.url, files={"image": picture}, timeout=args.timeout)
            else:
                r = session.post(args.url, data=picture, timeout=args.timeout)
            ms = (time.monotonic() - t0) * 1000
            with lock:
                statuses[str(r.status_code)] = statuses.get(str(r.status_code), 0) + 1
                latencies.append(ms)
                if r.status_code == 503 and r.headers.get("Retry-After"):
                    retry_after[0] = True
        except requests.exceptions.RequestException as e:
            with lock:
                errors.append(type(e).__name__)


t0 = time.monotonic()
threads = [threading.Thread(target=worker) for _ in range(args.concurrency)]
for t in threads:
    t.start()
for t in threads:
    t.join()
elapsed = time.monotonic() - t0
latencies.sort()


def percentile(p):
    if not latencies:
        return None
    return latencies[min(len(latencies) - 1, int(p / 100 * len(latencies)))]


ok = statuses.get("200", 0)
print(json.dumps({
    "requests": sent[0], "seconds": elapsed, "statuses": statuses, "errors": len(errors),
    "errorKinds": sorted(set(errors)), "okPerSecond": ok / elapsed if elapsed else 0,
    "p50": percentile(50), "p90": percentile(90), "p99": percentile(99), "retryAfter": retry_after[0],
}))
