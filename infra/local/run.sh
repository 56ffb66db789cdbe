#!/usr/bin/env bash
# Usage: infra/local/run.sh [runtime args...]  -- THE run command: services up, build, run the local runtime.
#
# Starts (or reuses) PostgreSQL and LocalStack, builds the modules without tests, and runs the local
# runtime (dev.pastebin.local.LocalRuntime in infra/) with the app environment. On exit (Ctrl-C, TERM or
# the runtime ending) it stops the services that this run itself started.
set -euo pipefail
PASTEBIN_LOG_TAG=run
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

find_java21

before="$(started_markers)"
java_pid=""
cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    if [[ -n "$java_pid" ]] && kill -0 "$java_pid" 2>/dev/null; then
        kill -TERM "$java_pid" 2>/dev/null || true
        wait "$java_pid" 2>/dev/null || true
    fi
    stop_started_since "$before"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$PASTEBIN_LOCAL_DIR/up" >/dev/null || die "could not start PostgreSQL and LocalStack (reason above)"
export_app_env

cd "$PASTEBIN_ROOT"
log "building: mvn -B -q ${PASTEBIN_MAVEN_ARGS:-}${PASTEBIN_MAVEN_ARGS:+ }-DskipTests package"
# shellcheck disable=SC2086
mvn -B -q ${PASTEBIN_MAVEN_ARGS:-} -DskipTests package || die "the build failed"

jar="infra/target/pastebin-infra-0.1.0-SNAPSHOT.jar"
[[ -f "$jar" ]] || die "$jar was not built: the local runtime (dev.pastebin.local.LocalRuntime) is not there yet"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
log "starting the local runtime: $java -cp $jar:infra/target/lib/* dev.pastebin.local.LocalRuntime $*"
# In the background so that the traps run on INT/TERM; the runtime gets a TERM and its shutdown hooks run.
"$java" -cp "$jar:infra/target/lib/*" dev.pastebin.local.LocalRuntime "$@" &
java_pid=$!
set +e
wait "$java_pid"
status=$?
set -e
java_pid=""
exit "$status"
