#!/usr/bin/env bash
# Time to readable from outside (docs/benchmarks.md): through a running local system's HTTP API (`make run`), one
# paste at a time, the time from the create's 201 to the first 200 of GET /pastes/{code}, polled every 5 ms over
# one kept-alive connection. Prints a Markdown row: p50, p90, p99 and max in ms, the mean number of 202s seen.
# Not part of the test command. run.sh's "readable" section measures the same path without the HTTP layer.
#
# Usage: tools/benchmarks/readable.sh [--api http://127.0.0.1:3000] [--pastes 200] [--warmup 20]
set -euo pipefail

api=http://127.0.0.1:3000
pastes=200
warmup=20
while [[ $# -gt 0 ]]; do
    case "$1" in
        --api) api="$2"; shift 2 ;;
        --pastes) pastes="$2"; shift 2 ;;
        --warmup) warmup="$2"; shift 2 ;;
        *) echo "readable.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done

exec python3 - "$api" "$pastes" "$warmup" <<'PY'
import http.client, json, math, sys, time, urllib.parse

api, pastes, warmup = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
url = urllib.parse.urlsplit(api)
connection = http.client.HTTPConnection(url.hostname, url.port or 80, timeout=60)

def call(method, path, body=None, headers=None):
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    return response.status, response.read()

def percentile(sorted_ms, p):
    rank = math.ceil(p / 100 * len(sorted_ms))
    return sorted_ms[max(0, min(len(sorted_ms) - 1, rank - 1))]

times, waits = [], 0
for i in range(-warmup, pastes):
    status, body = call("POST", "/pastes", f"readable {i} {time.time_ns()}".encode(), {"Content-Type": "text/plain"})
    answered = time.perf_counter()
    if status != 201:
        sys.exit(f"readable.sh: create answered {status}: {body[:200]!r}")
    code = json.loads(body)["shortCode"]
    seen = 0
    while True:
        status, _ = call("GET", f"/pastes/{code}")
        if status == 200:
            readable = time.perf_counter()
            break
        if status != 202 or time.perf_counter() - answered > 60:
            sys.exit(f"readable.sh: read of {code} answered {status}")
        seen += 1
        time.sleep(0.005)
    if i >= 0:
        times.append((readable - answered) * 1000)
        waits += seen

times.sort()
print("| time to readable through the API | p50 ms | p90 ms | p99 ms | max ms | 202 answers before the 200 (mean) | pastes |")
print("|---|---:|---:|---:|---:|---:|---:|")
print(f"| {api} | {percentile(times, 50):.0f} | {percentile(times, 90):.0f} | {percentile(times, 99):.0f} "
      f"| {times[-1]:.0f} | {waits / len(times):.1f} | {len(times)} |")
PY
