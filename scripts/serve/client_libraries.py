"""Drives a running `vision-tasks serve` with the client libraries other programs use, from PyPI, and
prints what each library parsed as one JSON object (the suite compares it with `vision-tasks detect`):

  client_libraries.py HOST PORT --key KEY [--open-port PORT] PICTURE...

- pydoods (Home Assistant's `doods` integration): get_detectors(), then detect() on each picture with
  Home Assistant's filter for every label ({"*": 0}) on the detector `default`; its errors with a wrong
  key, a picture that is not one, an unknown detector.
- deepstack-python (Home Assistant's `deepstack_object`): DeepstackObject(custom_model="ssd",
  min_confidence=0.1).detect() on each picture; a wrong key, a bad picture, an unknown custom model.
- codeproject-ai-api: CodeProjectAIObject(min_confidence=0.1).detect() against the server on
  --open-port (the library sends no key); a bad picture, an unknown custom model.
Errors are reported as the library raises them: the exception's class and message, and for HTTP
errors the status and the JSON body.
"""
import argparse
import json
import os

import codeprojectai.core as cpai
import deepstack.core as ds
import requests
from pydoods import PyDOODS

parser = argparse.ArgumentParser()
parser.add_argument("host")
parser.add_argument("port", type=int)
parser.add_argument("--key", required=True)
parser.add_argument("--open-port", type=int)
parser.add_argument("pictures", nargs="+")
args = parser.parse_args()
url = f"http://{args.host}:{args.port}"
pictures = {os.path.basename(p): open(p, "rb").read() for p in args.pictures}
NOT_A_PICTURE = b"this is not a picture"


def failure(call):
    """What `call` raises, as the caller sees it."""
    try:
        call()
    except requests.HTTPError as e:
        try:
            body = e.response.json()
        except ValueError:
            body = e.response.text
        return {"raised": "HTTPError", "status": e.response.status_code, "body": body}
    except Exception as e:  # the libraries' own exception classes
        return {"raised": type(e).__name__, "message": str(e)}
    return {"raised": None}


out = {}

# pydoods, as Home Assistant's integration calls it.
doods = PyDOODS(url, auth_key=args.key, timeout=30)
detectors = doods.get_detectors()["detectors"]
default = next(d for d in detectors if d["name"] == "default")
replies = {name: doods.detect(data, dconfig={"*": 0}, detector_name="default", id=name) for name, data in pictures.items()}
out["pydoods"] = {
    "detectors": [{k: d[k] for k in ("name", "type", "model", "width", "height")} | {"labels": len(d["labels"])} for d in detectors],
    "defaultLabels": default["labels"],
    "replies": {
        name: {"keys": sorted(r.keys()), "id": r.get("id"), "detections": r["detections"]} for name, r in replies.items()
    },
    "errors": {
        "wrongKey": failure(lambda: PyDOODS(url, auth_key="guess", timeout=30)),
        "badPicture": failure(lambda: doods.detect(NOT_A_PICTURE, dconfig={"*": 0})),
        "unknownDetector": failure(lambda: doods.detect(next(iter(pictures.values())), {"*": 0}, detector_name="nope")),
    },
}

# deepstack-python, as Home Assistant's deepstack_object component calls it.
ds_object = ds.DeepstackObject(args.host, args.port, api_key=args.key, timeout=30, min_confidence=0.1, custom_model="ssd")
out["deepstack"] = {
    "predictions": {name: ds_object.detect(data) for name, data in pictures.items()},
    "errors": {
        "wrongKey": failure(
            lambda: ds.DeepstackObject(args.host, args.port, api_key="guess", timeout=30).detect(next(iter(pictures.values())))
        ),
        "badPicture": failure(lambda: ds_object.detect(NOT_A_PICTURE)),
        "unknownModel": failure(
            lambda: ds.DeepstackObject(args.host, args.port, api_key=args.key, custom_model="nope").detect(
                next(iter(pictures.values()))
            )
        ),
    },
}

# CodeProject.AI's client (no key: it sends none).
if args.open_port:
    cp_object = cpai.CodeProjectAIObject(args.host, args.open_port, timeout=30, min_confidence=0.1)
    out["codeprojectai"] = {
        "predictions": {name: cp_object.detect(data) for name, data in pictures.items()},
        "errors": {
            "badPicture": failure(lambda: cp_object.detect(NOT_A_PICTURE)),
            "unknownModel": failure(
                lambda: cpai.CodeProjectAIObject(args.host, args.open_port, custom_model="nope").detect(
                    next(iter(pictures.values()))
                )
            ),
        },
    }

print(json.dumps(out))
