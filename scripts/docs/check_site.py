#!/usr/bin/env python3
"""The documentation site renders, as a reader's browser shows it: `make docs`' output served by a static
server on 127.0.0.1, opened in headless Chromium (through the DevTools protocol, scripts/report/check_report.py's
client). For each page — the site's landing page, a symbol page, an article, an article with pictures — the page
must render its title (DocC renders in the browser, so an unrendered page has none), the expected text and every
picture it has, and log no console error or uncaught exception; a screenshot of each is kept.

  check_site.py SITE_DIR SCREENSHOT_DIR        prints a line per page; exits 1 on a failed check, 2 when
                                               Chromium or the server could not run
"""
import base64
import functools
import http.server
import json
import os
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "report"))
from check_report import CDP, Browser, InfraError, collect_errors, find_chromium  # noqa: E402

site, shots = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def article_title(name):
    with open(os.path.join(root, "Documentation", "VisionTasks.docc", name + ".md"), encoding="utf-8") as f:
        return f.readline().lstrip("# ").strip()


# (screenshot name, path, the title the page must show, text its body must contain, pictures it must show)
PAGES = [
    ("landing", "/documentation/", "VisionTasks", "MediaPipeTasksVision", 0),
    ("symbol", "/documentation/mediapipetasksvision/objectdetector", "ObjectDetector",
     "func detect(image: MPImage) throws -> ObjectDetectorResult", 0),
    ("article", "/documentation/visiontasks/gettingstarted", article_title("GettingStarted"),
     "import MediaPipeTasksVision", 0),
    ("pictures", "/documentation/visiontasks/serving#The-browser-app", article_title("Serving"), "Frigate", 5),
]
RENDERED_JS = r"""
(async (capMs) => {
  const deadline = Date.now() + capMs;
  const title = () => { const h = document.querySelector('main h1'); return h ? h.textContent.trim() : ''; };
  while (!title() && Date.now() < deadline) await new Promise(r => setTimeout(r, 100));
  await new Promise(r => setTimeout(r, 500));
  const images = Array.from(document.querySelectorAll('main img'));
  for (const img of images) { if (img.loading === 'lazy') img.loading = 'eager'; }
  await Promise.race([Promise.all(images.map(img => img.complete ? null : new Promise(r => {
      img.addEventListener('load', r, {once: true}); img.addEventListener('error', r, {once: true}); }))),
    new Promise(r => setTimeout(r, 5000))]);
  return {title: title(), text: document.querySelector('main') ? document.querySelector('main').innerText : '',
          links: document.querySelectorAll('main a[href]').length, images: images.length,
          loaded: images.filter(img => img.complete && img.naturalWidth > 0).length};
})
"""


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=site))
threading.Thread(target=server.serve_forever, daemon=True).start()
base = "http://127.0.0.1:%d" % server.server_address[1]
os.makedirs(shots, exist_ok=True)
failures = []
try:
    browser = Browser(find_chromium(None), 1280, 900, 60)
except InfraError as error:
    sys.exit("docs: Chromium did not start: %s" % error)
cdp = None
try:
    cdp = CDP(browser.ws_url)
    for name, path, title, text, pictures in PAGES:
        target = cdp.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = cdp.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            cdp.call(domain + ".enable", session=session)
        mark = len(cdp.events)
        navigation = cdp.call("Page.navigate", {"url": base + path}, session=session, timeout=60)
        if navigation.get("errorText"):
            failures.append("%s: %s did not load: %s" % (name, path, navigation["errorText"]))
            continue
        page = cdp.call("Runtime.evaluate", {"expression": "(%s)(20000)" % RENDERED_JS.strip(), "awaitPromise": True,
                                             "returnByValue": True}, session=session, timeout=60)["result"]["value"]
        cdp.drain(0.5)
        shot = cdp.call("Page.captureScreenshot", {"format": "png"}, session=session, timeout=60)
        png = os.path.join(shots, "docs-%s.png" % name)
        with open(png, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
        errors = collect_errors(cdp.events[mark:], session)
        problems = []
        if page["title"] != title:
            problems.append("title %r, expected %r" % (page["title"], title))
        if text not in page["text"]:
            problems.append("no %r in the page, which reads: %r" % (text, page["text"][:600]))
        if page["loaded"] < pictures or page["loaded"] != page["images"]:
            problems.append("%d of %d pictures shown, at least %d expected" % (page["loaded"], page["images"], pictures))
        if errors:
            problems.append("console: " + "; ".join(errors[:5]))
        failures += ["%s (%s): %s" % (name, path, p) for p in problems]
        print("docs: %-8s %s — %r, %d links, %d pictures, %s%s" % (
            name, path, page["title"], page["links"], page["loaded"], png, "" if not problems else " — FAILED"))
        cdp.call("Target.closeTarget", {"targetId": target})
finally:
    browser.shutdown(cdp)
    server.shutdown()
if failures:
    sys.exit("\n".join("docs: " + f for f in failures))
