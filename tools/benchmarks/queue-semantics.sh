#!/usr/bin/env bash
# The SQS behaviours the design relies on (visibility changes, partial batches, redrive, message and system
# attributes, DelaySeconds, long polls), observed on LocalStack and on ElasticMQ (started and stopped here),
# printed as a Markdown table of behaviour x engine: the check behind herd.sh's --queue-engine elasticmq
# (docs/benchmarks.md, "Queue engine", says which differences matter). Not part of the test command.
# Needs LocalStack (`make up`); ElasticMQ's class path comes from Maven (tools/benchmarks/elasticmq/pom.xml).
#
# Usage: tools/benchmarks/queue-semantics.sh [--engines localstack,elasticmq] [--elasticmq-port 0]
# Environment: BENCH_SKIP_BUILD=1 reuses the built harness classes.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/benchmarks/lib.sh queue-semantics.sh

bench_jdk
bench_harness
bench_elasticmq

exec "$JAVA_HOME/bin/java" -cp "tools/benchmarks/harness/target/classes:tools/benchmarks/harness/target/harness-lib/*" \
  dev.pastebin.benchmarks.queues.QueueSemantics --repo . "$@"
