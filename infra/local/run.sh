#!/usr/bin/env bash
# Usage: infra/local/run.sh [--port 3000] [--host 127.0.0.1] [--sweep-interval 60s] [--instances 1] [--lazy]
#                           [--s3-faults] [--no-build] [any other flag of the local runtime, see tools/local-runtime/README.md]
#   --sweep-interval D is the runtime's --schedule-interval D: the sweeper is the template's only schedule.
#   --s3-faults puts the fault proxy (module fault-proxy, on 127.0.0.1:4567; PASTEBIN_S3_FAULTS_PORT) between the
#     functions and LocalStack's S3, so that S3 outages, throttling and flakiness can be switched on by hand:
#       curl -X POST 'http://127.0.0.1:4567/_faults?mode=outage&seconds=90'  # 500 InternalError on object PUTs
#       (modes: outage, throttle = 503 SlowDown, flaky&rate=0.5, down = every connection dropped, off);
#       curl http://127.0.0.1:4567/_faults/puts (PUTs per key), /_faults/requests (requests per S3 operation).
#   --no-build skips the build when the artifacts are already built (the chaos suite runs it so, after its own build).
#   -- THE run command (`make run`): services up, build, run the whole system on this machine.
#
# Starts (or reuses) PostgreSQL and LocalStack, creates the queue, dead-letter queue and bucket and applies
# the migrations (infra/local/up), builds every module without tests, then runs the local runtime
# (module local-runtime) on infra/template.yaml: it serves the HttpApi routes on http://127.0.0.1:3000,
# feeds the upload queue to the upload function and fires the sweeper's schedule, each function in its own
# JVM started from its built Lambda artifact. The functions' metric lines (Embedded Metric Format) are charted
# at http://127.0.0.1:3000/_local/dashboard, in the panels of infra/local/dashboard.json. Ctrl-C stops the
# runtime and its function processes, then the services this run itself started.
set -euo pipefail
PASTEBIN_LOG_TAG=run
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

find_java21

before="$(started_markers)"
java_pid=""
faults_pid=""
cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    if [[ -n "$java_pid" ]] && kill -0 "$java_pid" 2>/dev/null; then
        kill -TERM "$java_pid" 2>/dev/null || true
        wait "$java_pid" 2>/dev/null || true
    fi
    if [[ -n "$faults_pid" ]]; then
        kill -TERM "$faults_pid" 2>/dev/null || true
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
# The dashboard's panels are the application's: the runtime knows no metric names.
args=(--dashboard "$PASTEBIN_LOCAL_DIR/dashboard.json")
s3_faults=false
build=true
for arg in "$@"; do
    case "$arg" in
        --sweep-interval) args+=(--schedule-interval) ;;
        --sweep-interval=*) args+=("--schedule-interval=${arg#*=}") ;;
        --s3-faults) s3_faults=true ;;
        --no-build) build=false ;;
        *) args+=("$arg") ;;
    esac
done
if [[ "$build" == true ]]; then
    log "building: mvn -B -q ${PASTEBIN_MAVEN_ARGS:-}${PASTEBIN_MAVEN_ARGS:+ }-DskipTests package"
    # shellcheck disable=SC2086
    mvn -B -q ${PASTEBIN_MAVEN_ARGS:-} -DskipTests package || die "the build failed"
fi
if [[ "$s3_faults" == true ]]; then
    faults_port="${PASTEBIN_S3_FAULTS_PORT:-4567}"
    faults_jar="$(ls "$PASTEBIN_ROOT"/tools/fault-proxy/target/pastebin-fault-proxy-*.jar 2>/dev/null | grep -v -- '-tests\.jar$' | head -n1 || true)"
    [[ -n "$faults_jar" ]] || die "the fault proxy is not built; run: mvn -B -DskipTests package"
    "${JAVA_HOME:+$JAVA_HOME/bin/}java" -jar "$faults_jar" --service s3 --port "$faults_port" --target "$AWS_ENDPOINT_URL" &
    faults_pid=$!
    # Listening before any function starts, so that no first S3 call meets a closed port.
    for attempt in {1..100}; do
        http_get "http://127.0.0.1:$faults_port/_faults" >/dev/null && break
        kill -0 "$faults_pid" 2>/dev/null || die "the fault proxy did not start (port $faults_port taken?)"
        [[ "$attempt" -lt 100 ]] || die "the fault proxy did not answer on 127.0.0.1:$faults_port within 20 s"
        sleep 0.2
    done
    # The SDK's own per-service endpoint variable: the runtime passes AWS_ENDPOINT_URL* on to every function.
    export AWS_ENDPOINT_URL_S3="http://127.0.0.1:$faults_port"
fi
log "starting the local runtime (dev.pastebin.local.cli.LocalRuntime ${args[*]})"
# In the background so that the traps run on INT/TERM; the runtime gets a TERM and its shutdown hook
# stops the function processes.
local_runtime_java dev.pastebin.local.cli.LocalRuntime ${args[@]+"${args[@]}"} &
java_pid=$!
set +e
wait "$java_pid"
status=$?
set -e
java_pid=""
exit "$status"
