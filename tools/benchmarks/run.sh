#!/usr/bin/env bash
# Benchmarks: cold start, warm latency, upload throughput, artifact sizes and knobs, for the project's
# functions and the framework-free baseline. Prints Markdown tables and writes tools/benchmarks/target/results-*.md.
# Not part of the test command. See docs/benchmarks.md.
#
# Usage: tools/benchmarks/run.sh [--runs 10] [--knob-runs 5] [--warm 500] [--warmup 50] [--backlog 3000]
#                          [--sections artifacts,cold,primed,warm,readable,gaps,upload,knobs] [--functions create,read,upload,sweeper]
#                          [--memory MB] [--handler fn=Handler,...] [--knobs group,...]
#                          [--windows 1,0] [--readable-pastes 40] [--gap-jobs 5] [--jvms 21=<java>,25=<java>]
#   The runtimes section (Java 21 vs Java 25) runs only with --jvms; without it, it says it was not measured.
# Environment: BENCH_SKIP_BUILD=1 reuses the built artifacts; BENCH_DATABASE (default pastebin_bench) is
# dropped and recreated; PostgreSQL and LocalStack must be up (`make up`).
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/benchmarks/lib.sh run.sh

bench_jdk
echo "run.sh: JDK $JAVA_HOME" >&2

bench_postgres
curl -sf "${AWS_ENDPOINT_URL:-http://127.0.0.1:4566}/_localstack/health" >/dev/null \
  || { echo "run.sh: LocalStack is not answering on ${AWS_ENDPOINT_URL:-http://127.0.0.1:4566}; start it with 'make up'" >&2; exit 1; }

if [[ "${BENCH_SKIP_BUILD:-0}" != 1 ]]; then
  modules=core,tools/benchmarks/baseline,tools/benchmarks/variants,tools/benchmarks/priming,tools/benchmarks/harness
  for m in create-function read-function upload-function sweeper-function; do
    [[ -d "$m/src/main" ]] && modules="$modules,$m"
  done
  echo "run.sh: building $modules" >&2
  # clean: copy-dependencies never removes jars a dependency change left behind in target/lambda/lib.
  mvn -B -q -Pbenchmarks -pl "$modules" -am clean package -DskipTests >&2
fi

exec "$JAVA_HOME/bin/java" -cp "tools/benchmarks/harness/target/classes:tools/benchmarks/harness/target/harness-lib/*" \
  dev.pastebin.benchmarks.harness.Bench --repo . --java "$JAVA_HOME/bin/java" "$@"
