#!/usr/bin/env bash
# Fair to every client (docs/scale.md, "One client's backlog"): the real local system with CreateAccess=api-key
# (infra/local/run.sh, the built function artifacts, LocalStack's S3 behind the fault-proxy module's proxy); nine
# light clients, each with its own API key, create pastes through the API alone, then again beside one heavy client
# at 10x their rate, with an S3 outage in the middle of each phase. Prints each client's time to readable (its row's
# insert to its PROCESSED) p50 / p99 alone and beside the heavy client, and the light clients' p99 beside ÷ alone.
# Not part of the test command. Needs `make up` and the built artifacts (`mvn -DskipTests package`); uses its own
# database, queues and bucket (fair_<run>, fair-<run>-uploads, ...), removed after a run that drained (kept with
# --keep).
#
# Usage: tools/benchmarks/fair.sh [--light 9] [--rate 1] [--heavy-factor 10] [--seconds 60] [--outage-from 20]
#                                 [--outage-seconds 20] [--warmup 10] [--fairness-delay] [--instances 1] [--port 0]
#                                 [--prefix fair] [--keep]
#   --outage-seconds 0 keeps S3 healthy throughout.
#   --instances N lets the run command start up to N environments of each function, as Lambda starts one per
#     concurrent request; with 1 (the run command's default) a burst of creates waits in front of one.
# Environment: BENCH_SKIP_BUILD=1 reuses the built harness classes.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/benchmarks/lib.sh fair.sh

bench_jdk
bench_postgres
[[ -f upload-function/target/function.zip ]] \
  || { echo "fair.sh: the function artifacts are not built; run 'mvn -DskipTests package' first" >&2; exit 1; }

bench_harness

exec "$JAVA_HOME/bin/java" -cp "tools/benchmarks/harness/target/classes:tools/benchmarks/harness/target/harness-lib/*" \
  dev.pastebin.benchmarks.herd.FairRun --repo . "$@"
