#!/usr/bin/env python3
"""Layout and integer-I/O variants of the exported YOLO fixtures, made by editing the graph's ends
(Ultralytics 8.4.190's LiteRT exporter only makes NCHW, float-I/O models, and refuses half=True):

  yolov8t_int8io.tflite          yolov8t_int8 without its QUANTIZE/DEQUANTIZE ends: int8 input and
                                 output (scale/zero point of the tensors inside), the
                                 "full-integer" kind Ultralytics' LiteRT backend quantizes for
  yolov8t_nhwc_transposed.tflite yolov8t_float32 without its first TRANSPOSE (input [1, H, W, 3])
                                 and with one added at the end (output [1, N, 4+C])
  yolov8t_float16.tflite         yolov8t_float32 with every float32 constant of 2+ dimensions stored
                                 as float16 and read through a DEQUANTIZE op — TensorFlow Lite's
                                 float16 quantization, which Ultralytics' own exports once had

The weights and every other operator are untouched and the appended metadata.json zip is kept.
Ultralytics' predict runs on the int8-I/O model (its backend quantizes the input and dequantizes
the output itself) and on the float16 model; the NHWC/transposed model computes exactly what
yolov8t_float32 does (the transposes only move data), so its reference is that model's golden.
"""
import sys
import zipfile
from pathlib import Path

import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as s

FIXTURES = Path(__file__).resolve().parents[2] / "Tests/Fixtures/yolo"


def load(path: Path):
    buf = path.read_bytes()
    with zipfile.ZipFile(path) as z:  # the appended zip starts at its first local header
        start = min(i.header_offset for i in z.infolist())
    model = s.ModelT.InitFromPackedBuf(bytearray(buf), 0)
    for b in model.buffers:  # litert-torch stores large buffers after the flatbuffer: inline them
        if b.offset and b.offset > 1:
            b.data = np.frombuffer(buf[b.offset : b.offset + b.size], dtype=np.uint8)
            b.offset, b.size = 0, 0
    return model, buf[start:]


def save(model, appended: bytes, path: Path) -> None:
    b = flatbuffers.Builder(1024)
    b.Finish(model.Pack(b), file_identifier=b"TFL3")
    path.write_bytes(bytes(b.Output()) + appended)
    print(f"  {path} ({path.stat().st_size} bytes)")


def code(model, op) -> int:
    c = model.operatorCodes[op.opcodeIndex]
    return max(c.builtinCode, c.deprecatedBuiltinCode)


def rewire(model, old: int, new: int, inputs: bool) -> None:
    sg = model.subgraphs[0]
    ends = sg.inputs if inputs else sg.outputs
    ends[list(ends).index(old)] = new
    for sig in model.signatureDefs or []:
        for t in (sig.inputs if inputs else sig.outputs):
            if t.tensorIndex == old:
                t.tensorIndex = new


def int8_io(src: Path, dst: Path) -> None:
    model, appended = load(src)
    sg = model.subgraphs[0]
    quantize = next(op for op in sg.operators if code(model, op) == s.BuiltinOperator.QUANTIZE and op.inputs[0] == sg.inputs[0])
    dequantize = next(op for op in sg.operators if code(model, op) == s.BuiltinOperator.DEQUANTIZE and op.outputs[0] == sg.outputs[0])
    rewire(model, sg.inputs[0], quantize.outputs[0], inputs=True)
    rewire(model, sg.outputs[0], dequantize.inputs[0], inputs=False)
    sg.operators = [op for op in sg.operators if op is not quantize and op is not dequantize]
    save(model, appended, dst)


def nhwc_transposed(src: Path, dst: Path) -> None:
    model, appended = load(src)
    sg = model.subgraphs[0]
    first = next(op for op in sg.operators if code(model, op) == s.BuiltinOperator.TRANSPOSE and op.inputs[0] == sg.inputs[0])
    rewire(model, sg.inputs[0], first.outputs[0], inputs=True)
    sg.operators = [op for op in sg.operators if op is not first]
    # output [1, 4+C, N] -> TRANSPOSE(perm 0, 2, 1) -> [1, N, 4+C]
    out = sg.outputs[0]
    shape = list(sg.tensors[out].shape)
    perm_buffer = s.BufferT()
    perm_buffer.data = np.array([0, 2, 1], dtype="<i4").view(np.uint8)
    model.buffers.append(perm_buffer)
    perm = s.TensorT()
    perm.shape, perm.type, perm.buffer, perm.name = [3], s.TensorType.INT32, len(model.buffers) - 1, b"transpose_perm"
    result = s.TensorT()
    result.shape, result.type, result.buffer, result.name = [shape[0], shape[2], shape[1]], s.TensorType.FLOAT32, 0, b"output_transposed"
    empty = s.BufferT()
    model.buffers.append(empty)
    result.buffer = len(model.buffers) - 1
    sg.tensors += [perm, result]
    transpose = next(i for i, c in enumerate(model.operatorCodes) if max(c.builtinCode, c.deprecatedBuiltinCode) == s.BuiltinOperator.TRANSPOSE)
    op = s.OperatorT()
    op.opcodeIndex, op.inputs, op.outputs = transpose, [out, len(sg.tensors) - 2], [len(sg.tensors) - 1]
    op.builtinOptionsType, op.builtinOptions = s.BuiltinOptions.TransposeOptions, s.TransposeOptionsT()
    sg.operators.append(op)
    rewire(model, out, len(sg.tensors) - 1, inputs=False)
    save(model, appended, dst)


def float16(src: Path, dst: Path) -> None:
    model, appended = load(src)
    sg = model.subgraphs[0]
    dequantize = next((i for i, c in enumerate(model.operatorCodes) if max(c.builtinCode, c.deprecatedBuiltinCode) == s.BuiltinOperator.DEQUANTIZE), None)
    if dequantize is None:
        code = s.OperatorCodeT()
        code.builtinCode, code.deprecatedBuiltinCode, code.version = s.BuiltinOperator.DEQUANTIZE, s.BuiltinOperator.DEQUANTIZE, 1
        model.operatorCodes.append(code)
        dequantize = len(model.operatorCodes) - 1
    readers = {}  # constant tensor -> its float16 copy's DEQUANTIZE output
    added = []
    for op in sg.operators:
        for k, t in enumerate(op.inputs):
            tensor = sg.tensors[t] if t >= 0 else None
            data = model.buffers[tensor.buffer].data if tensor is not None and tensor.buffer else None
            if tensor is None or tensor.type != s.TensorType.FLOAT32 or data is None or len(data) == 0 or len(tensor.shape) < 2:
                continue
            if t not in readers:
                half = s.TensorT()
                half.shape, half.type, half.name = list(tensor.shape), s.TensorType.FLOAT16, tensor.name + b"_fp16"
                buffer = s.BufferT()
                buffer.data = np.frombuffer(np.asarray(data, dtype=np.uint8).tobytes(), dtype="<f4").astype("<f2").view(np.uint8)
                model.buffers.append(buffer)
                half.buffer = len(model.buffers) - 1
                sg.tensors.append(half)
                out = s.TensorT()
                out.shape, out.type, out.name = list(tensor.shape), s.TensorType.FLOAT32, tensor.name + b"_dequantized"
                empty = s.BufferT()
                model.buffers.append(empty)
                out.buffer = len(model.buffers) - 1
                sg.tensors.append(out)
                dq = s.OperatorT()
                dq.opcodeIndex, dq.inputs, dq.outputs = dequantize, [len(sg.tensors) - 2], [len(sg.tensors) - 1]
                added.append(dq)
                readers[t] = len(sg.tensors) - 1
            op.inputs[k] = readers[t]
    sg.operators = added + list(sg.operators)
    for t in readers:  # the float32 originals are read by nothing now
        model.buffers[sg.tensors[t].buffer].data = None
    print(f"  {len(readers)} float32 constants stored as float16")
    save(model, appended, dst)


def make(fixtures: Path = FIXTURES) -> dict[str, Path]:
    made = {
        "yolov8t_int8io.tflite": fixtures / "yolov8t_int8io.tflite",
        "yolov8t_nhwc_transposed.tflite": fixtures / "yolov8t_nhwc_transposed.tflite",
        "yolov8t_float16.tflite": fixtures / "yolov8t_float16.tflite",
    }
    int8_io(fixtures / "yolov8t_int8.tflite", made["yolov8t_int8io.tflite"])
    nhwc_transposed(fixtures / "yolov8t_float32.tflite", made["yolov8t_nhwc_transposed.tflite"])
    float16(fixtures / "yolov8t_float32.tflite", made["yolov8t_float16.tflite"])
    return made


if __name__ == "__main__":
    make(Path(sys.argv[1]) if len(sys.argv) > 1 else FIXTURES)
