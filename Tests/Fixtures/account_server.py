#!/usr/bin/env python3
"""A stand-in Account server for notif's tests, on loopback.

Usage: account_server.py DIR
Writes the chosen port to DIR/port, appends every request (method, path, headers, body) as one
JSON line to DIR/requests.jsonl, and answers from DIR/script.json, read on every request:
  {"register": [500, 201],            statuses for successive POSTs (the last one repeats)
   "history": {"status": 200, "body": [...]},
   "historyPadding": N,               add N bytes of padding to the history body
   "historyRedirect": "http://x/"}    answer history with a 302 to this location
Hostile answers (for the reliability suites), to any request:
   "hold": N                          wait until DIR/release exists (at most N s), then answer
   "redirect": {"status": 307, "location": "http://other/"}   redirect every request
   "raw": "text"                      send these bytes (latin-1) instead of HTTP, then close
History only:
   "historyRaw": "text"               a 200 whose body is this text (not JSON, say)
   "historyStream": N                 a 200 without Content-Length: N bytes, then close
   "historyDrip": N                   a 200 announcing 1000 bytes, one byte every 0.5 s for N s
"""
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DIR = sys.argv[1]
posts = 0


def script():
    try:
        with open(os.path.join(DIR, "script.json")) as f:
            return json.load(f)
    except FileNotFoundError:
        return {}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self, body):
        entry = {"method": self.command, "path": self.path,
                 "headers": {k: v for k, v in self.headers.items()},
                 "body": body.decode("utf-8", "replace")}
        with open(os.path.join(DIR, "requests.jsonl"), "a") as f:
            f.write(json.dumps(entry) + "\n")

    def answer(self, status, payload=b"", extra=None):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        for key, value in (extra or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(payload)

    def hostile(self):
        """Answers from the hostile options; True when the request was answered."""
        s = script()
        if "hold" in s:
            deadline = time.time() + float(s["hold"])
            while time.time() < deadline and not os.path.exists(os.path.join(DIR, "release")):
                time.sleep(0.05)
        if "raw" in s:
            self.wfile.write(s["raw"].encode("latin-1"))
            self.wfile.flush()
            self.close_connection = True
            return True
        if "redirect" in s:
            r = s["redirect"]
            self.answer(r.get("status", 302), b"", {"Location": r["location"]})
            return True
        return False

    def hostile_history(self):
        s = script()
        try:
            if "historyRaw" in s:
                self.answer(200, s["historyRaw"].encode("utf-8", "surrogatepass"))
                return True
            if "historyStream" in s:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Connection", "close")
                self.end_headers()
                left = int(s["historyStream"])
                chunk = b"[" + b" " * 65535
                while left > 0:
                    self.wfile.write(chunk[:min(left, len(chunk))])
                    left -= len(chunk)
                self.close_connection = True
                return True
            if "historyDrip" in s:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "1000")
                self.end_headers()
                self.wfile.flush()
                deadline = time.time() + float(s["historyDrip"])
                while time.time() < deadline:
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(0.5)
                self.close_connection = True
                return True
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
            return True
        return False

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def do_POST(self):
        global posts
        data = self.body()
        self.record(data)
        if self.hostile():
            return
        if self.path != "/api/v1/app/device-tokens":
            return self.answer(404)
        statuses = script().get("register", [201])
        status = statuses[min(posts, len(statuses) - 1)]
        posts += 1
        self.answer(status, b"{}")

    def do_DELETE(self):
        self.record(self.body())
        if self.hostile():
            return
        self.answer(204)

    def do_GET(self):
        self.record(b"")
        if self.hostile():
            return
        if self.path != "/api/v1/app/notifications":
            return self.answer(404)
        if self.hostile_history():
            return
        s = script()
        if "historyRedirect" in s:
            return self.answer(302, b"", {"Location": s["historyRedirect"]})
        history = s.get("history", {"status": 200, "body": []})
        payload = json.dumps(history.get("body", [])).encode()
        padding = s.get("historyPadding", 0)
        if padding:
            payload = payload[:-1] + (b"," if payload != b"[]" else b"") + b'{"id":"pad","title":"' + b"x" * padding + b'"}]'
        self.answer(history.get("status", 200), payload)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(os.path.join(DIR, "port.tmp"), "w") as f:
    f.write(str(server.server_address[1]))
os.rename(os.path.join(DIR, "port.tmp"), os.path.join(DIR, "port"))
server.serve_forever()
