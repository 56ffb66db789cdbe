#!/usr/bin/env bash
# The shared breaker at fleet concurrency (docs/scale.md): core's real breaker and its PostgreSQL row under
# 50, 200 and 500 concurrent callers, healthy, flaky, during an outage and its recovery. Prints a Markdown table.
# Not part of the test command. Needs the local PostgreSQL (`make up`); uses its own database,
# pastebin_scale_breaker, dropped and recreated.
#
# Usage: tools/benchmarks/scale.sh [--callers 50,200,500] [--seconds 8] [--connections 40]
# Environment: BENCH_SKIP_BUILD=1 reuses the built classes; PGHOST, PGPORT, PGUSER, PGPASSWORD select the server.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/benchmarks/lib.sh scale.sh

bench_jdk
bench_postgres

bench_harness

exec "$JAVA_HOME/bin/java" -cp "tools/benchmarks/harness/target/classes:tools/benchmarks/harness/target/harness-lib/*" \
  dev.pastebin.benchmarks.scale.BreakerLoad "$@"
