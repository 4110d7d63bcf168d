#!/usr/bin/env python3
"""Score `vision-tasks track` against exact ground truth and against ByteTrack.

For every sequence NAME with a ``NAME.gt.json`` in --gt, reads from --results:

  NAME.tracks.jsonl   our tracker's output (``vision-tasks track --jsonl``): one line per
                      frame, ``{"frame": k, "objects": [{"frame": {"x","y","width","height"},
                      "trackingID": id|null, ...}]}``
  NAME.dets.jsonl     the raw detections our tracker was fed (``--detections-jsonl``):
                      ``{"frame": k, "detections": [{"x","y","width","height","score"}]}``

The SAME detections are fed, frame by frame, to ByteTrack from supervision 0.30.9
(``sv.ByteTrack(frame_rate=30)`` with its defaults), so both trackers see identical input
and only the association differs.  Both are scored with py-motmetrics (CLEAR MOT and
identity metrics; a ground-truth box and a track box may be paired when IoU >= 0.5).

Also counted, for both: *re-entry violations*.  When a ground-truth id newly appears (the
generator gives an object that left the frame and came back a new id, as ML Kit does) and
is matched to a tracker ID that was earlier matched to a different ground-truth id that had
already left for good, the tracker re-used an identity it should not have.  motmetrics does
not count this as an ID switch (the new ground-truth id had no earlier match); it only
lowers IDF1.  Each (new ground-truth id, re-used tracker ID) pair counts once.

Targets (PASS/FAIL is printed; exit status is 0 unless --strict):
  * on every sequence: IDF1(ours) >= IDF1(ByteTrack) and IDsw(ours) <= IDsw(ByteTrack)
  * overall (motmetrics' OVERALL over all sequences): IDF1(ours) >= IDF1(ByteTrack) + 0.05
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

try:
    import motmetrics as mm
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "OpenCV is not installed": ByteTrack does not need it
        import supervision as sv
except ImportError as exc:  # pragma: no cover - environment problem
    raise SystemExit(f"error: {exc}; install scripts/tracking/requirements.txt "
                     "(e.g. into .venv-tracking) and run with that Python")

IOU_THRESHOLD = 0.5          # pair only when IoU >= this (motmetrics max distance 1 - 0.5)
OVERALL_IDF1_MARGIN = 0.05
EPS = 1e-9

METRICS = ["num_frames", "mota", "motp", "idf1", "idp", "idr", "num_switches", "mostly_tracked",
           "partially_tracked", "mostly_lost", "num_false_positives", "num_misses",
           "num_unique_objects", "precision", "recall", "num_fragmentations"]

Box = tuple[float, float, float, float]  # x, y, w, h


# --------------------------------------------------------------------------
# Input
# --------------------------------------------------------------------------

class InputError(Exception):
    pass


def _read_jsonl(path: Path) -> list[dict]:
    rows = []
    with path.open() as f:
        for n, line in enumerate(f, start=1):
            line = line.strip()
            if not line:
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise InputError(f"{path}:{n}: not JSON ({exc.msg})") from None
    return rows


def _box(d: dict, where: str) -> Box:
    try:
        if "originX" in d:  # vision-tasks records (CGRect field names)
            return float(d["originX"]), float(d["originY"]), float(d["width"]), float(d["height"])
        return float(d["x"]), float(d["y"]), float(d["width"]), float(d["height"])
    except (KeyError, TypeError, ValueError):
        raise InputError(f"{where}: expected a box with originX/x, originY/y, width, height, got {d!r}") from None


def load_gt(path: Path) -> tuple[dict, dict[int, list[tuple[int, Box]]]]:
    try:
        gt = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not JSON ({exc.msg})") from None
    frames = {}
    for f in gt.get("frames", []):
        frames[int(f["frame"])] = [(int(o["id"]), _box(o, f"{path} frame {f['frame']}")) for o in f["objects"]]
    if not frames:
        raise InputError(f"{path}: no frames")
    return gt, frames


def load_tracks(path: Path) -> tuple[dict[int, list[tuple[int, Box]]], int]:
    """frame -> [(tracking id, box)]; objects without a trackingID are skipped (and counted)."""
    frames: dict[int, list[tuple[int, Box]]] = {}
    untracked = 0
    for row in _read_jsonl(path):
        k = int(row["frame"])
        objs = []
        for o in row.get("objects", []):
            tid = o.get("trackingID")
            if tid is None:
                untracked += 1
                continue
            objs.append((int(tid), _box(o.get("frame", {}), f"{path} frame {k}")))
        frames[k] = objs
    return frames, untracked


def load_detections(path: Path) -> dict[int, list[tuple[Box, float]]]:
    frames = {}
    for row in _read_jsonl(path):
        k = int(row["frame"])
        frames[k] = [(_box(d, f"{path} frame {k}"), float(d["score"])) for d in row.get("detections", [])]
    return frames


# --------------------------------------------------------------------------
# Trackers and scoring
# --------------------------------------------------------------------------

def iou_matrix(a: list[Box], b: list[Box]) -> np.ndarray:
    """Pairwise IoU of (x, y, w, h) boxes, shape (len(a), len(b))."""
    if not a or not b:
        return np.zeros((len(a), len(b)))
    A, B = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    ax0, ay0, ax1, ay1 = A[:, 0:1], A[:, 1:2], A[:, 0:1] + A[:, 2:3], A[:, 1:2] + A[:, 3:4]
    bx0, by0, bx1, by1 = B[:, 0], B[:, 1], B[:, 0] + B[:, 2], B[:, 1] + B[:, 3]
    iw = np.clip(np.minimum(ax1, bx1) - np.maximum(ax0, bx0), 0, None)
    ih = np.clip(np.minimum(ay1, by1) - np.maximum(ay0, by0), 0, None)
    inter = iw * ih
    union = (A[:, 2:3] * A[:, 3:4]) + (B[:, 2] * B[:, 3]) - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(union > 0, inter / union, 0.0)


def distance_matrix(gt: list[Box], hyp: list[Box]) -> np.ndarray:
    """motmetrics distances: 1 - IoU, NaN (do not pair) where IoU < IOU_THRESHOLD.

    Same as ``mm.distances.iou_matrix(gt, hyp, max_iou=0.5)``, which cannot be used with
    numpy 2 (motmetrics 1.4.0 calls the removed ``np.asfarray``)."""
    dist = 1.0 - iou_matrix(gt, hyp)
    dist[dist > 1.0 - IOU_THRESHOLD] = np.nan
    return dist


def run_bytetrack(dets: dict[int, list[tuple[Box, float]]], num_frames: int) -> dict[int, list[tuple[int, Box]]]:
    """Feed the detections to supervision's ByteTrack frame by frame (defaults, 30 fps)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ByteTrack is deprecated in 0.28+ (removed in 0.31)
        tracker = sv.ByteTrack(frame_rate=30)
    out: dict[int, list[tuple[int, Box]]] = {}
    for k in range(1, num_frames + 1):
        frame_dets = dets.get(k, [])
        if frame_dets:
            xywh = np.asarray([b for b, _ in frame_dets], dtype=np.float32)
            xyxy = np.concatenate([xywh[:, :2], xywh[:, :2] + xywh[:, 2:]], axis=1)
            conf = np.asarray([s for _, s in frame_dets], dtype=np.float32)
        else:
            xyxy, conf = np.zeros((0, 4), np.float32), np.zeros((0,), np.float32)
        detections = sv.Detections(xyxy=xyxy, confidence=conf, class_id=np.zeros(len(conf), dtype=int))
        tracked = tracker.update_with_detections(detections)
        boxes = []
        if tracked.tracker_id is not None:
            for (x0, y0, x1, y1), tid in zip(tracked.xyxy, tracked.tracker_id):
                boxes.append((int(tid), (float(x0), float(y0), float(x1 - x0), float(y1 - y0))))
        out[k] = boxes
    return out


def accumulate(gt: dict[int, list[tuple[int, Box]]], hyp: dict[int, list[tuple[int, Box]]],
               num_frames: int) -> mm.MOTAccumulator:
    acc = mm.MOTAccumulator(auto_id=False)
    for k in range(1, num_frames + 1):
        g, h = gt.get(k, []), hyp.get(k, [])
        acc.update([i for i, _ in g], [i for i, _ in h],
                   distance_matrix([b for _, b in g], [b for _, b in h]), frameid=k)
    return acc


def reentry_violations(acc: mm.MOTAccumulator, gt: dict[int, list[tuple[int, Box]]]) -> list[dict]:
    """(new GT id, tracker id re-used from a GT id that had already left) pairs; see module doc."""
    first, last = {}, {}
    for k in sorted(gt):
        for i, _ in gt[k]:
            first.setdefault(i, k)
            last[i] = k
    events = acc.mot_events
    matched = events[events["Type"].isin(["MATCH", "SWITCH"])]
    owners: dict = {}       # tracker id -> [(GT id, frame first paired)]
    found, seen = [], set()
    for (frame, _), row in matched.iterrows():
        oid, hid = int(row["OId"]), int(row["HId"])
        prev = owners.setdefault(hid, [])
        if not any(o == oid for o, _ in prev):
            for other, _ in prev:
                if last[other] < first[oid] and (oid, hid) not in seen:
                    seen.add((oid, hid))
                    found.append({"gt_id": oid, "tracker_id": hid, "frame": int(frame),
                                  "previous_gt_id": other, "previous_gt_last_frame": last[other]})
                    break
            prev.append((oid, int(frame)))
    return found


@dataclass
class SequenceResult:
    name: str
    frames: int
    acc_ours: mm.MOTAccumulator
    acc_bt: mm.MOTAccumulator
    reentry_ours: list
    reentry_bt: list
    detector_recall: float
    untracked: int
    notes: list


def score_sequence(name: str, gt_path: Path, results: Path) -> SequenceResult:
    gt_doc, gt = load_gt(gt_path)
    tracks_path, dets_path = results / f"{name}.tracks.jsonl", results / f"{name}.dets.jsonl"
    for p in (tracks_path, dets_path):
        if not p.is_file():
            raise InputError(f"missing {p}")
    num_frames = int(gt_doc.get("numFrames") or max(gt))
    ours, untracked = load_tracks(tracks_path)
    dets = load_detections(dets_path)
    notes = []
    for what, frames in (("tracks", ours), ("detections", dets)):
        n = max(frames, default=0)
        if n != num_frames or len(frames) != num_frames:
            notes.append(f"{what}: {len(frames)} frame lines (last {n}), ground truth has {num_frames}")
    bt = run_bytetrack(dets, num_frames)
    acc_ours, acc_bt = accumulate(gt, ours, num_frames), accumulate(gt, bt, num_frames)

    hits = total = 0
    for k, objs in gt.items():
        boxes = [b for b, _ in dets.get(k, [])]
        if objs:
            ious = iou_matrix([b for _, b in objs], boxes)
            total += len(objs)
            hits += int((ious >= IOU_THRESHOLD).any(axis=1).sum()) if boxes else 0
    return SequenceResult(name, num_frames, acc_ours, acc_bt, reentry_violations(acc_ours, gt),
                          reentry_violations(acc_bt, gt), hits / total if total else math.nan, untracked, notes)


# --------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------

def _num(v):
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating, float)):
        return None if math.isnan(v) else float(v)
    return v


def summarize(results: list[SequenceResult]):
    mh = mm.metrics.create()
    names = [r.name for r in results]
    ours = mh.compute_many([r.acc_ours for r in results], metrics=METRICS, names=names, generate_overall=True)
    bt = mh.compute_many([r.acc_bt for r in results], metrics=METRICS, names=names, generate_overall=True)
    return ours, bt


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--gt", required=True, type=Path, help="directory with NAME.gt.json files")
    parser.add_argument("--results", required=True, type=Path,
                        help="directory with NAME.tracks.jsonl and NAME.dets.jsonl")
    parser.add_argument("--json", type=Path, help="write a JSON summary here")
    parser.add_argument("--only", nargs="*", metavar="NAME", help="score only these sequences")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is not met")
    args = parser.parse_args(argv)

    gt_files = sorted(args.gt.glob("*.gt.json"))
    if args.only:
        gt_files = [p for p in gt_files if p.name[:-len(".gt.json")] in args.only]
    if not gt_files:
        print(f"error: no *.gt.json in {args.gt}", file=sys.stderr)
        return 2

    scored: list[SequenceResult] = []
    errors: dict[str, str] = {}
    for path in gt_files:
        name = path.name[:-len(".gt.json")]
        try:
            scored.append(score_sequence(name, path, args.results))
        except (InputError, KeyError, ValueError, TypeError) as exc:
            errors[name] = str(exc) if isinstance(exc, InputError) else f"{type(exc).__name__}: {exc}"
            print(f"error: {name}: {errors[name]}", file=sys.stderr)

    if not scored:
        print("FAIL: nothing could be scored", file=sys.stderr)
        return 1 if args.strict else 0

    ours, bt = summarize(scored)
    failures: list[str] = [f"{n}: not scored ({e})" for n, e in errors.items()]
    per_seq = {}
    header = (f"{'sequence':18s} {'frames':>6s} {'detRec':>6s} | {'MOTA ours':>9s} {'BT':>6s} | "
              f"{'IDF1 ours':>9s} {'BT':>6s} | {'IDsw ours':>9s} {'BT':>4s} | {'reentry ours':>12s} {'BT':>4s} | "
              f"{'FP ours':>7s} {'BT':>5s} | {'FN ours':>7s} {'BT':>5s}")
    print(header)
    print("-" * len(header))
    for r in scored:
        o, b = ours.loc[r.name], bt.loc[r.name]
        checks = {
            "idf1_not_below_bytetrack": bool(o["idf1"] >= b["idf1"] - EPS),
            "idsw_not_above_bytetrack": bool(o["num_switches"] <= b["num_switches"]),
        }
        for check, ok in checks.items():
            if not ok:
                failures.append(f"{r.name}: {check} (IDF1 {o['idf1']:.3f} vs {b['idf1']:.3f}, "
                                f"IDsw {int(o['num_switches'])} vs {int(b['num_switches'])})")
        print(f"{r.name:18s} {r.frames:6d} {r.detector_recall:6.3f} | {o['mota']:9.3f} {b['mota']:6.3f} | "
              f"{o['idf1']:9.3f} {b['idf1']:6.3f} | {int(o['num_switches']):9d} {int(b['num_switches']):4d} | "
              f"{len(r.reentry_ours):12d} {len(r.reentry_bt):4d} | "
              f"{int(o['num_false_positives']):7d} {int(b['num_false_positives']):5d} | "
              f"{int(o['num_misses']):7d} {int(b['num_misses']):5d}"
              + ("" if all(checks.values()) else "   <- FAIL"))
        for note in r.notes:
            print(f"  note: {r.name}: {note}")
        if r.untracked:
            print(f"  note: {r.name}: {r.untracked} output objects had no trackingID (not scored)")
        per_seq[r.name] = {
            "frames": r.frames,
            "detector_recall": _num(r.detector_recall),
            "ours": {k: _num(v) for k, v in o.items()} | {"reentry_violations": len(r.reentry_ours),
                                                           "untracked_objects": r.untracked},
            "bytetrack": {k: _num(v) for k, v in b.items()} | {"reentry_violations": len(r.reentry_bt)},
            "reentry_violations_ours": r.reentry_ours,
            "reentry_violations_bytetrack": r.reentry_bt,
            "checks": checks,
            "notes": r.notes,
        }
    print("-" * len(header))
    o, b = ours.loc["OVERALL"], bt.loc["OVERALL"]
    reentry_o = sum(len(r.reentry_ours) for r in scored)
    reentry_b = sum(len(r.reentry_bt) for r in scored)
    print(f"{'OVERALL':18s} {int(o['num_frames']):6d} {'':6s} | {o['mota']:9.3f} {b['mota']:6.3f} | "
          f"{o['idf1']:9.3f} {b['idf1']:6.3f} | {int(o['num_switches']):9d} {int(b['num_switches']):4d} | "
          f"{reentry_o:12d} {reentry_b:4d} | {int(o['num_false_positives']):7d} {int(b['num_false_positives']):5d} | "
          f"{int(o['num_misses']):7d} {int(b['num_misses']):5d}")
    overall_ok = bool(o["idf1"] >= b["idf1"] + OVERALL_IDF1_MARGIN - EPS)
    if not overall_ok:
        failures.append(f"overall: IDF1 {o['idf1']:.3f} < ByteTrack {b['idf1']:.3f} + {OVERALL_IDF1_MARGIN}")
    print(f"\nmostly tracked (ours/BT): {int(o['mostly_tracked'])}/{int(b['mostly_tracked'])} "
          f"of {int(o['num_unique_objects'])} ground-truth ids")
    for r in scored:
        for v in r.reentry_ours:
            print(f"re-entry violation (ours): {r.name} frame {v['frame']}: new GT id {v['gt_id']} got tracker ID "
                  f"{v['tracker_id']}, used before for GT id {v['previous_gt_id']} (gone after frame "
                  f"{v['previous_gt_last_frame']})")

    passed = not failures
    print("\nTargets: per sequence IDF1(ours) >= IDF1(ByteTrack) and IDsw(ours) <= IDsw(ByteTrack); "
          f"overall IDF1(ours) >= IDF1(ByteTrack) + {OVERALL_IDF1_MARGIN}")
    if passed:
        print("PASS")
    else:
        print("FAIL:")
        for f in failures:
            print(f"  - {f}")

    if args.json:
        summary = {
            "iou_threshold": IOU_THRESHOLD,
            "bytetrack": {"package": "supervision", "version": sv.__version__,
                          "constructor": "sv.ByteTrack(frame_rate=30)"},
            "versions": {"motmetrics": getattr(mm, "__version__", "?"), "numpy": np.__version__},
            "sequences": per_seq,
            "errors": errors,
            "overall": {
                "ours": {k: _num(v) for k, v in o.items()} | {"reentry_violations": reentry_o},
                "bytetrack": {k: _num(v) for k, v in b.items()} | {"reentry_violations": reentry_b},
            },
            "targets": {"per_sequence": "idf1_ours >= idf1_bytetrack and idsw_ours <= idsw_bytetrack",
                        "overall": f"idf1_ours >= idf1_bytetrack + {OVERALL_IDF1_MARGIN}"},
            "failures": failures,
            "pass": passed,
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(summary, indent=2) + "\n")
    return 1 if (args.strict and not passed) else 0


if __name__ == "__main__":
    sys.exit(main())
