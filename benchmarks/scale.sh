#!/usr/bin/env bash
# The shared breaker at fleet concurrency (docs/scale.md): core's real breaker and its PostgreSQL row under
# 50, 200 and 500 concurrent callers, healthy, flaky, during an outage and its recovery. Prints a Markdown table.
# Not part of the test command. Needs the local PostgreSQL (`make up`); uses its own database,
# pastebin_scale_breaker, dropped and recreated.
#
# Usage: benchmarks/scale.sh [--callers 50,200,500] [--seconds 8] [--connections 40]
# Environment: BENCH_SKIP_BUILD=1 reuses the built classes; PGHOST, PGPORT, PGUSER, PGPASSWORD select the server.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ -z "${JAVA_HOME:-}" || ! -x "$JAVA_HOME/bin/java" ]]; then
  for candidate in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-21-jdk-amd64 /usr/lib/jvm/java-21-openjdk-amd64; do
    if [[ -x "$candidate/bin/java" ]]; then export JAVA_HOME="$candidate"; break; fi
  done
fi
[[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]] || { echo "scale.sh: needs a JDK 21+ (set JAVA_HOME)" >&2; exit 1; }
pg_isready -q -h "${PGHOST:-127.0.0.1}" -p "${PGPORT:-5432}" \
  || { echo "scale.sh: PostgreSQL is not answering on ${PGHOST:-127.0.0.1}:${PGPORT:-5432}; start it with 'make up'" >&2; exit 1; }

if [[ "${BENCH_SKIP_BUILD:-0}" != 1 ]]; then
  echo "scale.sh: building core and benchmarks/harness" >&2
  mvn -B -q -Pbenchmarks -pl benchmarks/harness -am package -DskipTests >&2
fi

exec "$JAVA_HOME/bin/java" -cp "benchmarks/harness/target/classes:benchmarks/harness/target/harness-lib/*" \
  dev.pastebin.benchmarks.scale.BreakerLoad --repo . "$@"
