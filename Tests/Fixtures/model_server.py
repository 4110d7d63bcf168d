"""A small HTTP server on 127.0.0.1 for ModelDownloader's tests; stops by itself after 120 s.

  /files/NAME   the file, with Range support (206)      /slow/NAME  waits 5 s before answering
  /drop/NAME    sends half of the file, then hangs up   /log        the Range headers received (JSON)
  anything else 404

Usage: python3 model_server.py FOLDER   (prints the port it listens on, then serves)
"""
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FOLDER = sys.argv[1]
RANGES = []


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        parts = self.path.strip("/").split("/")
        if parts == ["log"]:
            return self.reply(200, json.dumps(RANGES).encode())
        if len(parts) != 2 or parts[0] not in ("files", "slow", "drop") or "/" in parts[1]:
            return self.reply(404, b"not found")
        path = os.path.join(FOLDER, parts[1])
        if not os.path.isfile(path):
            return self.reply(404, b"not found")
        data = open(path, "rb").read()
        RANGES.append(self.headers.get("Range"))
        if parts[0] == "slow":
            time.sleep(5)
        if parts[0] == "drop":
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[: len(data) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        start = 0
        rng = self.headers.get("Range")
        if rng and rng.startswith("bytes=") and rng.endswith("-"):
            start = int(rng[6:-1])
            if start >= len(data):
                return self.reply(416, b"")
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        else:
            self.send_response(200)
        self.send_header("Content-Length", str(len(data) - start))
        self.end_headers()
        self.wfile.write(data[start:])

    def reply(self, code, body):
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class Server(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # A client that gives up (the timeout tests) closes the connection while /slow still writes:
        # that is expected, not a failure to print. Anything else is still shown.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
threading.Timer(120, server.shutdown).start()
server.serve_forever()
