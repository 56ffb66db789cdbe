#!/usr/bin/env python3
"""Where a command's CPU goes: runs it, samples every process on the machine once a second, prints a table.

Usage: tools/benchmarks/cpu-by-process.py [--interval 1] [--bucket 30] [--json FILE] -- COMMAND [ARG...]
e.g.   tools/benchmarks/cpu-by-process.py -- make test

On two cores `make test` is bound by CPU (docs/testing.md, "Where the minutes go"): a minute less needs some 120 s of
CPU less, so a cut has to start from where the CPU goes. This prints, once the command ends (its exit status is
this script's):
  - the machine's busy and idle core-seconds over the run, from /proc/stat (every process, short-lived ones too);
  - the CPU of each kind of process: Maven's own JVM (compiling, formatting, packaging), the test JVMs of each module,
    the local runtimes' JVMs and the function JVMs they start (by function, from AWS_LAMBDA_FUNCTION_NAME), by the
    module whose tests started them, LocalStack, PostgreSQL, Chromium and each Python tool;
  - a timeline: the machine's busy share in each --bucket seconds and the modules whose test JVMs were alive then,
    which shows where the machine waits (idle cores while tests wait out real time).
A process is sampled each --interval seconds, so one that ends between two samples loses at most that much CPU and
one that lives less than that may not be seen at all: the difference shows as "not attributed". Linux only; the
standard library only. Not part of the test command.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import threading
import time

TICKS = os.sysconf("SC_CLK_TCK")


def machine_ticks():
    """(busy, idle) jiffies of all cores since boot."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return sum(fields[:8]) - idle, idle


def read(path, mode="r"):
    try:
        with open(path, mode) as f:
            return f.read()
    except OSError:
        return None


class Sampler(threading.Thread):
    def __init__(self, interval, root):
        super().__init__(daemon=True)
        self.interval, self.root = interval, root
        self.stopped = threading.Event()
        self.processes = {}  # (pid, starttime) -> record
        self.machine = []  # (seconds since start, busy jiffies, idle jiffies)
        self.start_time = time.monotonic()

    def run(self):
        while True:
            now = time.monotonic() - self.start_time
            self.machine.append((now, *machine_ticks()))
            for pid in filter(str.isdigit, os.listdir("/proc")):
                self.sample(pid, now)
            if self.stopped.wait(self.interval):
                self.machine.append((time.monotonic() - self.start_time, *machine_ticks()))
                return

    def sample(self, pid, now):
        stat = read(f"/proc/{pid}/stat")
        if stat is None:
            return
        fields = stat[stat.rfind(")") + 2 :].split()
        cpu = (int(fields[11]) + int(fields[12])) / TICKS
        key = (pid, fields[19])
        record = self.processes.get(key)
        if record is None:
            cmdline = read(f"/proc/{pid}/cmdline", "rb")
            if not cmdline:  # a kernel thread, or gone already
                return
            environ = read(f"/proc/{pid}/environ", "rb") or b""
            record = {
                "pid": pid,
                "ppid": fields[1],
                "kind": kind_of(cmdline.split(b"\0"), environ, self.root),
                # a process that was running when sampling began counts from then on
                "cpu_before": cpu if now < self.interval / 2 else 0.0,
                "first": now,
            }
            self.processes[key] = record
        record["cpu"], record["last"] = cpu, now


def kind_of(argv, environ, root):
    args = [a.decode(errors="replace") for a in argv if a]
    line = " ".join(args)
    program = os.path.basename(args[0]) if args else "?"
    if program == "java":
        function = re.search(rb"(?:^|\0)AWS_LAMBDA_FUNCTION_NAME=([^\0]+)", environ)
        if function:
            return "function JVM: " + function.group(1).decode(errors="replace")
        if "org.codehaus.plexus.classworlds" in line:
            return "Maven's own JVM"
        booter = re.search(r"(?:^|/)([\w.-]+(?:/[\w.-]+)?)/target/(?:surefire|failsafe)", line.replace(root + "/", "/"))
        if "surefirebooter" in line and booter:
            return "test JVM: " + booter.group(1).lstrip("/")
        if "dev.pastebin.local.cli." in line:
            return "local runtime JVM"
        return "other JVM"
    if "localstack" in line:
        return "LocalStack"
    if line.startswith("postgres") or "/postgresql/" in args[0]:  # a backend renames itself "postgres: 15/main: ..."
        return "PostgreSQL"
    if "chrom" in program:
        return "Chromium"
    if program.startswith("python"):
        script = next((os.path.basename(a) for a in args[1:] if not a.startswith("-")), "python")
        return "Python: " + script
    return program


def owner(record, by_pid):
    """The module whose test JVM (or the script) started a local runtime or a function JVM."""
    seen = 0
    parent = by_pid.get(record["ppid"])
    while parent is not None and seen < 10:
        if parent["kind"].startswith("test JVM: "):
            return parent["kind"][len("test JVM: ") :]
        parent = by_pid.get(parent["ppid"])
        seen += 1
    return "a script"


def report(sampler, wall, bucket):
    machine = sampler.machine
    busy = (machine[-1][1] - machine[0][1]) / TICKS
    idle = (machine[-1][2] - machine[0][2]) / TICKS
    records = list(sampler.processes.values())
    by_pid = {r["pid"]: r for r in records}
    for r in records:
        r["used"] = max(0.0, r["cpu"] - r["cpu_before"])
    kinds = collections.Counter()
    counts = collections.Counter()
    for r in records:
        kind = r["kind"]
        if kind.startswith("function JVM") or kind == "local runtime JVM":
            kind += " (started by " + owner(r, by_pid) + ")"
        kinds[kind] += r["used"]
        counts[kind] += 1
    attributed = sum(kinds.values())
    print(f"\nwall {wall:.1f} s; the machine busy {busy:.0f} core-seconds, idle {idle:.0f}; "
          f"attributed to a process below {attributed:.0f} s\n")
    print("| CPU s | processes | what |\n|---:|---:|---|")
    for kind, used in kinds.most_common():
        if used >= 0.5:
            print(f"| {used:.1f} | {counts[kind]} | {kind} |")
    print(f"| {max(0.0, busy - attributed):.1f} | | not attributed (processes shorter than a sample, the kernel) |")
    print(f"\n| from | busy | test JVMs alive |\n|---:|---:|---|")
    cores = os.cpu_count() or 1
    for start in range(0, int(wall) + 1, bucket):
        inside = [m for m in machine if start <= m[0] <= start + bucket]
        if len(inside) < 2:
            continue
        share = (inside[-1][1] - inside[0][1]) / TICKS / ((inside[-1][0] - inside[0][0]) * cores)
        alive = sorted({r["kind"][len("test JVM: ") :] for r in records
                        if r["kind"].startswith("test JVM: ") and r["first"] <= start + bucket and r["last"] >= start})
        print(f"| {start} s | {share:.0%} | {' '.join(alive)} |")
    return records


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--interval", type=float, default=1.0, help="seconds between samples (1)")
    parser.add_argument("--bucket", type=int, default=30, help="seconds per timeline row (30)")
    parser.add_argument("--json", help="also write every process's record to this file")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND [ARG...]")
    options = parser.parse_args()
    command = options.command[1:] if options.command[:1] == ["--"] else options.command
    if not command:
        parser.error("no command: cpu-by-process.py -- make test")
    sampler = Sampler(options.interval, os.getcwd())
    sampler.start()
    status = subprocess.call(command)
    wall = time.monotonic() - sampler.start_time
    sampler.stopped.set()
    sampler.join()
    records = report(sampler, wall, options.bucket)
    if options.json:
        with open(options.json, "w") as f:
            json.dump(records, f)
    return status


if __name__ == "__main__":
    sys.exit(main())
