"""Talks to a ZMQ detector exactly as Frigate's `zmq` detector (Frigate 0.17) does, with pyzmq, and
prints what happened as JSON: the model handshake (`model_request`, then `model_data` with the
model's bytes when the server asks for it), then each tensor as [header JSON, raw C-order bytes] and
its reply decoded as Frigate decodes it (one 480-byte frame, or [header, bytes]) into 20 rows of
[class, score, y_min, x_min, y_max, x_max].

  frigate_zmq_client.py ENDPOINT MODEL_PATH TENSOR_FILE SHAPE DTYPE [--send-model] [--timeout-ms N]
                        [--repeat N]

SHAPE is comma-separated (1,300,300,3); DTYPE uint8 or float32. --send-model: send the model's bytes
when the server says it is not available (Frigate always does; without it the run stops there).
"""
import argparse
import json
import os
import struct
import time

import zmq

parser = argparse.ArgumentParser()
parser.add_argument("endpoint")
parser.add_argument("model_path")
parser.add_argument("tensor")
parser.add_argument("shape")
parser.add_argument("dtype")
parser.add_argument("--send-model", action="store_true")
parser.add_argument("--timeout-ms", type=int, default=200)
parser.add_argument("--repeat", type=int, default=1)
args = parser.parse_args()

out = {}
context = zmq.Context()
socket = context.socket(zmq.REQ)
socket.setsockopt(zmq.RCVTIMEO, args.timeout_ms)
socket.setsockopt(zmq.SNDTIMEO, args.timeout_ms)
socket.setsockopt(zmq.LINGER, 0)
socket.connect(args.endpoint)
model_name = os.path.basename(args.model_path)

# The handshake, with Frigate's 30 s wait.
socket.setsockopt(zmq.RCVTIMEO, 30000)
socket.send(json.dumps({"model_request": True, "model_name": model_name}).encode("utf-8"))
reply = json.loads(socket.recv().decode("utf-8"))
out["model_request"] = reply
ready = reply.get("model_available") and reply.get("model_loaded")
if not ready and not reply.get("model_available") and args.send_model:
    with open(args.model_path, "rb") as f:
        model = f.read()
    socket.send_multipart([json.dumps({"model_data": True, "model_name": model_name}).encode("utf-8"), model])
    reply = json.loads(socket.recv().decode("utf-8"))
    out["model_data"] = reply
    ready = reply.get("model_saved") and reply.get("model_loaded")
socket.setsockopt(zmq.RCVTIMEO, args.timeout_ms)
out["ready"] = bool(ready)
if ready:
    with open(args.tensor, "rb") as f:
        tensor = f.read()
    header = {"shape": [int(s) for s in args.shape.split(",")], "dtype": args.dtype, "model_type": "ssd"}
    runs = []
    for _ in range(args.repeat):
        t0 = time.monotonic()
        socket.send_multipart([json.dumps(header).encode("utf-8"), tensor])
        try:
            frames = socket.recv_multipart()
        except zmq.Again:
            runs.append({"timeout": True, "ms": (time.monotonic() - t0) * 1000})
            break
        ms = (time.monotonic() - t0) * 1000
        if len(frames) == 1 and len(frames[0]) == 20 * 6 * 4:
            data = frames[0]
        elif len(frames) >= 2:
            data = frames[1]
        else:
            runs.append({"bad_reply": [len(f) for f in frames], "ms": ms})
            continue
        values = struct.unpack("=%df" % (len(data) // 4), data)
        rows = [list(values[i * 6:(i + 1) * 6]) for i in range(len(values) // 6)]
        runs.append({"rows": rows, "ms": ms})
    out["runs"] = runs
print(json.dumps(out))
