#!/usr/bin/env bash
# Usage: infra/local/chaos.sh [--schedule full|short] [--report FILE] [--api-port 3101] [--db-port 5433] [--seed N]
#   -- the chaos suite (`make chaos`): the whole local system under load while faults happen on a schedule.
#
# Builds every module without tests, then runs dev.pastebin.chaos.ChaosSuite (module chaos/), which starts
# its own PostgreSQL cluster on port 5433 (PASTEBIN_CHAOS_DB_PORT; it stops and starts that server, never
# the shared one), a fault proxy (module fault-proxy, in the suite's JVM) in front of LocalStack's S3 and one
# in front of its SQS, and the README's run command (infra/local/run.sh --no-build) with the functions'
# endpoints set to the proxies; then it creates pastes while the faults happen, checks every paste and
# prints one table. It is a measurement and runs strict (Strictness.STRICT): a late paste or a 503 outside a
# fault window fails it too (the test command's ChaosSuiteIT runs Strictness.CORRECTNESS). Without flags: the full schedule, the API on port 3101 (the dashboard at
# http://127.0.0.1:3101/_local/dashboard while it runs), and the table written to docs/reliability.md.
# Starts LocalStack when it is not running (and stops it at the end).
set -euo pipefail
PASTEBIN_LOG_TAG=chaos
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

find_java21
cd "$PASTEBIN_ROOT"
before="$(started_markers)"
trap 'stop_started_since "$before"' EXIT
"$PASTEBIN_LOCAL_DIR/localstack.sh" start

log "building: mvn -B -q ${PASTEBIN_MAVEN_ARGS:-}${PASTEBIN_MAVEN_ARGS:+ }-DskipTests package"
# shellcheck disable=SC2086
mvn -B -q ${PASTEBIN_MAVEN_ARGS:-} -DskipTests package || die "the build failed"

jar="$(ls tools/chaos/target/pastebin-chaos-*.jar | head -n1)"
args=("$@")
[[ " $* " == *" --schedule "* ]] || args+=(--schedule full)
[[ " $* " == *" --report "* || " $* " == *" --schedule short "* ]] || args+=(--report docs/reliability.md)
[[ " $* " == *" --api-port "* ]] || args+=(--api-port 3101)
"${JAVA_HOME:+$JAVA_HOME/bin/}java" -cp "$jar:$(cat tools/chaos/target/runtime-classpath.txt)" dev.pastebin.chaos.ChaosSuite "${args[@]}"
