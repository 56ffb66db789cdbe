#!/usr/bin/env python3
"""A fault switch in front of one LocalStack service (S3 or SQS), for watching retries, the circuit breaker
and the chaos suite's faults.

Usage: infra/local/fault_proxy.py [--service s3|sqs] [--port 4567] [--target http://127.0.0.1:4566]
  (make run ARGS="--s3-faults" starts it for S3 and points the functions' S3 endpoint at it; the chaos suite
  starts one for S3 and one for SQS; --port 0 takes a free port, printed on the first line)

Every request is forwarded to the target unchanged, except while a fault is on:

  curl -X POST 'http://127.0.0.1:4567/_faults?mode=outage&seconds=90'   # 500 InternalError (SQS: 503 ServiceUnavailable)
  curl -X POST 'http://127.0.0.1:4567/_faults?mode=throttle&seconds=60'  # 503 SlowDown (SQS: 400 ThrottlingException)
  curl -X POST 'http://127.0.0.1:4567/_faults?mode=flaky&rate=0.5'       # that share of faulted requests: 500
  curl -X POST 'http://127.0.0.1:4567/_faults?mode=down&seconds=180'     # every connection reset, nothing answered
  curl -X POST 'http://127.0.0.1:4567/_faults?mode=off'
  curl http://127.0.0.1:4567/_faults                                      # the current fault, as JSON
  curl http://127.0.0.1:4567/_faults/puts                                 # S3: {key: [PUT attempts, faulted]}

For S3 the answered faults hit object PUTs only (the upload path; reads, lists and deletes pass); `down`
hits every request. For SQS every fault hits every request. A fault with `seconds` switches itself off after
that long. Object PUTs are counted per key, faulted or not, so that a caller can tell how many S3 attempts a
paste really had. Only the standard library; loopback only.
"""
import argparse
import json
import random
import socket
import struct
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODES = {"off", "outage", "throttle", "flaky", "down"}
# Headers the proxy sets itself or that describe the hop, not the request.
HOP_HEADERS = {"host", "content-length", "connection", "keep-alive", "transfer-encoding", "upgrade", "expect", "date", "server"}


class S3:
    name = "s3"

    @staticmethod
    def answered_fault_applies(method, path):
        # An object PUT has a key after the bucket (path-style: /bucket/key).
        return method == "PUT" and path.strip("/").count("/") >= 1

    @staticmethod
    def error(mode):
        status, code = (503, "SlowDown") if mode == "throttle" else (500, "InternalError")
        body = (f'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>{code}</Code>'
                f"<Message>injected by infra/local/fault_proxy.py</Message><RequestId>fault-proxy</RequestId></Error>")
        return status, body.encode(), "application/xml", {}


class Sqs:
    name = "sqs"

    @staticmethod
    def answered_fault_applies(method, path):
        return True

    @staticmethod
    def error(mode):
        # The AWS JSON protocol's error shape; x-amzn-query-error carries the code for query-compatible clients.
        status, code = (400, "ThrottlingException") if mode == "throttle" else (503, "ServiceUnavailable")
        body = json.dumps({"__type": f"com.amazonaws.sqs#{code}", "message": "injected by infra/local/fault_proxy.py"})
        return status, body.encode(), "application/x-amz-json-1.0", {"x-amzn-query-error": f"{code};Receiver"}


SERVICES = {"s3": S3, "sqs": Sqs}


class Faults:
    """The current fault, switched over HTTP, and the count of object PUTs per key; thread-safe."""

    def __init__(self):
        self._lock = threading.Lock()
        self._mode, self._rate, self._until = "off", 0.0, None
        self.faulted = 0
        self._puts = {}  # key -> [attempts, faulted]

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
            return {"mode": self._mode, "rate": self._rate, "secondsLeft": remaining, "faulted": self.faulted}

    def puts(self):
        with self._lock:
            return dict(self._puts)

    def decide(self, answered_fault_applies, put_key):
        """'down', 'outage', 'throttle' or None (forward) for one request; counts what it decides."""
        with self._lock:
            self._expire()
            fault = None
            if self._mode == "down":
                fault = "down"
            elif answered_fault_applies:
                if self._mode in ("outage", "throttle"):
                    fault = self._mode
                elif self._mode == "flaky" and random.random() < self._rate:
                    fault = "outage"
            self.faulted += fault is not None
            if put_key is not None:
                counts = self._puts.setdefault(put_key, [0, 0])
                counts[0] += 1
                counts[1] += fault is not None
            return fault


def handler_for(service, target, faults):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt, *args):  # one line per switch is enough; requests are not logged
            pass

        def _reply(self, status, body, content_type, headers=None):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def _control(self, path):
            if path == "/_faults/puts":
                return self._reply(200, json.dumps(faults.puts()).encode() + b"\n", "application/json")
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
                print(f"[{service.name}-faults] {mode}" + (f" rate={rate}" if mode == "flaky" else "")
                      + (f" for {seconds:g} s" if seconds else ""), flush=True)
            self._reply(200, json.dumps(faults.state()).encode() + b"\n", "application/json")

        def _reset_connection(self):
            # SO_LINGER 0: close() sends a TCP RST, what a client sees when nothing listens any more.
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
            self.connection.close()

        def _proxy(self, path):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            put_key = path.lstrip("/") if service is S3 and S3.answered_fault_applies(self.command, path) else None
            fault = faults.decide(service.answered_fault_applies(self.command, path), put_key)
            if fault == "down":
                return self._reset_connection()
            if fault:
                return self._reply(*service.error(fault))
            request = urllib.request.Request(target + self.path, data=body, method=self.command)
            for name, value in self.headers.items():
                if name.lower() not in HOP_HEADERS:
                    request.add_header(name, value)
            try:
                with urllib.request.urlopen(request, timeout=60) as response:
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
            path = urllib.parse.urlsplit(self.path).path
            if path.startswith("/_faults"):
                self._control(path)
            else:
                self._proxy(path)

        do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = _handle

    return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--service", choices=sorted(SERVICES), default="s3")
    parser.add_argument("--port", type=int, default=4567)
    parser.add_argument("--target", default="http://127.0.0.1:4566")
    args = parser.parse_args()
    service = SERVICES[args.service]
    server = ThreadingHTTPServer(("127.0.0.1", args.port), handler_for(service, args.target.rstrip("/"), Faults()))
    server.daemon_threads = True
    port = server.server_address[1]
    print(f"[{service.name}-faults] forwarding http://127.0.0.1:{port} to {args.target}; switch with "
          f"curl -X POST 'http://127.0.0.1:{port}/_faults?mode=outage&seconds=90'", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
