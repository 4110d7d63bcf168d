"""Golden outputs of LiteRT's Python Interpreter (ai-edge-litert 2.3.0), for bit-exactness tests.

For each model: its input/output tensor details, op names, and the outputs for a deterministic
input (uint8: (i*31+7) % 256; float32: that value / 127.5 - 1), stored as sha256 of the raw
little-endian bytes plus the first values.

Usage: python litert_goldens.py ASSETS_DIR > Tests/Goldens/litert.json
"""
import hashlib
import json
import sys

import numpy as np
from ai_edge_litert.interpreter import Interpreter, OpResolverType

MODELS = [
    "ssd_mobilenet_v1_coco_quant_metadata.tflite",
    "mobilenet_v2_1.0_224_quant.tflite",
    "face_detection_short_range.tflite",
    # Float activations, int8 weights (hybrid ops): on aarch64 the proof that LiteRT's C API, as we call
    # it, computes what its Python interpreter does, while MediaPipe's aarch64 build computes otherwise.
    "ssd_mobilenet_v2_fpnlite_320_coco_hybrid_metadata.tflite",
]


def details(d):
    q = d.get("quantization_parameters", {})
    return {
        "name": d["name"],
        "shape": [int(x) for x in d["shape"]],
        "dtype": np.dtype(d["dtype"]).name,
        "scales": [float(x) for x in q.get("scales", [])],
        "zero_points": [int(x) for x in q.get("zero_points", [])],
    }


def main():
    assets = sys.argv[1]
    out = {}
    for name in MODELS:
        interp = Interpreter(model_path=f"{assets}/models/{name}", num_threads=1)
        interp.allocate_tensors()
        inp = interp.get_input_details()[0]
        n = int(np.prod(inp["shape"]))
        pattern = (np.arange(n, dtype=np.int64) * 31 + 7) % 256
        if inp["dtype"] == np.uint8:
            data = pattern.astype(np.uint8)
        else:
            data = pattern.astype(np.float32) / np.float32(127.5) - np.float32(1.0)
        interp.set_tensor(inp["index"], data.reshape(inp["shape"]))
        interp.invoke()
        # A model with a signature is run by LiteRT's C API under its signature's names.
        signature = {}
        signatures = interp.get_signature_list()
        if signatures:
            runner = interp.get_signature_runner(next(iter(signatures)))
            for kind, listed in (("in", runner.get_input_details()), ("out", runner.get_output_details())):
                signature.update({(kind, d["index"]): key for key, d in listed.items()})
        outputs = []
        for d in interp.get_output_details():
            t = interp.get_tensor(d["index"])
            raw = np.ascontiguousarray(t).tobytes()
            outputs.append({
                **details(d),
                **({"signature_name": signature[("out", d["index"])]} if ("out", d["index"]) in signature else {}),
                "runtime_shape": [int(x) for x in t.shape],
                "sha256": hashlib.sha256(raw).hexdigest(),
                "first": [float(x) for x in t.flatten()[:8]],
            })
        # The model's own ops and tensors, without the nodes and tensors XNNPACK adds when delegating.
        plain = Interpreter(model_path=f"{assets}/models/{name}",
                            experimental_op_resolver_type=OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
        plain.allocate_tensors()
        ops = [op["op_name"] for op in plain._get_ops_details()]
        out[name] = {
            "inputs": [{**details(d), **({"signature_name": signature[("in", d["index"])]}
                                           if ("in", d["index"]) in signature else {})}
                       for d in interp.get_input_details()],
            "outputs": outputs,
            # Model tensors come first (index order); the interpreter may append scratch tensors.
            "tensors": [[t["name"], [int(x) for x in t["shape"]], np.dtype(t["dtype"]).name]
                        for t in sorted(plain.get_tensor_details(), key=lambda t: t["index"])],
            "ops": ops,
        }
    json.dump(out, sys.stdout, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
