#!/usr/bin/env python3
"""Checks `vision-tasks serve`'s app in headless Chromium with a fake camera (a .y4m made from a video
with FFmpeg), through the Chrome DevTools Protocol: the boxes the page draws equal the API's for the
frames it sent; inference time and frames per second update; the threshold, max results and model
settings change what comes back; classification and ML Kit's tracked objects show; a photo and a
video uploaded in the Library tab show results (the annotated video downloadable); the keyboard
reaches the tabs; a phone-sized window does not overflow; no console errors. With --slow, against a
server started with --delay-ms: one request in flight, frames dropped, no queue growing in the page
or the server. With --no-camera: the page says the camera is absent and the Library still works.

  check_app.py URL --y4m FILE --photo JPEG --video MP4 [--detectors A,B] [--classifier NAME]
               [--slow] [--no-camera] [--screenshots DIR] [--timeout S]

Prints one JSON object (checks passed and failed, figures); exits 1 when a check failed, 2 when the
browser could not run.
"""
import argparse
import base64
import json
import os
import sys
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "report"))
from check_report import CDP, Browser, InfraError, collect_errors, find_chromium  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("url")
parser.add_argument("--y4m")
parser.add_argument("--photo", required=True)
parser.add_argument("--video")
parser.add_argument("--detectors", default="")
parser.add_argument("--classifier", default="")
parser.add_argument("--slow", action="store_true")
parser.add_argument("--no-camera", action="store_true")
parser.add_argument("--screenshots")
parser.add_argument("--timeout", type=float, default=60)
args = parser.parse_args()
detectors = [d for d in args.detectors.split(",") if d]
results = {"passed": [], "failed": [], "figures": {}}


def check(name, ok, detail=""):
    (results["passed"] if ok else results["failed"]).append(name + ("" if ok else ": " + str(detail)[:400]))
    return ok


def post(path, data):
    request = urllib.request.Request(args.url + path, data=data, method="POST", headers={"Content-Type": "image/jpeg"})
    with urllib.request.urlopen(request, timeout=60) as r:
        return json.loads(r.read())


def metrics():
    with urllib.request.urlopen(args.url + "/metrics", timeout=10) as r:
        return r.read().decode()


def boxes_of(record):
    """The boxes a record holds, as the page reads them (picture pixels, label, score)."""
    out = []
    for d in record.get("detections", []):
        b, c = d["boundingBox"], (d.get("categories") or [{}])[0]
        out.append([b["originX"], b["originY"], b["width"], b["height"], c.get("displayName") or c.get("categoryName"),
                    c.get("score")])
    for o in record.get("objects", []):
        f, l = o["frame"], (o.get("labels") or [None])[0]
        out.append([f["originX"], f["originY"], f["width"], f["height"],
                    ("" if o.get("trackingID") is None else "#%d " % o["trackingID"]) + (l["text"] if l else "object"),
                    l["confidence"] if l else None])
    return out


def drawn_list(drawn):
    return [[b["x"], b["y"], b["width"], b["height"], b["label"], b.get("score")] for b in drawn]


extra = ["--autoplay-policy=no-user-gesture-required"]
if not args.no_camera:
    extra += ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
              "--use-file-for-fake-video-capture=" + os.path.abspath(args.y4m)]
browser = Browser(find_chromium(None), 1280, 900, args.timeout, extra)
cdp = None
try:
    cdp = CDP(browser.ws_url)
    target = cdp.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    s = cdp.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log", "DOM"):
        cdp.call(domain + ".enable", session=s)
    cdp.call("Emulation.setDeviceMetricsOverride",
             {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False}, session=s)
    cdp.call("Page.navigate", {"url": args.url + "/"}, session=s)

    def js(expression, wait=True):
        r = cdp.call("Runtime.evaluate", {"expression": expression, "awaitPromise": wait, "returnByValue": True},
                     session=s, timeout=args.timeout)
        if "exceptionDetails" in r:
            raise InfraError("script failed: %s: %s" % (expression[:80], r["exceptionDetails"]))
        return r["result"].get("value")

    def until(expression, seconds=None):
        deadline = time.monotonic() + (seconds or args.timeout)
        while time.monotonic() < deadline:
            try:
                if js(expression):
                    return True
            except InfraError:
                pass
            cdp.drain(0.1)
        return False

    def shot(name, full=False):
        if not args.screenshots:
            return
        os.makedirs(args.screenshots, exist_ok=True)
        data = cdp.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": full}, session=s)["data"]
        with open(os.path.join(args.screenshots, name), "wb") as f:
            f.write(base64.b64decode(data))

    def settle_answers(n=3):
        start = js("vt.live.answered")
        return until("vt.live.answered >= %d" % (start + n))

    check("the page loads its models", until("window.vt && vt.ready === true", 30), js("document.title"))
    if args.no_camera:
        check("without a camera the page says so", until("vt.camera === 'absent' || vt.camera === 'refused'", 20),
              js("vt.camera"))
        notice = js("document.getElementById('cameraNotice').textContent")
        check("the notice names the camera and the library", "camera" in notice.lower() and "Library" in notice, notice)
    else:
        check("the camera starts", until("vt.camera === 'on'", 30), js("vt.camera"))
        check("frames go to the server and come back", settle_answers(5), js("JSON.stringify(vt.live)"))
        stats = js("({inference: document.getElementById('inference').textContent, "
                   "fps: document.getElementById('fps').textContent, live: vt.live})")
        check("inference time and frames per second are shown", stats["inference"].endswith(" ms")
              and float(stats["fps"]) > 0, stats)
        before = stats["live"]["answered"]
        time.sleep(1.5)
        check("they keep updating", js("vt.live.answered") > before)
        results["figures"]["live"] = js("vt.live")

        def same_as_api(name, path):
            """The page's boxes for the last frame answered equal the API's for that frame (asked anew)."""
            snap = js("vt.snapshot()")
            if not snap:
                return check(name, False, "no frame answered"), None
            record = post(snap["url"] if path is None else path, base64.b64decode(snap["frame"]))
            return check(name, drawn_list(snap["drawn"]) == boxes_of(record), (drawn_list(snap["drawn"]),
                                                                               boxes_of(record))), snap["drawn"]

        ok, drawn = same_as_api("the boxes drawn equal the API's for the frame sent", None)
        results["figures"]["boxes"] = len(drawn or [])
        shot("app-camera.png")
        # The threshold.
        js("(() => { const t = document.getElementById('threshold'); t.value = '0.8'; "
           "t.dispatchEvent(new Event('input')); })()")
        settle_answers(3)
        high = js("vt.drawn")
        check("a higher threshold keeps only higher scores", all(b["score"] >= 0.8 for b in high), high)
        js("(() => { const t = document.getElementById('threshold'); t.value = '0.1'; "
           "t.dispatchEvent(new Event('input')); const m = document.getElementById('maxResults'); m.value = '20'; "
           "m.dispatchEvent(new Event('input')); })()")
        settle_answers(3)
        low = js("vt.drawn")
        check("a lower threshold finds more", len(low) > len(high) and min(b["score"] for b in low) < 0.8, (len(low), len(high)))
        js("(() => { const m = document.getElementById('maxResults'); m.value = '2'; "
           "m.dispatchEvent(new Event('input')); })()")
        settle_answers(3)
        check("max results caps the boxes", len(js("vt.drawn")) <= 2 and len(js("vt.drawn")) > 0, js("vt.drawn"))
        same_as_api("still the API's boxes with these settings", None)
        if len(detectors) > 1:
            js("(() => { const s = document.getElementById('model'); s.value = %s; "
               "s.dispatchEvent(new Event('change')); })()" % json.dumps(detectors[1]))
            settle_answers(3)
            check("the model setting names the model", js("vt.settings.detector") == detectors[1])
            ok, _ = same_as_api("switching the model switches the results (the second model's boxes)", None)
            frame = js("vt.snapshot()")["frame"]
            first = boxes_of(post("/v1/detect?model=%s&scoreThreshold=0.1&maxResults=2" % detectors[0],
                                  base64.b64decode(frame)))
            second = boxes_of(post("/v1/detect?model=%s&scoreThreshold=0.1&maxResults=2" % detectors[1],
                                   base64.b64decode(frame)))
            check("the two models give different boxes on that frame", first != second)
        if args.classifier:
            js("document.querySelector('[data-mode=classify]').click()")
            settle_answers(3)
            items = js("[...document.querySelectorAll('#liveCategories li')].map(l => l.textContent)")
            record = (js("vt.snapshot()") or {}).get("record")
            check("classification shows its top categories live", len(items) > 0 and record is not None
                  and items[0].startswith(record["classifications"][0]["categories"][0]["categoryName"]), items)
            same_as_api("the categories are the API's for the frame sent", None)
            js("document.querySelector('[data-mode=objects]').click()")
            settle_answers(6)
            # A slow (sanitized) build may answer a frame with no object yet: wait (bounded) for one that has.
            until("vt.drawn && vt.drawn.length > 0")
            tracked = js("vt.drawn")
            check("ML Kit's objects carry tracking IDs and labels", tracked and all(b["label"].startswith("#")
                  for b in tracked), tracked)
            # The fake camera loops a 3.6 s clip, and a slow (sanitized) build answers few frames a second:
            # IDs are compared between consecutive answers, and some pair of them must share one.
            seen = [{b["label"].split(" ")[0] for b in tracked}]
            for _ in range(12):
                settle_answers(1)
                seen.append({b["label"].split(" ")[0] for b in (js("vt.drawn") or [])})
                if seen[-1] & seen[-2]:
                    break
            check("tracking IDs persist from frame to frame", any(a & b for a, b in zip(seen, seen[1:])), seen)
            shown = js("document.getElementById('inference').textContent")
            check("ML Kit's objects show their inference time", shown.endswith(" ms"), shown)
            shot("app-objects.png")
            js("document.querySelector('[data-mode=detect]').click()")
            settle_answers(2)
        shown = js("document.getElementById('inference').textContent")
        check("the inference time is shown before the settings open", shown.endswith(" ms"), shown)
        # The settings sheet and the keyboard.
        js("document.getElementById('settingsButton').click()")
        check("the settings sheet opens, focus in it", js("!document.getElementById('settings').hidden && "
              "document.activeElement.id === 'model'"))
        check("GPU is offered disabled, with why", js("document.querySelector('#delegate option[value=GPU]').disabled")
              and "Linux" in js("document.getElementById('delegateWhy').textContent"))
        shot("app-settings.png")
        cdp.call("Input.dispatchKeyEvent", {"type": "keyDown", "key": "Escape", "code": "Escape",
                                            "windowsVirtualKeyCode": 27}, session=s)
        check("Escape closes the sheet", until("document.getElementById('settings').hidden", 5))
        if args.slow:
            js("vt.live.maxInFlight = 0; vt.live.dropped = 0")
            depths = []
            for _ in range(12):
                time.sleep(0.5)
                text = metrics()
                depth = [l for l in text.splitlines() if l.startswith("vision_tasks_queue_depth ")]
                flight = [l for l in text.splitlines() if l.startswith("vision_tasks_in_flight ")]
                depths.append((int(depth[0].split()[1]), int(flight[0].split()[1])))
            live = js("vt.live")
            results["figures"]["slow"] = {"live": live, "server (queue, in flight)": depths}
            check("slow server: one request in flight from the page", live["maxInFlight"] == 1, live)
            check("slow server: frames dropped in the page", live["dropped"] > 10, live)
            # The page's one request is either queued (for the moment between its arrival and a worker
            # taking it) or running: never more than one in the server, so nothing piles up.
            check("slow server: no queue in the server (queued + running ≤ 1)", max(d + f for d, f in depths) <= 1,
                  depths)
    # The library: a photo, then a video.
    js("document.getElementById('cameraTab').focus()")
    cdp.call("Input.dispatchKeyEvent", {"type": "keyDown", "key": "ArrowRight", "code": "ArrowRight",
                                        "windowsVirtualKeyCode": 39}, session=s)
    check("the keyboard moves to the Library tab", until("!document.getElementById('library').hidden", 5))
    js("(() => { const t = document.getElementById('threshold'); t.value = '0.5'; t.dispatchEvent(new Event('input'));"
       " const m = document.getElementById('maxResults'); m.value = '5'; m.dispatchEvent(new Event('input')); })()")
    if len(detectors) > 1:  # back to the first model
        js("(() => { const s = document.getElementById('model'); s.value = %s; "
           "s.dispatchEvent(new Event('change')); })()" % json.dumps(detectors[0]))
        check("the model switches back", js("vt.settings.detector") == detectors[0], js("vt.settings.detector"))
    node = cdp.call("DOM.querySelector", {"nodeId": cdp.call("DOM.getDocument", session=s)["root"]["nodeId"],
                                          "selector": "#file"}, session=s)["nodeId"]
    cdp.call("DOM.setFileInputFiles", {"nodeId": node, "files": [os.path.abspath(args.photo)]}, session=s)
    check("a photo shows its results", until("vt.library && vt.library.kind === 'photo'", 60), js("vt.library"))
    with open(args.photo, "rb") as f:
        model = js("vt.settings.detector")
        api = boxes_of(post("/v1/detect?model=%s&scoreThreshold=0.5&maxResults=5" % model, f.read()))
    check("the photo's boxes are the API's", drawn_list(js("vt.library.drawn")) == api, (js("vt.library.drawn"), api))
    shot("app-library.png", full=True)
    if args.video:
        cdp.call("DOM.setFileInputFiles", {"nodeId": node, "files": [os.path.abspath(args.video)]}, session=s)
        check("a video is annotated and downloadable", until("vt.library && vt.library.kind === 'video'", 240),
              js("vt.library"))
        library = js("vt.library") or {}
        results["figures"]["video"] = {k: library.get(k) for k in ("frames", "tracks", "counts")}
        if library.get("video"):
            with urllib.request.urlopen(args.url + library["video"], timeout=60) as r:
                mp4 = r.read()
            check("the annotated video downloads as an MP4", r.status == 200 and mp4[4:8] == b"ftyp" and len(mp4) > 1000,
                  len(mp4))
            check("the download link points at it", js("document.getElementById('download').getAttribute('href')")
                  == library["video"] and not js("document.getElementById('download').hidden"))
            shot("app-library-video.png", full=True)
        # The same video tracked (ML Kit's stream mode): objects with tracking IDs.
        js("document.querySelector('[data-mode=objects]').click(); document.getElementById('file').value = ''")
        cdp.call("DOM.setFileInputFiles", {"nodeId": node, "files": [os.path.abspath(args.video)]}, session=s)
        check("a video is tracked in the objects mode", until("vt.library && vt.library.kind === 'video'", 240),
              js("vt.library"))
        tracked = js("vt.library") or {}
        results["figures"]["tracked video"] = {k: tracked.get(k) for k in ("frames", "tracks")}
        check("the tracked video's objects carry IDs", (tracked.get("tracks") or 0) > 0, tracked)
        check("the summary counts the objects tracked", "objects tracked" in
              js("document.getElementById('summary').textContent"))
        js("document.querySelector('[data-mode=detect]').click()")
    # A phone-sized window.
    cdp.call("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 2,
                                                    "mobile": True}, session=s)
    cdp.drain(0.5)
    check("a phone-sized window does not scroll sideways",
          js("document.scrollingElement.scrollWidth <= window.innerWidth + 1"),
          js("[document.scrollingElement.scrollWidth, window.innerWidth]"))
    shot("app-phone.png")
    cdp.drain(0.5)
    errors = collect_errors(cdp.events, s)
    check("no console errors", not errors, errors)
finally:
    browser.shutdown(cdp)
print(json.dumps(results, indent=1))
sys.exit(1 if results["failed"] else 0)
