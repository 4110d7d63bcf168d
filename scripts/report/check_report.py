#!/usr/bin/env python3
"""Render a local HTML report in headless Chromium, screenshot it, and check it.

Standard library only. Talks the Chrome DevTools Protocol (CDP) over a small
built-in RFC 6455 websocket client.

Usage:
    check_report.py REPORT.html --screenshot OUT.png [--min-images N]
                    [--chromium PATH] [--width 1280] [--height 800]
                    [--timeout SECONDS] [--settle MS] [--allow-console-errors]

Chromium binary: --chromium PATH, else $CHROMIUM, else the first of
chromium / chromium-browser / google-chrome / google-chrome-stable on PATH.

Prints one JSON object on stdout:
    {"ok": bool, "images": N, "imagesLoaded": M, "brokenImages": [...],
     "consoleErrors": [...], "title": str, "screenshot": path,
     "screenshotSize": [w, h], "failures": [...], "chromium": version,
     "elapsedSec": float}

Exit status: 0 = pass (images >= min-images (default 1), all images loaded,
no console errors / uncaught exceptions / error log entries);
1 = the page was checked and failed; 2 = usage or infrastructure error
(chromium missing, did not start, timeout, ...).
"""

import argparse
import base64
import hashlib
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class InfraError(Exception):
    """Something went wrong that is not a property of the page."""


# --------------------------------------------------------------------------
# Minimal RFC 6455 websocket client (client side: masked frames out,
# unmasked frames in; handles fragmentation, 16/64-bit lengths, ping/close).
# --------------------------------------------------------------------------
class WebSocket:
    def __init__(self, url, timeout=10.0):
        u = urllib.parse.urlsplit(url)
        if u.scheme != "ws":
            raise InfraError("only ws:// supported, got %r" % url)
        host, port = u.hostname, u.port or 80
        path = u.path or "/"
        if u.query:
            path += "?" + u.query
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = bytearray()
        key = base64.b64encode(os.urandom(16)).decode()
        # NB: deliberately no Origin header -- Chrome >= 111 rejects websocket
        # connections carrying an Origin unless --remote-allow-origins is set.
        req = (
            "GET %s HTTP/1.1\r\n"
            "Host: %s:%d\r\n"
            "Upgrade: websocket\r\n"
            "Connection: Upgrade\r\n"
            "Sec-WebSocket-Key: %s\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n" % (path, host, port, key)
        )
        self.sock.sendall(req.encode())
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise InfraError("websocket handshake: connection closed")
            self.buf += chunk
        head, _, rest = bytes(self.buf).partition(b"\r\n\r\n")
        self.buf = bytearray(rest)  # bytes after the handshake belong to frames
        lines = head.decode("latin-1").split("\r\n")
        if " 101 " not in lines[0] + " ":
            raise InfraError("websocket handshake failed: %s" % lines[0])
        headers = {}
        for line in lines[1:]:
            k, _, v = line.partition(":")
            headers[k.strip().lower()] = v.strip()
        expect = base64.b64encode(
            hashlib.sha1((key + WS_GUID).encode()).digest()).decode()
        if headers.get("sec-websocket-accept") != expect:
            raise InfraError("websocket handshake: bad Sec-WebSocket-Accept")
        self.closed = False

    @staticmethod
    def _mask(payload, mask):
        n = len(payload)
        if n == 0:
            return b""
        m = (mask * (n // 4 + 1))[:n]
        return (int.from_bytes(payload, "little") ^ int.from_bytes(m, "little")
                ).to_bytes(n, "little")

    def _send_frame(self, opcode, payload):
        header = bytearray([0x80 | opcode])  # FIN + opcode, never fragment out
        n = len(payload)
        if n < 126:
            header.append(0x80 | n)
        elif n < 65536:
            header.append(0x80 | 126)
            header += struct.pack("!H", n)
        else:
            header.append(0x80 | 127)
            header += struct.pack("!Q", n)
        mask = os.urandom(4)
        header += mask
        self.sock.sendall(bytes(header) + self._mask(payload, mask))

    def send_text(self, text):
        self._send_frame(0x1, text.encode("utf-8"))

    def _read_exact(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(max(65536, n - len(self.buf)))
            if not chunk:
                raise InfraError("websocket: connection closed by peer")
            self.buf += chunk
        out = bytes(self.buf[:n])
        del self.buf[:n]
        return out

    def recv_message(self, timeout):
        """Return one complete text/binary message (str or bytes).

        Raises socket.timeout if nothing complete arrives within `timeout`
        (a partially-read frame stays buffered only if the timeout hits
        between reads; we keep a generous per-read timeout for that reason).
        """
        self.sock.settimeout(timeout)
        parts, first_op = [], None
        while True:
            b0, b1 = self._read_exact(2)
            # once a frame has started, don't let a short timeout cut it
            self.sock.settimeout(max(timeout, 30.0))
            fin, opcode = b0 & 0x80, b0 & 0x0F
            masked, n = b1 & 0x80, b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._read_exact(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._read_exact(8))[0]
            mask = self._read_exact(4) if masked else None
            payload = self._read_exact(n)
            if mask:
                payload = self._mask(payload, mask)
            if opcode == 0x8:  # close
                self.closed = True
                try:
                    self._send_frame(0x8, payload[:2])
                except OSError:
                    pass
                raise InfraError("websocket closed by browser")
            if opcode == 0x9:  # ping -> pong
                self._send_frame(0xA, payload)
                continue
            if opcode == 0xA:  # pong
                continue
            if opcode in (0x1, 0x2):
                first_op, parts = opcode, [payload]
            elif opcode == 0x0:  # continuation
                parts.append(payload)
            if fin and first_op is not None:
                data = b"".join(parts)
                return data.decode("utf-8") if first_op == 0x1 else data

    def close(self):
        if not self.closed:
            try:
                self._send_frame(0x8, struct.pack("!H", 1000))
            except OSError:
                pass
            self.closed = True
        try:
            self.sock.close()
        except OSError:
            pass


# --------------------------------------------------------------------------
# CDP connection (single browser websocket, flattened target sessions)
# --------------------------------------------------------------------------
class CDP:
    def __init__(self, ws_url):
        self.ws = WebSocket(ws_url)
        self.next_id = 0
        self.events = []  # (method, params, sessionId)

    def _pump(self, timeout):
        msg = json.loads(self.ws.recv_message(timeout))
        if "method" in msg:
            self.events.append(
                (msg["method"], msg.get("params", {}), msg.get("sessionId")))
        return msg

    def call(self, method, params=None, session=None, timeout=30.0):
        self.next_id += 1
        mid = self.next_id
        msg = {"id": mid, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        self.ws.send_text(json.dumps(msg))
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise InfraError("timeout waiting for %s" % method)
            try:
                reply = self._pump(left)
            except socket.timeout:
                raise InfraError("timeout waiting for %s" % method)
            if reply.get("id") == mid:
                if "error" in reply:
                    raise InfraError("%s failed: %s" % (method, reply["error"]))
                return reply.get("result", {})

    def wait_event(self, pred, timeout, start=0):
        """Wait until an event (index >= start) satisfies pred; return it."""
        deadline = time.monotonic() + timeout
        i = start
        while True:
            while i < len(self.events):
                if pred(*self.events[i]):
                    return self.events[i]
                i += 1
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                self._pump(left)
            except socket.timeout:
                return None

    def drain(self, duration):
        """Keep collecting events for `duration` seconds."""
        deadline = time.monotonic() + duration
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            try:
                self._pump(left)
            except socket.timeout:
                return

    def close(self):
        self.ws.close()


# --------------------------------------------------------------------------
# Chromium process management
# --------------------------------------------------------------------------
def find_chromium(explicit):
    cands = [explicit, os.environ.get("CHROMIUM")]
    for c in cands:
        if c:
            p = shutil.which(c) or (c if os.path.isfile(c) else None)
            if not p:
                raise InfraError("chromium binary not found: %s" % c)
            return p
    for name in ("chromium", "chromium-browser", "google-chrome",
                 "google-chrome-stable", "/usr/lib/chromium/chromium"):
        p = shutil.which(name)
        if p:
            return p
    raise InfraError("no chromium found; apt-get install chromium, or pass "
                     "--chromium PATH / set CHROMIUM")


def chromium_version(binary):
    try:
        out = subprocess.run([binary, "--version"], capture_output=True,
                             text=True, timeout=20).stdout.strip()
        return out.splitlines()[-1] if out else None
    except Exception:
        return None


class Browser:
    def __init__(self, binary, width, height, timeout, extra=()):
        self.profile = tempfile.mkdtemp(prefix="check_report_chromium_")
        self.log_path = os.path.join(self.profile, "chromium-stderr.log")
        args = [
            binary,
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--remote-debugging-port=0",
            "--remote-debugging-address=127.0.0.1",
            "--user-data-dir=" + self.profile,
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            "--disable-component-update",
            "--disable-background-networking",
            "--disable-sync",
            "--disable-default-apps",
            "--hide-scrollbars",
            "--mute-audio",
            "--force-color-profile=srgb",
            "--window-size=%d,%d" % (width, height),
        ] + list(extra) + [
            "about:blank",
        ]
        self.log = open(self.log_path, "wb")
        # own session/process group so we can clean up every child by pgid
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL,
                                     stdout=self.log, stderr=self.log,
                                     start_new_session=True)
        self.ws_url = self._wait_devtools(timeout)

    def _wait_devtools(self, timeout):
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise InfraError("chromium exited early (rc=%s): %s"
                                 % (self.proc.returncode, self.log_tail()))
            try:
                with open(port_file) as f:
                    lines = f.read().split("\n")
                if len(lines) >= 2 and lines[0].strip() and lines[1].strip():
                    return "ws://127.0.0.1:%s%s" % (lines[0].strip(),
                                                    lines[1].strip())
            except FileNotFoundError:
                pass
            time.sleep(0.05)
        raise InfraError("chromium did not write DevToolsActivePort: "
                         + self.log_tail())

    def log_tail(self, n=15):
        try:
            self.log.flush()
            with open(self.log_path, "rb") as f:
                lines = f.read().decode("utf-8", "replace").splitlines()
            # drop the harmless dbus chatter that headless chromium emits
            lines = [l for l in lines if "dbus" not in l.lower()]
            return " | ".join(lines[-n:])
        except OSError:
            return ""

    def _killpg(self, sig):
        try:
            os.killpg(self.proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    def shutdown(self, cdp=None):
        if cdp is None:  # never connected: no polite way to ask it to quit
            self._killpg(signal.SIGTERM)
        else:
            try:
                cdp.ws.send_text(json.dumps(
                    {"id": 10 ** 6, "method": "Browser.close"}))
            except Exception:
                pass
            cdp.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._killpg(signal.SIGTERM)
            try:
                self.proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                pass
        # Anything left in the process group we created (renderer/zygote
        # children, or everything if Browser.close did not work) gets SIGKILL.
        # Already-exited children may linger briefly as zombies; that's fine.
        self._killpg(signal.SIGKILL)
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)


# --------------------------------------------------------------------------
# The check
# --------------------------------------------------------------------------
# Make lazy images load eagerly, then wait for every <img> to finish
# (load or error) with a cap, and report per-image state.
IMAGE_PROBE_JS = r"""
(async (capMs) => {
  const imgs = Array.from(document.images);
  for (const img of imgs) { if (img.loading === 'lazy') img.loading = 'eager'; }
  const settle = img => (img.complete) ? Promise.resolve() : new Promise(r => {
      img.addEventListener('load', r, {once: true});
      img.addEventListener('error', r, {once: true}); });
  await Promise.race([Promise.all(imgs.map(settle)),
                      new Promise(r => setTimeout(r, capMs))]);
  try { if (document.fonts) await Promise.race([document.fonts.ready,
                                   new Promise(r => setTimeout(r, 2000))]); } catch (e) {}
  const now = Array.from(document.images);
  const broken = now.filter(i => !(i.complete && i.naturalWidth > 0))
                    .map(i => { const s = i.currentSrc || i.src || '';
                                return (s.length > 120 ? s.slice(0, 120) + '...' : s)
                                       + (i.complete ? ' (failed)' : ' (still loading)'); });
  return {images: now.length,
          imagesLoaded: now.filter(i => i.complete && i.naturalWidth > 0).length,
          broken: broken, title: document.title, readyState: document.readyState,
          href: location.href};
})
"""


def remote_obj_text(obj):
    prev = obj.get("preview")
    if prev and prev.get("properties") is not None:
        props = ", ".join("%s: %s" % (q.get("name"), q.get("value", q.get("type")))
                          for q in prev["properties"])
        return (prev.get("description", "") + " {" + props
                + (", ..." if prev.get("overflow") else "") + "}")
    if "value" in obj:
        v = obj["value"]
        return v if isinstance(v, str) else json.dumps(v)
    if "unserializableValue" in obj:
        return obj["unserializableValue"]
    return obj.get("description") or obj.get("className") or obj.get("type", "")


def collect_errors(events, session):
    errs, seen = [], set()

    def add(kind, text, where=""):
        entry = "%s: %s%s" % (kind, text, (" (" + where + ")") if where else "")
        if entry not in seen:
            seen.add(entry)
            errs.append(entry)

    for method, p, sid in events:
        if sid != session:
            continue
        if method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            text = " ".join(remote_obj_text(a) for a in p.get("args", []))
            frames = (p.get("stackTrace") or {}).get("callFrames") or []
            where = ("%s:%s" % (frames[0].get("url", ""),
                                frames[0].get("lineNumber", 0) + 1)) if frames else ""
            add("console." + p["type"], text, where)
        elif method == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            exc = d.get("exception") or {}
            text = exc.get("description") or d.get("text", "exception")
            text = text.splitlines()[0] if text else "exception"
            where = "%s:%s" % (d.get("url", ""), d.get("lineNumber", 0) + 1)
            add("uncaught", text, where)
        elif method == "Log.entryAdded":
            e = p.get("entry", {})
            if e.get("level") == "error":
                add("log." + e.get("source", "other"), e.get("text", ""),
                    e.get("url", ""))
    return errs


def run_check(args):
    t0 = time.monotonic()
    report = os.path.abspath(args.report)
    if not os.path.isfile(report):
        raise InfraError("no such file: %s" % report)
    url = "file://" + urllib.request.pathname2url(report)
    binary = find_chromium(args.chromium)
    version = chromium_version(binary)
    timings = {}
    lap = [time.monotonic()]

    def mark_phase(name):
        now = time.monotonic()
        timings[name] = round(now - lap[0], 3)
        lap[0] = now

    browser = Browser(binary, args.width, args.height, args.timeout)
    mark_phase("launch")
    cdp = None
    try:
        cdp = CDP(browser.ws_url)
        target = cdp.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        sess = cdp.call("Target.attachToTarget",
                        {"targetId": target, "flatten": True})["sessionId"]
        for dom in ("Page", "Runtime", "Log"):
            cdp.call(dom + ".enable", session=sess)
        cdp.call("Page.setLifecycleEventsEnabled", {"enabled": True}, session=sess)
        cdp.call("Emulation.setDeviceMetricsOverride",
                 {"width": args.width, "height": args.height,
                  "deviceScaleFactor": 1, "mobile": False}, session=sess)

        mark = len(cdp.events)
        nav = cdp.call("Page.navigate", {"url": url}, session=sess,
                       timeout=args.timeout)
        if nav.get("errorText"):
            raise InfraError("navigation failed: %s" % nav["errorText"])
        loader = nav.get("loaderId")
        frame = nav.get("frameId")

        def is_load(m, p, sid):
            if sid != sess:
                return False
            if m == "Page.lifecycleEvent":
                return (p.get("name") == "load" and p.get("frameId") == frame
                        and (loader is None or p.get("loaderId") == loader))
            return False

        if cdp.wait_event(is_load, args.timeout, start=mark) is None:
            raise InfraError("page did not fire load within %ss" % args.timeout)
        mark_phase("load")

        probe = cdp.call("Runtime.evaluate", {
            "expression": "(%s)(%d)" % (IMAGE_PROBE_JS.strip(),
                                         int(args.timeout * 1000 / 2)),
            "awaitPromise": True, "returnByValue": True}, session=sess,
            timeout=args.timeout)
        if "exceptionDetails" in probe:
            raise InfraError("probe script failed: %s" % probe["exceptionDetails"])
        info = probe["result"]["value"]
        mark_phase("imageProbe")

        # let late timers / rAF callbacks log errors before we judge
        cdp.drain(args.settle / 1000.0)

        mark_phase("settle")
        # full-page screenshot
        metrics = cdp.call("Page.getLayoutMetrics", session=sess)
        size = metrics.get("cssContentSize") or metrics.get("contentSize")
        w = max(1, min(int(size["width"] + 0.999), 16384))
        h = max(1, min(int(size["height"] + 0.999), args.max_height))
        shot = cdp.call("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True, "fromSurface": True,
            "clip": {"x": 0, "y": 0, "width": w, "height": h, "scale": 1}},
            session=sess, timeout=max(args.timeout, 60))
        png = base64.b64decode(shot["data"])
        out = os.path.abspath(args.screenshot)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "wb") as f:
            f.write(png)
        png_w, png_h = struct.unpack("!II", png[16:24]) if png[:8] == b"\x89PNG\r\n\x1a\n" else (0, 0)

        mark_phase("screenshot")
        errors = collect_errors(cdp.events, sess)
    finally:
        browser.shutdown(cdp)
    mark_phase("shutdown")

    failures = []
    if info["images"] < args.min_images:
        failures.append("expected at least %d image(s), found %d"
                        % (args.min_images, info["images"]))
    if info["imagesLoaded"] != info["images"]:
        failures.append("%d of %d image(s) failed to load"
                        % (info["images"] - info["imagesLoaded"], info["images"]))
    if errors and not args.allow_console_errors:
        failures.append("%d console error(s)" % len(errors))
    return {
        "ok": not failures,
        "images": info["images"],
        "imagesLoaded": info["imagesLoaded"],
        "brokenImages": info["broken"],
        "consoleErrors": errors,
        "title": info["title"],
        "screenshot": out,
        "screenshotSize": [png_w, png_h],
        "screenshotClipped": h < int(size["height"] + 0.999),
        "failures": failures,
        "url": info["href"],
        "chromium": version,
        "elapsedSec": round(time.monotonic() - t0, 2),
        "timings": timings,
    }


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Render a local HTML report in headless Chromium, save a "
                    "full-page PNG and fail on console errors / broken images.")
    ap.add_argument("report", help="path to the local .html file")
    ap.add_argument("--screenshot", required=True, metavar="OUT.png")
    ap.add_argument("--min-images", type=int, default=1, metavar="N",
                    help="minimum number of <img> elements required (default 1)")
    ap.add_argument("--chromium", metavar="PATH",
                    help="browser binary (default: $CHROMIUM, then chromium on PATH)")
    ap.add_argument("--width", type=int, default=1280, help="viewport width (1280)")
    ap.add_argument("--height", type=int, default=800, help="viewport height (800)")
    ap.add_argument("--max-height", type=int, default=16384,
                    help="clip full-page screenshot to this many px (16384)")
    ap.add_argument("--timeout", type=float, default=30.0,
                    help="seconds for startup / load / image waits (30)")
    ap.add_argument("--settle", type=int, default=250, metavar="MS",
                    help="extra ms to keep collecting console events after load (250)")
    ap.add_argument("--allow-console-errors", action="store_true",
                    help="report console errors but do not fail on them")
    args = ap.parse_args(argv)
    # turn SIGTERM (e.g. a CI timeout) into SystemExit so `finally` blocks
    # still shut chromium down and delete the temporary profile
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        result = run_check(args)
    except InfraError as e:
        print(json.dumps({"ok": False, "error": str(e)}, indent=2))
        return 2
    print(json.dumps(result, indent=2))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
