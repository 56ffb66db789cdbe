#!/usr/bin/env bash
# The herd after an outage (docs/scale.md): the real local system (infra/local/run.sh, the built function
# artifacts, LocalStack's S3 behind the fault-proxy module's proxy), S3 down, N pastes created through the API and
# held by the open breaker, S3 back; measures the creates during the outage against creates with S3 healthy, the
# release on close (what each invocation released, when it finished, what it left held) and the drain until every
# paste is PROCESSED. Prints a Markdown table; the per-second timeline goes to
# tools/benchmarks/harness/target/herd-<run>/timeline.csv.
# Not part of the test command. Needs `make up` and the built artifacts (`mvn -DskipTests package`); uses its
# own database, queues and bucket (herd_<run>, herd-<run>-uploads, herd-<run>-pastes, or under --prefix), removed
# after a run that drained (kept with --keep, or when not every paste was stored).
#
# Usage: tools/benchmarks/herd.sh [--pastes 5000] [--outage-seconds 0] [--port 0] [--via api|queue] [--creators 1]
#                                 [--baseline 200] [--prefix herd] [--queue-engine localstack|elasticmq]
#                                 [--elasticmq-port 0] [--env-vars FILE]... [--instances 1] [--keep]
#   --via api (default) posts each paste to the local API, --creators clients at once, and times each create:
#     the N held ones, then, once every one is stored, --baseline more with S3 healthy. One creator by default:
#     the run command runs one environment of the create function (Lambda runs one per concurrent request), so
#     more creators only wait in front of it, at the same creates a second, and their times are that wait's;
#     --instances N lets it start up to N environments of each function, as Lambda scales (--creators 8
#     --instances 8: each creator's creates in an environment of their own).
#     --via queue creates each paste as the create function does (its row, then its job on the queue): faster,
#     and no create is timed.
#   --outage-seconds N keeps S3 down until N s after the outage began (at least until every job is held).
#   --queue-engine elasticmq runs SQS on an ElasticMQ started for the run (on --elasticmq-port, else a free port)
#     with the run's queues as LocalStack has them, instead of LocalStack's SQS; S3 stays LocalStack's. The
#     engines' behaviours compared: tools/benchmarks/queue-semantics.sh (docs/benchmarks.md, "Queue engine").
#   --env-vars FILE gives the functions settings of the run's own (the format of `sam local invoke --env-vars`,
#     on top of the run command's), e.g. one setting against its default, same machine and build:
#     --env-vars <(echo '{"Parameters": {"PASTEBIN_DELIVERY_HELD_DELIVERY_RATE": "30"}}')
# Environment: BENCH_SKIP_BUILD=1 reuses the built harness classes.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/benchmarks/lib.sh herd.sh

bench_jdk
bench_postgres
[[ -f upload-function/target/function.zip ]] \
  || { echo "herd.sh: the function artifacts are not built; run 'mvn -DskipTests package' first" >&2; exit 1; }

bench_harness
if [[ " $* " == *" elasticmq "* ]]; then bench_elasticmq; fi

exec "$JAVA_HOME/bin/java" -cp "tools/benchmarks/harness/target/classes:tools/benchmarks/harness/target/harness-lib/*" \
  dev.pastebin.benchmarks.herd.HerdRun --repo . "$@"
