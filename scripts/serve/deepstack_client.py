"""Posts a picture to a DeepStack / CodeProject.AI detection route as its real clients do, with
Python requests, and prints {"status", "ms", "body"} as JSON.

  deepstack_client.py URL PICTURE [--as frigate|homeassistant] [--api-key KEY] [--min-confidence F]
                      [--timeout SECONDS]

--as frigate: Frigate's deepstack detector (form fields api_key and image, the image as a file named
  "image" with no part content type, no min_confidence); --as homeassistant: the deepstack_object
  integration (image, api_key, min_confidence 0.1 unless given).
"""
import argparse
import json
import sys
import time

import requests

parser = argparse.ArgumentParser()
parser.add_argument("url")
parser.add_argument("picture")
parser.add_argument("--as", dest="client", choices=["frigate", "homeassistant"], default="frigate")
parser.add_argument("--api-key", default="")
parser.add_argument("--min-confidence")
parser.add_argument("--timeout", type=float, default=10)
args = parser.parse_args()

with open(args.picture, "rb") as f:
    picture = f.read()
data = {"api_key": args.api_key}
if args.client == "homeassistant":
    data["min_confidence"] = args.min_confidence or "0.1"
elif args.min_confidence:
    data["min_confidence"] = args.min_confidence
session = requests.Session()
t0 = time.monotonic()
try:
    response = session.post(args.url, data=data, files={"image": picture}, timeout=args.timeout)
except requests.exceptions.RequestException as e:
    print(json.dumps({"status": None, "error": str(e)}))
    sys.exit(0)
ms = (time.monotonic() - t0) * 1000
try:
    body = response.json()
except ValueError:
    body = response.text
print(json.dumps({"status": response.status_code, "ms": ms, "body": body}))
