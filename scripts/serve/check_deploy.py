"""Reads the configurations in deploy/ as their programs read them and drives a running `vision-tasks
serve` with each one's settings through that program's own client code, printing what happened as one
JSON object (the suite checks it):

  check_deploy.py DEPLOY_DIR HOST PORT --key KEY --picture PICTURE

- homeassistant/configuration.yaml, `doods`: Home Assistant's set-up (pydoods' get_detectors, the
  detector found by name, the per-label minimums built from `confidence` and `labels`) and one
  process_image pass (pydoods' detect, then the integration's label and area rules) on PICTURE.
- homeassistant/configuration.yaml, `deepstack_object`: deepstack-python with its ip/port/custom_model
  (min_confidence 0.1, the integration's) on PICTURE.
- frigate/config.yml: the deepstack detector's api_url path, posted as Frigate posts (api_key, image).
- compose.yaml and kubernetes/vision-tasks.yaml: the image, command or args, environment, health check
  and ports, reported for the suite to check (and the Kubernetes args to start serve with).
The host and port in the files (visiontasks-host:8080) are replaced by HOST and PORT, the empty keys by KEY.
"""
import argparse
import json
import os
from urllib.parse import urlparse

import deepstack.core as ds
import requests
import yaml
from pydoods import PyDOODS

parser = argparse.ArgumentParser()
parser.add_argument("deploy")
parser.add_argument("host")
parser.add_argument("port", type=int)
parser.add_argument("--key", required=True)
parser.add_argument("--picture", required=True)
args = parser.parse_args()
picture = open(args.picture, "rb").read()
out = {}


def load(name):
    with open(os.path.join(args.deploy, name)) as f:
        return yaml.safe_load(f)


def here(url):
    """`url` with its host and port replaced by the server's."""
    u = urlparse(url)
    return u._replace(netloc=f"{args.host}:{args.port}").geturl()


ha = {e["platform"]: e for e in load("homeassistant/configuration.yaml")["image_processing"]}

# Home Assistant's doods integration: its set-up, then one picture processed.
doods_config = ha["doods"]
doods = PyDOODS(here(doods_config["url"]), doods_config.get("auth_key") or args.key)
detectors = doods.get_detectors()["detectors"]
detector = next((d for d in detectors if d["name"] == doods_config["detector"]), None)
confidence = doods_config.get("confidence", 0.0)
dconfig, areas = {}, {}
for label in doods_config.get("labels", []):
    name = label["name"] if isinstance(label, dict) else label
    minimum = label.get("confidence", 0.0) if isinstance(label, dict) else confidence
    if name not in detector["labels"] and name != "*":
        continue
    dconfig[name] = min(dconfig.get(name, minimum), minimum)
    area = label.get("area", {}) if isinstance(label, dict) else {}
    areas[name] = [area.get("top", 0), area.get("left", 0), area.get("bottom", 1), area.get("right", 1)]
if not dconfig:
    dconfig["*"] = confidence
response = doods.detect(picture, dconfig=dconfig, detector_name=detector["name"])
matches = []
for d in response.get("detections", []):
    box = [d["top"], d["left"], d["bottom"], d["right"]]
    if "*" not in dconfig and d["label"] not in dconfig:
        continue
    a = areas.get(d["label"], [0, 0, 1, 1])
    if box[0] < a[0] or box[1] < a[1] or box[2] > a[2] or box[3] > a[3]:
        continue
    matches.append({"label": d["label"], "confidence": d["confidence"], "box": box})
out["doods"] = {
    "detector": detector and detector["name"],
    "dconfig": dconfig,
    "areas": areas,
    "error": response.get("error"),
    "detections": response.get("detections"),
    "matches": matches,
}

# Home Assistant's deepstack_object integration.
ds_config = ha["deepstack_object"]
ds_object = ds.DeepstackObject(
    args.host, args.port, api_key=ds_config.get("api_key") or args.key, timeout=30, min_confidence=0.1,
    custom_model=ds_config.get("custom_model", ""),
)
out["deepstack_object"] = {
    "customModel": ds_config.get("custom_model"),
    "targets": [t["target"] for t in ds_config["targets"]],
    "predictions": ds_object.detect(picture),
}

# Frigate's deepstack detector: api_url, api_key and the image field, as Frigate posts them.
frigate = load("frigate/config.yml")["detectors"]["visiontasks"]
r = requests.post(
    here(frigate["api_url"]), data={"api_key": frigate.get("api_key") or args.key}, files={"image": picture},
    timeout=frigate.get("api_timeout", 0.1) * 100,
)
out["frigate"] = {"type": frigate["type"], "path": urlparse(frigate["api_url"]).path, "status": r.status_code,
                  "predictions": r.json().get("predictions")}

# The image's users: compose and Kubernetes.
compose = load("compose.yaml")["services"]["vision-tasks"]
out["compose"] = {
    "image": compose["image"], "command": compose["command"], "environment": compose.get("environment", {}),
    "ports": compose["ports"], "healthcheck": compose["healthcheck"]["test"], "secrets": compose.get("secrets"),
}
deployment = next(d for d in yaml.safe_load_all(open(os.path.join(args.deploy, "kubernetes/vision-tasks.yaml")))
                  if d["kind"] == "Deployment")
container = deployment["spec"]["template"]["spec"]["containers"][0]
out["kubernetes"] = {
    "image": container["image"], "command": container.get("command"), "args": container["args"],
    "readiness": container["readinessProbe"]["httpGet"]["path"], "liveness": container["livenessProbe"]["httpGet"]["path"],
}
print(json.dumps(out))
