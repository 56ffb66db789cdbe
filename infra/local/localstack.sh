#!/usr/bin/env bash
# Usage: infra/local/localstack.sh start|stop|status|venv  -- LocalStack (S3, SQS, ...) on the host, no Docker.
#
# start:  reuses a LocalStack that already answers at $LOCALSTACK_ENDPOINT; otherwise installs
#         localstack-core[runtime]==$LOCALSTACK_VERSION into $PASTEBIN_CACHE_DIR/localstack-venv (once) and runs
#         `python -m localstack.runtime.main` in the background (log: .tools/logs/localstack.log), then
#         waits until /_localstack/health reports s3 and sqs as available/running and its init hooks
#         (infra/local/localstack-init: the 100 ms SQS re-queue pass) have run.
# stop:   stops LocalStack only if this project started it (pid file in .tools/run/).
# status: prints one line.
# venv:   only installs the venv (bootstrap.py and smoke.py run with its python).
set -euo pipefail
PASTEBIN_LOG_TAG=localstack
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PID_FILE="$PASTEBIN_RUN_DIR/localstack.pid"
LOG_FILE="$PASTEBIN_LOG_DIR/localstack.log"
PIP_LOG="$PASTEBIN_LOG_DIR/localstack-pip.log"
: "${LOCALSTACK_START_TIMEOUT:=90}"
# Services to start. All of these run in-process (no Docker); Lambda is deliberately absent: executing
# functions inside LocalStack needs Docker, the project's local runtime invokes the handlers itself.
: "${LOCALSTACK_SERVICES:=s3,sqs,sns,secretsmanager,cloudformation,events,iam,sts,logs,cloudwatch,ec2}"

our_pid() {
    # Prints the pid of the LocalStack this project started, if it is still alive.
    local pid
    [[ -f "$PID_FILE" ]] || return 1
    pid="$(cat "$PID_FILE")"
    # Alive and still LocalStack (a recycled pid must never be signalled).
    if [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null \
            && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 'localstack.runtime.main'; then
        echo "$pid"
    else
        return 1
    fi
}

# Prints "s3=<state> sqs=<state>" from the health endpoint, or fails when it does not answer.
health_summary() {
    local body
    body="$(http_get "${LOCALSTACK_ENDPOINT%/}/_localstack/health")" || return 1
    python3 -c '
import json, sys
d = json.loads(sys.argv[1])
s = d.get("services", {})
print(" ".join(k + "=" + s.get(k, "absent") for k in ("s3", "sqs")), "version=" + d.get("version", "?"))
' "$body"
}

healthy() {
    local h
    h="$(health_summary 2>/dev/null)" || return 1
    [[ "$h" =~ s3=(running|available)\ sqs=(running|available) ]]
}

# Prints a Python >= 3.12 to build the venv with. LocalStack 4.14.0 says Requires-Python >=3.10 but its
# code uses Python 3.12 syntax (PEP 695 generics in localstack/services/stores.py); its image runs 3.13.
# Order: $LOCALSTACK_PYTHON, python3.13/python3.12 on PATH or under pyenv, python3 if it is new enough.
find_localstack_python() {
    local c cands=()
    [[ -n "${LOCALSTACK_PYTHON:-}" ]] && cands+=("$LOCALSTACK_PYTHON")
    for c in python3.13 python3.12; do
        [[ -x "/usr/bin/$c" ]] && cands+=("/usr/bin/$c")
        [[ -x "/usr/local/bin/$c" ]] && cands+=("/usr/local/bin/$c")
    done
    local pyenv_root="${PYENV_ROOT:-${HOME:-/root}/.pyenv}"
    for c in $(ls -d "$pyenv_root"/versions/3.13.*/bin/python3 "$pyenv_root"/versions/3.12.*/bin/python3 2>/dev/null | sort -rV); do
        cands+=("$c")
    done
    for c in python3.13 python3.12 python3; do
        command -v "$c" >/dev/null 2>&1 && cands+=("$(command -v "$c")")
    done
    for c in "${cands[@]}"; do
        if "$c" -c 'import sys, venv; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1; then
            echo "$c"
            return 0
        fi
    done
    return 1
}

ensure_venv() {
    local py="$LOCALSTACK_VENV/bin/python" stamp="$LOCALSTACK_VENV/.installed-localstack-core-$LOCALSTACK_VERSION"
    local constraints="$PASTEBIN_LOCAL_DIR/localstack-constraints-$LOCALSTACK_VERSION.txt"
    with_install_lock "$LOCALSTACK_VENV"
    if [[ -x "$py" && -f "$stamp" ]] && "$py" -c 'import localstack' >/dev/null 2>&1; then
        release_install_lock
        return 0
    fi
    local base_py
    base_py="$(find_localstack_python)" \
        || die "LocalStack $LOCALSTACK_VERSION needs Python >= 3.12 (it uses 3.12 syntax) and none was found" \
               "(looked at \$LOCALSTACK_PYTHON, python3.13/python3.12, ~/.pyenv/versions/3.1[23].*, python3)." \
               "Install one (e.g. pyenv install 3.13) or set LOCALSTACK_PYTHON=/path/to/python3.12+."
    log "installing localstack-core[runtime]==$LOCALSTACK_VERSION into $LOCALSTACK_VENV with $base_py (once; ~1 min) ..."
    local t0=$SECONDS
    rm -rf "$LOCALSTACK_VENV"
    "$base_py" -m venv "$LOCALSTACK_VENV" >"$PIP_LOG" 2>&1 \
        || { tail -n 20 "$PIP_LOG" >&2; die "could not create a virtualenv at $LOCALSTACK_VENV with $base_py"; }
    local cargs=()
    if [[ -f "$constraints" ]]; then
        cargs=(-c "$constraints")
    else
        warn "no $constraints: pip resolves the newest dependencies, which LocalStack $LOCALSTACK_VERSION may not run with"
    fi
    # -q keeps pip quiet; its errors go to the log, whose tail is shown when the install fails.
    if ! "$LOCALSTACK_VENV/bin/python" -m pip install -q --disable-pip-version-check "${cargs[@]}" \
            "localstack-core[runtime]==$LOCALSTACK_VERSION" >>"$PIP_LOG" 2>&1; then
        tail -n 40 "$PIP_LOG" >&2
        die "pip install localstack-core[runtime]==$LOCALSTACK_VERSION failed (full log: $PIP_LOG)"
    fi
    # bootstrap.py needs boto3 and PyYAML; both come with localstack-core, checked here all the same.
    "$LOCALSTACK_VENV/bin/python" -c 'import boto3, yaml, moto, localstack.aws.components' >>"$PIP_LOG" 2>&1 \
        || { tail -n 20 "$PIP_LOG" >&2; die "the LocalStack venv is incomplete (full log: $PIP_LOG)"; }
    touch "$stamp"
    release_install_lock
    log "installed in $((SECONDS - t0)) s"
}

# The configured services that a running LocalStack does not serve (e.g. one started before a service
# was added to LOCALSTACK_SERVICES); empty when it serves them all.
missing_services() {
    curl -fsS --max-time 5 "$LOCALSTACK_ENDPOINT/_localstack/health" 2>/dev/null | python3 -c '
import json, sys
state = json.load(sys.stdin).get("services", {})
print(" ".join(s for s in sys.argv[1].split(",") if state.get(s) in (None, "disabled")))
' "$LOCALSTACK_SERVICES" 2>/dev/null || true
}

start() {
    if localstack_answers && our_pid >/dev/null && [[ -n "$(missing_services)" ]]; then
        log "the running LocalStack lacks: $(missing_services); restarting it with $LOCALSTACK_SERVICES"
        stop
    fi
    if localstack_answers; then
        if our_pid >/dev/null; then
            log "already running (started by this project, pid $(our_pid))"
        else
            log "a LocalStack already answers at $LOCALSTACK_ENDPOINT; reusing it"
        fi
        wait_healthy
        if ! curl -fsS --max-time 5 "$LOCALSTACK_ENDPOINT/_localstack/init/ready" 2>/dev/null | grep -q sqs_requeue_tick; then
            warn "this LocalStack runs without infra/local/localstack-init (not started by this script):" \
                 "its SQS redelivers up to 1 s after a visibility timeout ends, so retry gaps are about 1 s longer"
        fi
        return 0
    fi
    if pid="$(our_pid)"; then
        log "pid $pid from an earlier start is alive but does not answer yet; waiting for it"
        wait_healthy
        return 0
    fi
    ensure_venv
    local listen="${LOCALSTACK_ENDPOINT#*://}"
    listen="${listen%%/*}"
    mkdir -p "$PASTEBIN_TOOLS_DIR/localstack-fs"
    install_init_hooks
    log "starting LocalStack $LOCALSTACK_VERSION on $listen (services: $LOCALSTACK_SERVICES; log: $LOG_FILE)"
    : >"$LOG_FILE"
    (
        cd "$PASTEBIN_TOOLS_DIR"
        # Closed network, no Docker:
        #  LOCALSTACK_HOST        the host name put into URLs it returns (the default needs DNS).
        #  GATEWAY_LISTEN         where to listen. NB: 4.14's Twisted gateway uses only the port of an
        #                         IPv4 address and binds 0.0.0.0 (runtime/server/twisted.py, a TODO there).
        #  SQS_ENDPOINT_STRATEGY  path-style queue URLs: http://$LOCALSTACK_HOST/queue/<region>/<account>/<name>.
        #  DISABLE_EVENTS         no analytics calls.
        #  DNS_ADDRESS=0          no DNS server on port 53.
        #  SKIP_SSL_CERT_DOWNLOAD no download of its TLS certificate (it generates a self-signed one).
        #  OVERRIDE_IN_DOCKER=0   these machines are containers (/.dockerenv), so LocalStack would take
        #                         itself for its own image and use /tmp/localstack and /var/lib/localstack,
        #                         which every instance wipes at start; 0 makes it use FILESYSTEM_ROOT.
        #  FILESYSTEM_ROOT        its tmp/state/cache under .tools/ instead of inside site-packages.
        #  SERVICES / EAGER_SERVICE_LOADING  start only these, and at start instead of on first call.
        export LOCALSTACK_HOST \
               GATEWAY_LISTEN="${GATEWAY_LISTEN:-$listen}" \
               SQS_ENDPOINT_STRATEGY=path \
               DISABLE_EVENTS=1 \
               DNS_ADDRESS=0 \
               SKIP_SSL_CERT_DOWNLOAD=1 \
               OVERRIDE_IN_DOCKER=0 \
               FILESYSTEM_ROOT="$PASTEBIN_TOOLS_DIR/localstack-fs" \
               SERVICES="$LOCALSTACK_SERVICES" \
               EAGER_SERVICE_LOADING=1
        # Its own session, so that stop can end exactly the processes it started.
        exec setsid "$LOCALSTACK_VENV/bin/python" -m localstack.runtime.main >>"$LOG_FILE" 2>&1 </dev/null
    ) &
    echo $! >"$PID_FILE"
    touch "$(started_marker localstack)"
    wait_healthy
    wait_init_hooks
    log "init hooks done: $(grep -o 'SQS: expired visibility timeouts.*' "$LOG_FILE" | head -n 1)"
}

# The project's LocalStack init hooks (infra/local/localstack-init, e.g. the 100 ms SQS re-queue tick) go
# where LocalStack looks for them in host mode: $FILESYSTEM_ROOT/etc/localstack/init/<stage>.d.
INIT_HOOKS_SOURCE="$PASTEBIN_LOCAL_DIR/localstack-init"
INIT_HOOKS_TARGET="$PASTEBIN_TOOLS_DIR/localstack-fs/etc/localstack/init"
install_init_hooks() {
    rm -rf "$INIT_HOOKS_TARGET"
    mkdir -p "$INIT_HOOKS_TARGET"
    cp -R "$INIT_HOOKS_SOURCE/." "$INIT_HOOKS_TARGET/"
}

# Waits until the ready-stage init hooks have run; fails if one of them failed.
wait_init_hooks() {
    local deadline=$((SECONDS + 30)) state
    while :; do
        state="$(curl -fsS --max-time 5 "$LOCALSTACK_ENDPOINT/_localstack/init/ready" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
states = [s.get("state") for s in d.get("scripts", [])]
print("error" if "ERROR" in states else "done" if d.get("completed") else "running")
' 2>/dev/null || echo running)"
        case "$state" in
            done) return 0 ;;
            error)
                tail -n 40 "$LOG_FILE" >&2 || true
                die "a LocalStack init hook failed (infra/local/localstack-init; full log: $LOG_FILE)" ;;
        esac
        ((SECONDS < deadline)) || die "LocalStack's ready-stage init hooks did not finish within 30 s (log: $LOG_FILE)"
        sleep 0.5
    done
}

wait_healthy() {
    local deadline=$((SECONDS + LOCALSTACK_START_TIMEOUT)) t0=$SECONDS
    until healthy; do
        # (kill -0, not our_pid: right after the start the pid may still be the shell about to exec python)
        if [[ -f "$PID_FILE" ]] && ! kill -0 "$(cat "$PID_FILE")" 2>/dev/null && ! localstack_answers; then
            tail -n 40 "$LOG_FILE" >&2 || true
            rm -f "$PID_FILE" "$(started_marker localstack)"
            die "LocalStack exited during start (log above, full log: $LOG_FILE)"
        fi
        if ((SECONDS >= deadline)); then
            tail -n 40 "$LOG_FILE" >&2 || true
            die "LocalStack did not report s3 and sqs available within ${LOCALSTACK_START_TIMEOUT}s" \
                "(last health: $(health_summary 2>/dev/null || echo 'no answer'); full log: $LOG_FILE)"
        fi
        sleep 1
    done
    log "healthy after $((SECONDS - t0)) s: $(health_summary)"
}

stop() {
    local pid
    if ! pid="$(our_pid)"; then
        rm -f "$PID_FILE" "$(started_marker localstack)"
        if localstack_answers; then
            log "LocalStack at $LOCALSTACK_ENDPOINT was not started by this project; leaving it running"
        else
            log "not running"
        fi
        return 0
    fi
    log "stopping LocalStack (pid $pid)"
    # setsid made $pid the leader of its own process group: end that group only.
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    local i
    for i in $(seq 1 30); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.5
    done
    if kill -0 "$pid" 2>/dev/null; then
        warn "still alive after 15 s; sending KILL to its process group $pid"
        kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$PID_FILE" "$(started_marker localstack)"
    log "stopped"
}

status() {
    local h pid who="not started by this project"
    if pid="$(our_pid)"; then who="started by this project, pid $pid"; fi
    if h="$(health_summary 2>/dev/null)"; then
        echo "localstack: up at $LOCALSTACK_ENDPOINT ($h; $who)"
    elif [[ "$who" != "not started by this project" ]]; then
        echo "localstack: starting or unhealthy ($who; log $LOG_FILE)"
    else
        echo "localstack: down"
    fi
}

case "${1:-}" in
    start) start ;;
    venv) ensure_venv ;;  # only make sure the venv (boto3, PyYAML for bootstrap.py) exists
    stop) stop ;;
    status) status ;;
    *) echo "usage: $0 start|stop|status|venv" >&2; exit 2 ;;
esac
