#!/usr/bin/env python3
"""A fault switch in front of LocalStack's S3, for watching retries and the circuit breaker by hand.

Usage: infra/local/s3_faults.py [--port 4567] [--target http://127.0.0.1:4566]
  (make run ARGS="--s3-faults" starts it and points the functions' S3 endpoint at it)

Every request is forwarded to the target unchanged, except object PUTs while a fault is on:

  curl -X POST 'http://127.0.0.1:4567/_faults?mode=outage&seconds=90'   # every PUT: 500 InternalError
  curl -X POST 'http://127.0.0.1:4567/_faults?mode=throttle&seconds=60'  # every PUT: 503 SlowDown
  curl -X POST 'http://127.0.0.1:4567/_faults?mode=flaky&rate=0.5'       # that share of PUTs: 500
  curl -X POST 'http://127.0.0.1:4567/_faults?mode=off'
  curl http://127.0.0.1:4567/_faults                                      # the current fault, as JSON

A fault with `seconds` switches itself off after that long. Only the standard library; loopback only.
"""
import argparse
import json
import random
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODES = {"off", "outage", "throttle", "flaky"}
# Headers the proxy sets itself or that describe the hop, not the request.
HOP_HEADERS = {"host", "content-length", "connection", "keep-alive", "transfer-encoding", "upgrade", "expect", "date", "server"}


class Faults:
    """The current fault, switched over HTTP; thread-safe."""

    def __init__(self):
        self._lock = threading.Lock()
        self._mode, self._rate, self._until = "off", 0.0, None
        self.faulted = 0

    def set(self, mode, rate=1.0, seconds=None):
        with self._lock:
            self._mode, self._rate = mode, rate
            self._until = time.monotonic() + seconds if seconds else None

    def _expire(self):
        if self._until is not None and time.monotonic() >= self._until:
            self._mode, self._until = "off", None

    def state(self):
        with self._lock:
            self._expire()
            remaining = None if self._until is None else round(self._until - time.monotonic(), 1)
            return {"mode": self._mode, "rate": self._rate, "secondsLeft": remaining, "faultedPuts": self.faulted}

    def fault_for_put(self):
        """(status, S3 error code) to answer instead of forwarding, or None; counts what it injects."""
        with self._lock:
            self._expire()
            fault = None
            if self._mode == "outage" or (self._mode == "flaky" and random.random() < self._rate):
                fault = (500, "InternalError")
            elif self._mode == "throttle":
                fault = (503, "SlowDown")
            self.faulted += fault is not None
            return fault


def handler_for(target, faults):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt, *args):  # one line per switch is enough; requests are not logged
            pass

        def _reply(self, status, body, content_type):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def _control(self):
            query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
            if self.command == "POST":
                mode = query.get("mode", ["off"])[0]
                try:
                    rate = float(query.get("rate", ["1.0"])[0])
                    seconds = float(query["seconds"][0]) if "seconds" in query else None
                except ValueError:
                    return self._reply(400, b'{"error":"rate and seconds are numbers"}\n', "application/json")
                if mode not in MODES or not 0.0 <= rate <= 1.0:
                    return self._reply(400, json.dumps({"error": f"mode is one of {sorted(MODES)}, rate in [0, 1]"}).encode() + b"\n",
                                       "application/json")
                faults.set(mode, rate, seconds)
                print(f"[s3-faults] {mode}" + (f" rate={rate}" if mode == "flaky" else "")
                      + (f" for {seconds:g} s" if seconds else ""), flush=True)
            self._reply(200, json.dumps(faults.state()).encode() + b"\n", "application/json")

        def _proxy(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            # An object PUT has a key after the bucket (path-style: /bucket/key).
            is_object_put = self.command == "PUT" and urllib.parse.urlsplit(self.path).path.strip("/").count("/") >= 1
            fault = faults.fault_for_put() if is_object_put else None
            if fault:
                status, code = fault
                xml = (f'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>{code}</Code>'
                       f"<Message>injected by infra/local/s3_faults.py</Message><RequestId>s3-faults</RequestId></Error>").encode()
                return self._reply(status, xml, "application/xml")
            request = urllib.request.Request(target + self.path, data=body, method=self.command)
            for name, value in self.headers.items():
                if name.lower() not in HOP_HEADERS:
                    request.add_header(name, value)
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    status, headers, payload = response.status, response.headers, response.read()
            except urllib.error.HTTPError as error:
                status, headers, payload = error.code, error.headers, error.read()
            self.send_response(status)
            for name, value in headers.items():
                if name.lower() not in HOP_HEADERS:
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(payload)

        def _handle(self):
            if urllib.parse.urlsplit(self.path).path == "/_faults":
                self._control()
            else:
                self._proxy()

        do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = _handle

    return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=4567)
    parser.add_argument("--target", default="http://127.0.0.1:4566")
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), handler_for(args.target.rstrip("/"), Faults()))
    print(f"[s3-faults] forwarding http://127.0.0.1:{args.port} to {args.target}; switch with "
          f"curl -X POST 'http://127.0.0.1:{args.port}/_faults?mode=outage&seconds=90'", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
