#!/usr/bin/env bash
# The herd after an outage (docs/scale.md): the real local system (infra/local/run.sh, the built function
# artifacts, LocalStack's S3 behind the fault-proxy module's proxy), S3 down, N pastes created through the API and
# held by the open breaker, S3 back; measures the release until every paste is PROCESSED. Prints a Markdown
# table; the per-second timeline goes to tools/benchmarks/harness/target/herd-<run>/timeline.csv.
# Not part of the test command. Needs `make up` and the built artifacts (`mvn -DskipTests package`); uses its
# own database, queues and bucket (herd_<run>, herd-<run>-uploads, herd-<run>-pastes), removed after a run that
# drained (kept with --keep, or when not every paste was stored).
#
# Usage: tools/benchmarks/herd.sh [--pastes 5000] [--outage-seconds 0] [--port 0] [--via queue|api] [--creators 8] [--keep]
#   --via queue (default) creates each paste as the create function does (its row, then its job on the queue);
#     --via api posts it to the local API (a few a second on a busy machine).
#   --outage-seconds N keeps S3 down until N s after the outage began (at least until every job is held).
# Environment: BENCH_SKIP_BUILD=1 reuses the built harness classes.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/benchmarks/lib.sh herd.sh

bench_jdk
bench_postgres
[[ -f upload-function/target/function.zip ]] \
  || { echo "herd.sh: the function artifacts are not built; run 'mvn -DskipTests package' first" >&2; exit 1; }

bench_harness

exec "$JAVA_HOME/bin/java" -cp "tools/benchmarks/harness/target/classes:tools/benchmarks/harness/target/harness-lib/*" \
  dev.pastebin.benchmarks.herd.HerdRun --repo . "$@"
