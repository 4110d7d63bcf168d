#!/usr/bin/env python3
"""Lines, zones and `eval track` on the generated sequences, against references.

For every sequence NAME with NAME.gt.json in --gt and NAME.tracks.jsonl in --results (made by
`vision-tasks track` with the --line and --zone given here, see evaluate.sh):

1. Live and offline counting agree: `vision-tasks zones NAME.tracks.jsonl` (the same line and zone)
   gives exactly the events `track` wrote frame by frame.
2. supervision 0.30.9 fed OUR tracks: sv.LineZone (the same line, anchor bottom-center) reports the
   same crossings, frame by frame and track by track, as `vision-tasks zones --forget-after 2` (its
   rule for tracks that go missing; our default remembers them 300 frames, see LineZone); sv.PolygonZone
   the same zone membership as our objects' "zones", except for anchors within a pixel of an edge
   (supervision rounds the anchor to a whole pixel and reads a rasterized mask; we test the polygon
   geometrically) — each such case is checked to be one.
3. The ground truth says when each object crosses: for each ground-truth id, every change of side of
   its box's bottom centre between two of its frames is a crossing, and every stretch of frames inside
   the (axis-aligned) zone a visit. `vision-tasks zones` on the ground truth (as MOT text) must give
   exactly these crossings and visits (frame, id, direction, dwell).
4. End to end: the counts our tracker's output gives (crossings in/out, zone visitors) beside the
   ground truth's; differences are listed (an ID switch, a false detection, a box a few pixels off
   an object standing on the line), and fail the run only with --strict.
5. `vision-tasks eval track --gt NAME (MOT text) --results NAME.tracks.jsonl --json` against
   TrackEval 1.3.0 (HOTA, DetA, AssA, LocA, CLEAR, Identity) and py-motmetrics 1.4.0 (MOTA, IDF1)
   on the same boxes: every number to 1e-6.

Exit status 1 when 1, 2, 3 or 5 disagree; with --strict also when a count in 4 is not exact.
"""
from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "eval"))
from score import load_gt, load_detections, run_bytetrack, _read_jsonl, _box  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import supervision as sv  # noqa: E402
    from tracking_goldens import trackeval_data, motmetrics  # noqa: E402
    from trackeval.metrics import CLEAR, HOTA, Identity  # noqa: E402

TOLERANCE = 1e-6


def parse_shape(text: str) -> tuple[str, list[tuple[float, float]]]:
    name, _, rest = text.partition("=")
    v = [float(x) for x in rest.split(",")]
    return name, list(zip(v[0::2], v[1::2]))


def detections(objs):
    """objs: [(id or None, (x, y, w, h))] -> sv.Detections (unconfirmed: tracker id -1)."""
    if not objs:
        return sv.Detections.empty()
    xyxy = np.array([[b[0], b[1], b[0] + b[2], b[1] + b[3]] for _, b in objs], dtype=float)
    return sv.Detections(xyxy=xyxy, class_id=np.zeros(len(objs), dtype=int),
                         tracker_id=np.array([-1 if i is None else i for i, _ in objs]))


def edge_distance(p, polygon):
    best = math.inf
    for i, a in enumerate(polygon):
        b = polygon[(i + 1) % len(polygon)]
        dx, dy = b[0] - a[0], b[1] - a[1]
        t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
        best = min(best, math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy)))
    return best


SWEEP = [f"x{x}={x},-10,{x},370" for x in (160, 240, 320, 400, 480)] + [f"y{y}=-10,{y},650,{y}" for y in (120, 240)]


def run_zones(binary, tracks, line_arg, zone_arg, *extra):
    lines = [a for arg in ([line_arg] if isinstance(line_arg, str) else line_arg) for a in ("--line", arg)]
    out = subprocess.run([binary, "zones", str(tracks), *lines, "--zone", zone_arg, "--json", *extra],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"vision-tasks zones {tracks} failed: {out.stderr.strip()}")
    return json.loads(out.stdout)


def event_key(e):
    return (e["frame"], e["trackingID"], e["kind"], e.get("line") or e.get("zone"), e.get("dwellMs"))


def truth(gt_frames, num_frames, line_name, start, end, zone_name, rect):
    """Crossings and visits by definition, from the ground-truth boxes (bottom-centre anchor)."""
    (sx, sy), (ex, ey) = start, end
    length2 = (ex - sx) ** 2 + (ey - sy) ** 2
    x0, y0, x1, y1 = rect
    side, visit, events = {}, {}, []
    for k in range(1, num_frames + 1):
        t_ms = round((k - 1) * 1000 / 30)
        for i, b in gt_frames.get(k, []):
            ax, ay = (b[0] + (b[0] + b[2])) / 2, b[1] + b[3]
            t = ((ax - sx) * (ex - sx) + (ay - sy) * (ey - sy)) / length2
            if 0 <= t <= 1:  # beside the segment
                s_now = (ex - sx) * (ay - sy) - (ey - sy) * (ax - sx) < 0
                if i in side and side[i] != s_now:
                    events.append((k, i, "in" if s_now else "out", line_name, None))
                side[i] = s_now
            inside = x0 <= ax <= x1 and y0 <= ay <= y1
            if inside and i not in visit:
                visit[i] = [t_ms, t_ms]
                events.append((k, i, "enter", zone_name, None))
            elif inside:
                visit[i][1] = t_ms
            elif i in visit:
                entered, last = visit.pop(i)
                events.append((k, i, "exit", zone_name, last - entered))
    return events


def check_sequence(name, gt_path, results, line_arg, zone_arg, binary):
    gt_meta, gt_frames = load_gt(gt_path)
    tracks_path = results / f"{name}.tracks.jsonl"
    rows = _read_jsonl(tracks_path)
    line_name, (start, end) = parse_shape(line_arg)
    zone_name, polygon = parse_shape(zone_arg)
    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
    rect = (min(xs), min(ys), max(xs), max(ys))
    if sorted(polygon) != sorted([(rect[0], rect[1]), (rect[2], rect[1]), (rect[2], rect[3]), (rect[0], rect[3])]):
        raise SystemExit("--zone must be an axis-aligned rectangle here (the ground truth's visits are computed for one)")
    problems = []

    # 1. track's own events = zones on its records.
    live = sorted(((int(r["frame"]), e["trackingID"], e["kind"], e.get("line") or e.get("zone"), e.get("dwellMs"))
                   for r in rows for e in r.get("events", [])), key=str)
    offline = run_zones(binary, tracks_path, line_arg, zone_arg)
    if live != sorted(map(event_key, offline["events"]), key=str):
        problems.append("track's events differ from vision-tasks zones on its records")

    # 2. supervision on our tracks.
    compat = run_zones(binary, tracks_path, line_arg, zone_arg, "--forget-after", "2")
    compat_by_frame = {}
    for e in compat["events"]:
        if e.get("line") == line_name:
            compat_by_frame.setdefault(e["frame"], []).append((e["trackingID"], e["kind"]))
    line = sv.LineZone(start=sv.Point(*start), end=sv.Point(*end), triggering_anchors=[sv.Position.BOTTOM_CENTER])
    zone = sv.PolygonZone(polygon=np.array(polygon), triggering_anchors=[sv.Position.BOTTOM_CENTER])
    crossings_equal = membership_equal = explained = 0
    ours_visitors = set()
    for row in rows:
        objs = [(o.get("trackingID"), _box(o["frame"], name)) for o in row.get("objects", [])]
        crossed_in, crossed_out = line.trigger(detections(objs))
        theirs = sorted([(objs[i][0], "in") for i in np.flatnonzero(crossed_in)] + [(objs[i][0], "out") for i in np.flatnonzero(crossed_out)])
        ours = sorted(compat_by_frame.get(int(row["frame"]), []))
        if theirs != ours:
            problems.append(f"frame {row['frame']}: crossings {ours} (--forget-after 2) vs supervision {theirs}")
        crossings_equal += len(ours) if theirs == ours else 0
        hits = zone.trigger(detections(objs)) if objs else []
        for o, (tid, box), hit in zip(row.get("objects", []), objs, hits):
            mine = zone_name in o.get("zones", [])
            if mine == bool(hit):
                membership_equal += 1
            elif edge_distance(((box[0] + (box[0] + box[2])) / 2, box[1] + box[3]), polygon) <= 1:
                explained += 1
            else:
                problems.append(f"frame {row['frame']}: track {tid} in zone: ours {mine}, supervision {bool(hit)}")
            if mine and tid is not None:
                ours_visitors.add(tid)

    # 3. The ground truth's crossings and visits by definition = vision-tasks zones on it.
    num_frames = int(gt_meta["numFrames"])
    gt_rows = [(k, i, *b) for k, objs in sorted(gt_frames.items()) for i, b in objs]
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as mot:
        for r in gt_rows:
            mot.write(f"{r[0]},{r[1]},{r[2]!r},{r[3]!r},{r[4]!r},{r[5]!r},1,-1,-1,-1\n")
        mot.flush()
        on_truth = run_zones(binary, mot.name, line_arg, zone_arg)
        expected = truth(gt_frames, num_frames, line_name, start, end, zone_name, rect)
        got = [event_key(e) for e in on_truth["events"]]
        if sorted(expected, key=str) != sorted(got, key=str):
            diff = set(map(str, expected)) ^ set(map(str, got))
            problems.append(f"on the ground truth: {len(got)} events vs {len(expected)} by definition; differing: {sorted(diff)[:6]}")
        net = {}
        for e in expected:
            if e[3] == line_name:
                net[e[1]] = net.get(e[1], 0) + (1 if e[2] == "in" else -1)
        gt_net_in, gt_net_out = sum(1 for v in net.values() if v > 0), sum(1 for v in net.values() if v < 0)
        gt_visitors = len({e[1] for e in expected if e[2] == "enter"})

        # 5. eval track against TrackEval and py-motmetrics.
        out = subprocess.run([binary, "eval", "track", "--gt", mot.name, "--results", str(tracks_path), "--json"],
                             capture_output=True, text=True)
    ev = json.loads(out.stdout) if out.returncode == 0 else {}
    if out.returncode != 0:
        problems.append(f"eval track failed: {out.stderr.strip()}")
    tr_rows = [(int(r["frame"]), int(o["trackingID"]), *_box(o["frame"], name))
               for r in rows for o in r.get("objects", []) if o.get("trackingID") is not None]
    data = trackeval_data(gt_rows, tr_rows)
    quiet = {"PRINT_CONFIG": False}
    hota, clear, identity = HOTA(quiet).eval_sequence(data), CLEAR(quiet).eval_sequence(data), Identity(quiet).eval_sequence(data)
    mm = motmetrics(gt_rows, tr_rows)
    reference = {k: float(np.mean(hota[k])) for k in ["HOTA", "DetA", "AssA", "LocA", "DetRe", "DetPr", "AssRe", "AssPr"]}
    reference.update({"MOTA": float(clear["MOTA"]), "MOTP": float(clear["MOTP"]), "IDSW": float(clear["IDSW"]), "Frag": float(clear["Frag"]),
                      "TP": float(clear["CLR_TP"]), "FP": float(clear["CLR_FP"]), "FN": float(clear["CLR_FN"]), "MT": float(clear["MT"]),
                      "PT": float(clear["PT"]), "ML": float(clear["ML"]), "IDF1": float(identity["IDF1"]), "IDP": float(identity["IDP"]),
                      "IDR": float(identity["IDR"])})
    checks = [(key, value, "TrackEval", key) for key, value in reference.items()]
    checks += [("MOTA", mm["mota"], "py-motmetrics", "MOTA"), ("IDF1", mm["idf1"], "py-motmetrics", "IDF1")]
    worst = 0.0
    for key, value, who, ours_key in checks:
        d = abs(float(ev.get(ours_key, math.nan)) - value)
        worst = max(worst, d) if not math.isnan(d) else math.inf
        if not d <= TOLERANCE:
            problems.append(f"eval track {ours_key}: {ev.get(ours_key)} vs {who} {value}")

    # 4b. Counting accuracy end to end over more lines (recounted offline on the same tracks).
    #     ByteTrack (supervision 0.30.9, defaults) on the same detections, counted by the same rules.
    sweep = []
    ours_sweep = run_zones(binary, tracks_path, SWEEP, zone_arg)["videos"][0]["lines"]
    bt = run_bytetrack(load_detections(results / f"{name}.dets.jsonl"), num_frames)
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as bt_mot:
        for k in sorted(bt):
            for tid, b in bt[k]:
                bt_mot.write(f"{k},{tid},{b[0]!r},{b[1]!r},{b[2]!r},{b[3]!r},1,-1,-1,-1\n")
        bt_mot.flush()
        bt_sweep = run_zones(binary, bt_mot.name, SWEEP, zone_arg)["videos"][0]["lines"] if any(bt.values()) else [{}] * len(SWEEP)
    for spec, ours_l, bt_l in zip(SWEEP, ours_sweep, bt_sweep):
        n, (a, b) = parse_shape(spec)
        ev = truth(gt_frames, num_frames, n, a, b, zone_name, rect)
        net = {}
        for e in ev:
            if e[3] == n:
                net[e[1]] = net.get(e[1], 0) + (1 if e[2] == "in" else -1)
        sweep.append({"line": n, "in": ours_l["in"], "out": ours_l["out"],
                      "gtIn": sum(1 for e in ev if e[2] == "in"), "gtOut": sum(1 for e in ev if e[2] == "out"),
                      "netIn": ours_l["netIn"], "netOut": ours_l["netOut"],
                      "btNetIn": bt_l.get("netIn", 0), "btNetOut": bt_l.get("netOut", 0), "btIn": bt_l.get("in", 0), "btOut": bt_l.get("out", 0),
                      "gtNetIn": sum(1 for v in net.values() if v > 0), "gtNetOut": sum(1 for v in net.values() if v < 0)})

    summary = offline["videos"][0]
    ours_line = next(l for l in summary["lines"] if l["name"] == line_name)
    ours_zone = next(z for z in summary["zones"] if z["name"] == zone_name)
    return {
        "name": name, "crossings": crossings_equal, "membership": membership_equal, "explained": explained,
        "truthEvents": len(expected),
        "in": ours_line["netIn"], "out": ours_line["netOut"], "gtIn": gt_net_in, "gtOut": gt_net_out,
        "visitors": ours_zone["visitors"], "gtVisitors": gt_visitors,
        "HOTA": reference["HOTA"], "IDF1": reference["IDF1"], "MOTA": reference["MOTA"], "worst": worst,
        "problems": problems, "sweep": sweep,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gt", required=True, type=Path)
    parser.add_argument("--results", required=True, type=Path)
    parser.add_argument("--line", required=True, help="NAME=x1,y1,x2,y2 as given to track (pixels)")
    parser.add_argument("--zone", required=True, help="NAME=x1,y1,... as given to track (pixels)")
    parser.add_argument("--bin", required=True, help="the vision-tasks binary (for eval track)")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--strict", action="store_true")
    args = parser.parse_args(argv)
    results = []
    for gt_path in sorted(args.gt.glob("*.gt.json")):
        name = gt_path.name[:-len(".gt.json")]
        if not (args.results / f"{name}.tracks.jsonl").exists():
            continue
        results.append(check_sequence(name, gt_path, args.results, args.line, args.zone, args.bin))
    if not results:
        print("error: no sequences with tracks", file=sys.stderr)
        return 2
    header = (f"{'sequence':18s} | {'objects in/out':>14s} {'truth':>7s} | {'visitors':>8s} {'truth':>5s} | "
              f"{'= supervision':>13s} {'edge':>4s} | {'HOTA':>6s} {'IDF1':>6s} {'MOTA':>6s} {'max |eval - ref|':>16s}")
    print(header)
    print("-" * len(header))
    reference_failures, count_misses = [], []
    for r in results:
        print(f"{r['name']:18s} | {r['in']:>8d}/{r['out']:<5d} {r['gtIn']:>3d}/{r['gtOut']:<3d} | {r['visitors']:>8d} {r['gtVisitors']:>5d} | "
              f"{'yes' if not r['problems'] else 'NO':>13s} {r['explained']:>4d} | {r['HOTA']:6.3f} {r['IDF1']:6.3f} {r['MOTA']:6.3f} {r['worst']:16.1e}")
        reference_failures += [f"{r['name']}: {p}" for p in r["problems"]]
        if (r["in"], r["out"]) != (r["gtIn"], r["gtOut"]):
            count_misses.append(f"{r['name']}: objects across the line {r['in']}/{r['out']} vs truth {r['gtIn']}/{r['gtOut']}")
        if r["visitors"] != r["gtVisitors"]:
            count_misses.append(f"{r['name']}: zone visitors {r['visitors']} vs truth {r['gtVisitors']}")
    total = lambda k: sum(r[k] for r in results)
    print(f"{'ALL':18s} | {total('in'):>8d}/{total('out'):<5d} {total('gtIn'):>3d}/{total('gtOut'):<3d} | "
          f"{total('visitors'):>8d} {total('gtVisitors'):>5d} | {total('crossings')} crossings, {total('membership')} memberships equal, "
          f"{total('explained')} edge cases; {total('truthEvents')} ground-truth events")
    pairs = [(r["name"], w) for r in results for w in r["sweep"]]
    print(f"counting end to end (detector + tracker) over {len(SWEEP)} lines x {len(results)} sequences "
          f"({', '.join(SWEEP)}), recounted with vision-tasks zones:")
    for what, a, b in [("objects that crossed (net per track, in/out)", "netIn", "netOut"), ("crossing events (in/out)", "in", "out")]:
        up = lambda k, pre: pre + k[0].upper() + k[1:]
        truth_of = lambda w: (w[up(a, "gt")], w[up(b, "gt")])
        exact = sum(1 for _, w in pairs if (w[a], w[b]) == truth_of(w))
        bt_exact = sum(1 for _, w in pairs if (w[up(a, "bt")], w[up(b, "bt")]) == truth_of(w))
        total = lambda f: sum(sum(f(w)) for _, w in pairs)
        print(f"  {what}: exact on {exact} of {len(pairs)} (ByteTrack {bt_exact}); counted ours {total(lambda w: (w[a], w[b]))}, "
              f"ByteTrack {total(lambda w: (w[up(a, 'bt')], w[up(b, 'bt')]))}, truth {total(truth_of)}")
    for n, w in pairs:
        if (w["netIn"], w["netOut"]) != (w["gtNetIn"], w["gtNetOut"]):
            print(f"    {n} {w['line']}: objects in/out {w['netIn']}/{w['netOut']} vs truth {w['gtNetIn']}/{w['gtNetOut']}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    for p in reference_failures[:20]:
        print("FAIL:", p)
    for m in count_misses:
        print("count differs from the ground truth:", m)
    if reference_failures:
        return 1
    print("PASS: track's events = zones' on its records; = supervision's on our tracks; zones on the ground truth = its crossings and "
          "visits by definition; eval track = TrackEval and py-motmetrics to 1e-6")
    return 1 if (args.strict and count_misses) else 0


if __name__ == "__main__":
    sys.exit(main())
