"""Multiply-adds per inference of a .tflite model (scripts/bench/roofline.sh): CONV_2D, DEPTHWISE_CONV_2D and
FULLY_CONNECTED, from the tensors' shapes, and with --peak G (multiply-adds per second, in billions) the
inference time at that rate. Usage: macs.py [--peak G] MODEL... — prints one line per model."""
import sys

import tflite  # the flatbuffer schema (PyPI: tflite), in .venv-openvino


def macs(path):
    with open(path, "rb") as f:
        model = tflite.Model.GetRootAsModel(f.read(), 0)
    graph = model.Subgraphs(0)
    codes = [max(model.OperatorCodes(i).BuiltinCode(), model.OperatorCodes(i).DeprecatedBuiltinCode())
             for i in range(model.OperatorCodesLength())]
    shape = lambda t: list(graph.Tensors(t).ShapeAsNumpy())
    kinds = {"conv": 0, "depthwise": 0, "fc": 0}
    for i in range(graph.OperatorsLength()):
        op = graph.Operators(i)
        code = codes[op.OpcodeIndex()]
        if code == tflite.BuiltinOperator.CONV_2D:
            n, kh, kw, c = shape(op.Inputs(1))
            out = shape(op.Outputs(0))
            kinds["conv"] += out[0] * out[1] * out[2] * n * kh * kw * c
        elif code == tflite.BuiltinOperator.DEPTHWISE_CONV_2D:
            _, kh, kw, c = shape(op.Inputs(1))
            out = shape(op.Outputs(0))
            kinds["depthwise"] += out[0] * out[1] * out[2] * c * kh * kw
        elif code == tflite.BuiltinOperator.FULLY_CONNECTED:
            n, k = shape(op.Inputs(1))[:2]
            out = shape(op.Outputs(0))
            rows = 1
            for d in out[:-1]:
                rows *= d
            kinds["fc"] += rows * n * k
    return kinds


args = sys.argv[1:]
peak = None
if args[:1] == ["--peak"]:
    peak, args = float(args[1]), args[2:]
for path in args:
    k = macs(path)
    total = sum(k.values())
    at_peak = f", {total / (peak * 1e9) * 1e3:.2f} ms at the peak" if peak else ""
    print(f"{path.rsplit('/', 1)[-1]}  {total / 1e6:.1f} M multiply-adds{at_peak} "
          f"(convolutions {k['conv'] / 1e6:.1f} M, depthwise {k['depthwise'] / 1e6:.1f} M, fully connected {k['fc'] / 1e6:.1f} M)")
