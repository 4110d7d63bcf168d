#!/usr/bin/env python3
"""Release benchmarks of `vision-tasks bench` (1 thread, medians), ours vs the raw LiteRT run per stage,
and with --mediapipe PYTHON, MediaPipe 1.2.2's Python detect/classify on the same model and photo; with
--openvino PYTHON, OpenVINO (PyPI, reading the .tflite; 1 inference thread, latency hint) too; with
--litert-kernels, ours again with every kernel of ours switched off (LiteRT's own kernels throughout).

With MediaPipe, the comparison is interleaved: ROUNDS rounds of (ours, MediaPipe) — ABAB… — each a
process of its own pinned to the same CPU (taskset -c CPU), each giving the median of RUNS calls; the
table shows the median of the rounds' medians and the ratio ours/MediaPipe with its spread (min–max
over rounds), so that one noisy minute cannot decide a comparison. Each row is followed by the end to
end line — a photo file in, a result out: decoding alone, and file → result (decoding + the task),
ours (`MPImage(contentsOfFile:)`) vs MediaPipe's `mp.Image.create_from_file` — and the model's load
time (cold: its pages dropped from the page cache; warm) and first call. The CPU's name and flags are
printed and stored with the results (out/bench.jsonl).

OpenVINO takes its turn in each round after ours (and MediaPipe's), pinned the same way
(scripts/bench/openvino_bench.py): its inference on the photo's tensor, and file → result with OpenCV
decoding and resizing. It prints the precision it chose and how many convolutions run in each. Its
TFLite frontend cannot read TFLite_Detection_PostProcess, so detectors run cut before that op, and
the op's time is added to OpenVINO's figures as our kernel takes it (one `vision-tasks bench
--profile` of the model): the op is done by the same code on both sides.

Usage: bench.py --bin VISION_TASKS --assets DIR [--mediapipe PYTHON] [--openvino PYTHON] [--runs 100] [--rounds 5]
               [--cpu 1]
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys

# Every kernel of ours off: the task on LiteRT's own kernels (XNNPACK's and LiteRT's), for --litert-kernels.
LITERT_KERNELS = {name: "builtin" for name in (
    "VISION_TASKS_HYBRID_KERNEL", "VISION_TASKS_CONV1X1_KERNEL", "VISION_TASKS_HYBRID_CONV_KERNEL",
    "VISION_TASKS_FUSED_KERNELS", "VISION_TASKS_DEPTHWISE_KERNEL", "VISION_TASKS_POSTPROCESS_KERNEL",
    "VISION_TASKS_REQUANTIZE_KERNEL")}

PAIRS = [
    ("ssd_mobilenet_v1_coco_quant_metadata.tflite", "dog.jpg", []),
    ("ssd_mobilenet_v1_coco_quant_metadata.tflite", "cat_720p.jpg", []),
    ("ssd_mobilenet_v1_coco_quant_metadata.tflite", "dog.jpg",
     ["env:VISION_TASKS_CONV1X1_KERNEL=builtin", "env:VISION_TASKS_DEPTHWISE_KERNEL=builtin",
      "env:VISION_TASKS_POSTPROCESS_KERNEL=builtin"]),
    ("ssd_mobilenet_v2_fpnlite_320_coco_hybrid_metadata.tflite", "dog.jpg", []),
    ("ssd_mobilenet_v2_fpnlite_320_coco_hybrid_metadata.tflite", "dog.jpg",
     ["env:VISION_TASKS_HYBRID_KERNEL=builtin", "env:VISION_TASKS_CONV1X1_KERNEL=builtin",
      "env:VISION_TASKS_POSTPROCESS_KERNEL=builtin"]),
    ("ssd_mobilenet_v2_fpnlite_320_coco_hybrid_metadata.tflite", "dog.jpg", ["--fast-hybrid"]),
    ("mobilenet_v2_1.0_224_quant.tflite", "cat_720p.jpg", []),
    ("mobilenet_v1_0.25_128_quant.tflite", "cat_720p.jpg", []),
    ("tf2_mobilenet_v2_1.0_224_ptq.tflite", "cat_720p.jpg", []),
    ("tf2_mobilenet_v2_1.0_224_ptq.tflite", "person.jpg", []),
    ("mobilenet_v2_1.0_224_inat_bird_quant.tflite", "bird.png", []),
    ("aiy_vision_classifier_birds_V1_3.tflite", "bird.png", []),
]


def cpu():
    name, flags = "?", set()
    try:
        for line in open("/proc/cpuinfo", encoding="utf-8"):
            if line.startswith("model name") and name == "?":
                name = line.split(":", 1)[1].strip()
            if line.startswith("flags") and not flags:
                flags = set(line.split(":", 1)[1].split())
    except OSError:
        pass
    keep = [f for f in ("sse4_2", "avx", "avx2", "fma", "avx512f", "avx512bw", "avx512_vnni", "avx_vnni") if f in flags]
    return name, keep


def pinned(cmd, cpu_index):
    return (["taskset", "-c", str(cpu_index)] if cpu_index is not None else []) + cmd


def run_json(cmd, env=None):
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                         env=dict(os.environ, **(env or {}))).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--assets", required=True)
    ap.add_argument("--mediapipe", help="a Python with mediapipe 1.2.2")
    ap.add_argument("--openvino", help="a Python with scripts/bench/openvino-requirements.txt")
    ap.add_argument("--litert-kernels", action="store_true", help="also ours on LiteRT's own kernels, each round")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--cpu", type=int, default=1, help="the CPU both processes are pinned to (-1: unpinned)")
    ap.add_argument("--only", help="only models whose name contains this")
    ap.add_argument("--out", default="out/bench.jsonl")
    a = ap.parse_args()
    cpu_index = None if a.cpu < 0 else a.cpu
    peers = a.mediapipe or a.openvino or a.litert_kernels
    name, flags = cpu()
    here = os.path.dirname(os.path.abspath(__file__))
    print(f"CPU: {name}; flags: {' '.join(flags)}; pinned to CPU {cpu_index if cpu_index is not None else '-'}; "
          f"{a.runs} runs per process" + (f", {a.rounds} interleaved rounds (ours, then each peer, …)" if peers else ""))
    head = f"{'model':<60} {'image':<13} {'raw_ms':>7} {'pre_ms':>7} {'post_ms':>7} {'task_ms':>8} {'task/raw':>8}"
    if a.litert_kernels:
        head += f" {'litert_k_ms':>11} {'ours/lk':>8}"
    if a.mediapipe:
        head += f" {'mediapipe_ms':>12} {'ours/mp':>8} {'spread':>11}"
    if a.openvino:
        head += f" {'openvino_ms':>11} {'ours/ov':>8} {'spread':>11}"
    print(head)
    os.makedirs(os.path.dirname(a.out) or ".", exist_ok=True)
    stamp = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    with open(a.out, "a", encoding="utf-8") as log:
        for model, image, extra in PAIRS:
            if a.only and a.only not in model:
                continue
            model_path = os.path.join(a.assets, "models", model)
            image_path = os.path.join(a.assets, "images", image)
            env = dict(e[4:].split("=", 1) for e in extra if e.startswith("env:"))
            cli = [e for e in extra if not e.startswith("env:")]
            ours_cmd = pinned([a.bin, "bench", "--model", model_path, "--image", image_path, "--runs", str(a.runs),
                               "--threads", "1", "--json"] + cli, cpu_index)
            rounds, ov_rounds, lk_rounds = [], [], []
            for _ in range(a.rounds if peers else 1):
                ours = run_json(ours_cmd, env)
                if a.litert_kernels:
                    lk_rounds.append(run_json(ours_cmd, dict(env, **LITERT_KERNELS)))
                mp, mp_all = None, None
                if a.mediapipe:
                    mp_all = run_json(pinned([a.mediapipe, os.path.join(here, "mediapipe_bench.py"), model_path, image_path,
                                              str(a.runs), "5", ours["task"]], cpu_index))
                    mp = mp_all["detect_ms"]
                rounds.append((ours, mp, mp_all))
                if a.openvino:
                    ov_rounds.append(run_json(pinned([a.openvino, os.path.join(here, "openvino_bench.py"), model_path,
                                                      image_path, str(a.runs), "5"], cpu_index)))
            # The detection post-processing op OpenVINO cannot run: our kernel's time for it, on both sides.
            ov_post = 0.0
            if ov_rounds and ov_rounds[0]["cut_before_postprocess"]:
                profile = run_json(pinned([a.bin, "bench", "--model", model_path, "--image", image_path, "--runs",
                                           str(a.runs), "--threads", "1", "--profile", "--json"], cpu_index), env)
                ov_post = sum(k["ms"] for k in profile["columns"][0]["kinds"] if "post-processing" in k["kind"] or "Detection_PostProcess" in k["kind"])
            med = lambda key: statistics.median(r[0][key] for r in rounds)
            row = f"{model + (' ' + ' '.join(extra) if extra else ''):<60} {image:<13} {med('raw_ms'):7.3f} {med('preprocess_ms'):7.3f} " \
                  f"{med('postprocess_ms'):7.3f} {med('detect_ms'):8.3f} {med('detect_over_raw'):8.3f}"
            record = {"time": stamp, "cpu": name, "flags": flags, "pinnedCpu": cpu_index, "model": model, "image": image,
                      "extra": extra, "runs": a.runs, "rounds": len(rounds), "task": rounds[0][0]["task"],
                      "ours_ms": med("detect_ms"), "raw_ms": med("raw_ms"),
                      "ours_rounds_ms": [r[0]["detect_ms"] for r in rounds]}
            if a.litert_kernels:
                lk_ms = statistics.median(r["detect_ms"] for r in lk_rounds)
                lk_ratio = statistics.median(r[0]["detect_ms"] / l["detect_ms"] for r, l in zip(rounds, lk_rounds))
                row += f" {lk_ms:11.3f} {lk_ratio:8.2f}"
                record.update({"litert_kernels_ms": lk_ms, "ours_over_litert_kernels": lk_ratio,
                               "litert_kernels_file_to_result_ms": statistics.median(l["file_to_result_ms"] for l in lk_rounds)})
            if a.mediapipe:
                ratios = [r[0]["detect_ms"] / r[1] for r in rounds]
                mp_med = statistics.median(r[1] for r in rounds)
                row += f" {mp_med:12.3f} {statistics.median(ratios):8.2f} {min(ratios):5.2f}–{max(ratios):<5.2f}"
                record.update({"mediapipe_ms": mp_med, "mediapipe_rounds_ms": [r[1] for r in rounds],
                               "ours_over_mediapipe": statistics.median(ratios), "ratio_min": min(ratios), "ratio_max": max(ratios)})
            if a.openvino:
                ov_ms = [o["infer_ms"] + ov_post for o in ov_rounds]
                ov_ratios = [r[0]["detect_ms"] / o for r, o in zip(rounds, ov_ms)]
                row += f" {statistics.median(ov_ms):11.3f} {statistics.median(ov_ratios):8.2f} {min(ov_ratios):5.2f}–{max(ov_ratios):<5.2f}"
                record.update({"openvino_ms": statistics.median(ov_ms), "openvino_rounds_ms": ov_ms,
                               "openvino_postprocess_ms": ov_post, "ours_over_openvino": statistics.median(ov_ratios),
                               "openvino_precision": ov_rounds[0]["precision"],
                               "openvino_convolutions": ov_rounds[0]["convolution_precisions"]})
            print(row, flush=True)
            mo = lambda key: statistics.median(r[0][key] for r in rounds)
            e2e = f"{'':<4}end to end: decode {mo('decode_ms'):.2f} ms, file → result {mo('file_to_result_ms'):.2f} ms"
            record.update({"decode_ms": mo("decode_ms"), "file_to_result_ms": mo("file_to_result_ms"),
                           "load_cold_ms": mo("load_cold_ms"), "load_warm_ms": mo("load_warm_ms"), "first_call_ms": mo("first_call_ms")})
            if a.mediapipe:
                e2e_ratios = [r[0]["file_to_result_ms"] / r[2]["file_to_result_ms"] for r in rounds]
                dec_ratios = [r[0]["decode_ms"] / r[2]["decode_ms"] for r in rounds]
                mp_dec = statistics.median(r[2]["decode_ms"] for r in rounds)
                mp_e2e = statistics.median(r[2]["file_to_result_ms"] for r in rounds)
                e2e += (f" | MediaPipe decode {mp_dec:.2f} ms, file → result {mp_e2e:.2f} ms | ours/mp: file → result "
                        f"{statistics.median(e2e_ratios):.2f} ({min(e2e_ratios):.2f}–{max(e2e_ratios):.2f}), decode "
                        f"{statistics.median(dec_ratios):.2f} ({min(dec_ratios):.2f}–{max(dec_ratios):.2f})")
                record.update({"mediapipe_decode_ms": mp_dec, "mediapipe_file_to_result_ms": mp_e2e,
                               "file_to_result_over_mediapipe": statistics.median(e2e_ratios), "file_to_result_ratio_min": min(e2e_ratios),
                               "file_to_result_ratio_max": max(e2e_ratios), "decode_over_mediapipe": statistics.median(dec_ratios)})
            if a.litert_kernels:
                e2e += f" | LiteRT's kernels: file → result {statistics.median(l['file_to_result_ms'] for l in lk_rounds):.2f} ms"
            if a.openvino:
                ov_e2e = [o["file_to_result_ms"] + ov_post for o in ov_rounds]
                ov_e2e_ratios = [r[0]["file_to_result_ms"] / o for r, o in zip(rounds, ov_e2e)]
                convs = ", ".join(f"{p} {n}" for p, n in ov_rounds[0]["convolution_precisions"].items())
                e2e += (f" | OpenVINO ({ov_rounds[0]['precision']}; convolutions: {convs}"
                        + (f"; + {ov_post:.3f} ms for TFLite_Detection_PostProcess as the left run takes it" if ov_post else "")
                        + f") decode {statistics.median(o['decode_ms'] for o in ov_rounds):.2f} ms, file → result "
                        f"{statistics.median(ov_e2e):.2f} ms | ours/ov: file → result {statistics.median(ov_e2e_ratios):.2f} "
                        f"({min(ov_e2e_ratios):.2f}–{max(ov_e2e_ratios):.2f})")
                record.update({"openvino_file_to_result_ms": statistics.median(ov_e2e),
                               "file_to_result_over_openvino": statistics.median(ov_e2e_ratios)})
            print(e2e)
            print(f"{'':<4}load: {mo('load_cold_ms'):.1f} ms cold, {mo('load_warm_ms'):.1f} ms warm; first call {mo('first_call_ms'):.2f} ms", flush=True)
            log.write(json.dumps(record) + "\n")
    print(f"(results appended to {a.out})")


if __name__ == "__main__":
    sys.exit(main())
