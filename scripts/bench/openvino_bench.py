"""Times OpenVINO (PyPI `openvino`, which reads `.tflite` models directly) on one model and photo as a
user who picks it would run it: CPU plugin, 1 inference thread, the latency hint, one stream. Prints
one JSON object: the precision OpenVINO chose (`INFERENCE_PRECISION_HINT`, and how many of its
compiled convolutions run in each precision: quantized ones in u8/i8), the median inference of
RUNS calls after WARMUP on the photo's tensor, and, interleaved, decoding alone (OpenCV's imread, as
OpenVINO's samples and Frigate decode) and file → result (decode, OpenCV's bilinear resize to the
model's input, BGR → RGB, the call).

Detectors end in TFLite_Detection_PostProcess, an op OpenVINO's TFLite frontend has no translator
for. They are run cut before it: a copy of the model whose operator list stops before that op and
whose outputs are its box and score inputs (the flatbuffer's two vector lengths and the outputs'
tensor indices rewritten in place; nothing else moves). The op itself is left to the caller to
account with the same code on both sides (bench.py adds the time our kernel takes for it, from
`vision-tasks bench --profile`, to OpenVINO's figures and says so).

Usage: python openvino_bench.py MODEL IMAGE [RUNS] [WARMUP]
"""
import collections
import json
import os
import statistics
import struct
import sys
import tempfile
import time

import cv2
import numpy as np
import openvino as ov
import tflite
from flatbuffers.number_types import UOffsetTFlags

POSTPROCESS = b"TFLite_Detection_PostProcess"


def cut_before_postprocess(path):
    """The path of a copy of the model cut before its TFLite_Detection_PostProcess op (None: it has none)."""
    data = bytearray(open(path, "rb").read())
    model = tflite.Model.GetRootAsModel(data, 0)
    graph = model.Subgraphs(0)
    count = graph.OperatorsLength()
    last = graph.Operators(count - 1)
    if model.OperatorCodes(last.OpcodeIndex()).CustomCode() != POSTPROCESS:
        return None
    for i in range(count - 1):  # the op must be the last: cutting the list cuts nothing else
        if model.OperatorCodes(graph.Operators(i).OpcodeIndex()).CustomCode() == POSTPROCESS:
            raise SystemExit("the post-processing op is not the last operator")
    operators = graph._tab.Vector(UOffsetTFlags.py_type(graph._tab.Offset(10)))  # SubGraph.operators
    struct.pack_into("<I", data, operators - 4, count - 1)
    outputs = graph._tab.Vector(UOffsetTFlags.py_type(graph._tab.Offset(8)))  # SubGraph.outputs
    kept = [last.Inputs(0), last.Inputs(1)]  # box encodings, class scores
    if graph.OutputsLength() < len(kept):
        raise SystemExit("the model has fewer outputs than the cut needs")
    struct.pack_into("<I", data, outputs - 4, len(kept))
    for i, tensor in enumerate(kept):
        struct.pack_into("<i", data, outputs + 4 * i, tensor)
    handle, cut = tempfile.mkstemp(suffix=".tflite")
    with os.fdopen(handle, "wb") as f:
        f.write(data)
    return cut


def main():
    model_path, image_path = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    warmup = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    cut = cut_before_postprocess(model_path)
    core = ov.Core()
    model = core.read_model(cut or model_path)
    compiled = core.compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": 1, "PERFORMANCE_HINT": "LATENCY",
                                                 "NUM_STREAMS": 1})
    if cut:
        os.unlink(cut)
    request = compiled.create_infer_request()
    port = compiled.inputs[0]
    _, height, width, _ = [int(d) for d in port.get_shape()]
    dtype = port.get_element_type().to_dtype()

    def tensor(bgr):
        rgb = cv2.cvtColor(cv2.resize(bgr, (width, height), interpolation=cv2.INTER_LINEAR), cv2.COLOR_BGR2RGB)
        return np.ascontiguousarray(rgb[np.newaxis]).astype(dtype, copy=False)

    x = tensor(cv2.imread(image_path, cv2.IMREAD_COLOR))
    for _ in range(warmup):
        request.infer({0: x})
    infer, decode, whole = [], [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        request.infer({0: x})
        t1 = time.perf_counter()
        cv2.imread(image_path, cv2.IMREAD_COLOR)
        t2 = time.perf_counter()
        request.infer({0: tensor(cv2.imread(image_path, cv2.IMREAD_COLOR))})
        t3 = time.perf_counter()
        infer.append(t1 - t0)
        decode.append(t2 - t1)
        whole.append(t3 - t2)
    precisions = collections.Counter(
        op.get_rt_info()["runtimePrecision"].astype(str) for op in compiled.get_runtime_model().get_ordered_ops()
        if op.get_rt_info()["layerType"].astype(str) == "Convolution")
    print(json.dumps({
        "openvino": ov.get_version(), "model": model_path, "image": image_path, "runs": runs,
        "cut_before_postprocess": cut is not None,
        "precision": str(compiled.get_property("INFERENCE_PRECISION_HINT").get_type_name()),
        "convolution_precisions": dict(precisions.most_common()),
        "infer_ms": statistics.median(infer) * 1000, "decode_ms": statistics.median(decode) * 1000,
        "file_to_result_ms": statistics.median(whole) * 1000,
    }))


if __name__ == "__main__":
    main()
