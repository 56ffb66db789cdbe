# Usage: source "$(dirname "$0")/lib.sh"  -- shared settings and helpers for the infra/local scripts.
#
# Every setting below can be overridden from the environment. Logs, pid files and LocalStack's state live
# under .tools/ at the repository root (git-ignored); the tools the scripts install (virtualenvs, the rpaste
# client) live in a per-user cache, $PASTEBIN_CACHE_DIR, so that every clone and worktree reuses them as
# Maven reuses ~/.m2.

# --- locations --------------------------------------------------------------------------------------
PASTEBIN_LOCAL_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PASTEBIN_ROOT="$(cd "$PASTEBIN_LOCAL_DIR/../.." && pwd)"
PASTEBIN_TOOLS_DIR="${PASTEBIN_TOOLS_DIR:-$PASTEBIN_ROOT/.tools}"
PASTEBIN_LOG_DIR="$PASTEBIN_TOOLS_DIR/logs"
PASTEBIN_RUN_DIR="$PASTEBIN_TOOLS_DIR/run"
PASTEBIN_CACHE_DIR="${PASTEBIN_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pastebin}"
mkdir -p "$PASTEBIN_LOG_DIR" "$PASTEBIN_RUN_DIR" "$PASTEBIN_CACHE_DIR"
export PASTEBIN_CACHE_DIR

# --- PostgreSQL --------------------------------------------------------------------------------------
: "${PASTEBIN_DB_HOST:=127.0.0.1}"
: "${PASTEBIN_DB_PORT:=5432}"
: "${PASTEBIN_DB_NAME:=pastebin}"
: "${PASTEBIN_DB_USER:=pastebin}"
: "${PASTEBIN_DB_PASSWORD:=pastebin}"

# --- LocalStack / AWS ---------------------------------------------------------------------------------
: "${LOCALSTACK_VERSION:=4.14.0}"
: "${LOCALSTACK_ENDPOINT:=http://127.0.0.1:4566}"
: "${LOCALSTACK_VENV:=$PASTEBIN_CACHE_DIR/localstack-venv}"
: "${AWS_REGION:=us-east-1}"
: "${AWS_ACCESS_KEY_ID:=test}"
: "${AWS_SECRET_ACCESS_KEY:=test}"
: "${PASTEBIN_STORAGE_BUCKET:=pastebin-pastes}"
: "${PASTEBIN_UPLOAD_QUEUE:=pastebin-uploads}"
: "${PASTEBIN_UPLOAD_DLQ:=pastebin-uploads-dlq}"
: "${PASTEBIN_MODERATION_OUTBOX:=pastebin-moderation-outbox}"
: "${PASTEBIN_MODERATION_OUTBOX_DLQ:=pastebin-moderation-outbox-dlq}"
: "${PASTEBIN_ABUSE_TOPIC:=pastebin-abuse-notifications}"
# The secret of the reporters' HMAC key (the template's ReportAddressKeySecret), which bootstrap.py creates with a
# local-only key: the report function reads the key from it at start, as it does on AWS.
: "${PASTEBIN_REPORT_ADDRESS_KEY_SECRET:=pastebin-local-report-address-key}"
# LocalStack's account id for the test credentials.
: "${LOCALSTACK_ACCOUNT_ID:=000000000000}"
# The host:port LocalStack writes into the URLs it returns (its LOCALSTACK_HOST setting; the default
# name, localhost.localstack.cloud, needs DNS).
_ls_hostport="${LOCALSTACK_ENDPOINT#*://}"; _ls_hostport="${_ls_hostport%%/*}"
: "${LOCALSTACK_HOST:=localhost:${_ls_hostport##*:}}"
unset _ls_hostport
export PASTEBIN_DB_HOST PASTEBIN_DB_PORT PASTEBIN_DB_NAME PASTEBIN_DB_USER PASTEBIN_DB_PASSWORD
export LOCALSTACK_VERSION LOCALSTACK_ENDPOINT LOCALSTACK_HOST LOCALSTACK_VENV AWS_REGION AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY
export PASTEBIN_STORAGE_BUCKET PASTEBIN_UPLOAD_QUEUE PASTEBIN_UPLOAD_DLQ LOCALSTACK_ACCOUNT_ID
export PASTEBIN_MODERATION_OUTBOX PASTEBIN_MODERATION_OUTBOX_DLQ PASTEBIN_ABUSE_TOPIC PASTEBIN_REPORT_ADDRESS_KEY_SECRET

# --- messages -----------------------------------------------------------------------------------------
log()  { printf '[%s] %s\n' "${PASTEBIN_LOG_TAG:-local}" "$*" >&2; }
warn() { printf '[%s] WARNING: %s\n' "${PASTEBIN_LOG_TAG:-local}" "$*" >&2; }
die()  { printf '[%s] ERROR: %s\n' "${PASTEBIN_LOG_TAG:-local}" "$*" >&2; exit 1; }

# --- Java ---------------------------------------------------------------------------------------------
# Major version of the JDK at $1 (a JAVA_HOME), or nothing when $1 is not a JDK (needs bin/javac).
_jdk_major() {
    local home="$1" v=""
    [[ -x "$home/bin/java" && -x "$home/bin/javac" ]] || return 0
    if [[ -f "$home/release" ]]; then
        v="$(sed -n 's/^JAVA_VERSION="\([^"]*\)"/\1/p' "$home/release" | head -n1)"
    fi
    if [[ -z "$v" ]]; then
        v="$("$home/bin/java" -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p' | head -n1)"
    fi
    v="${v#1.}"          # 1.8.0 -> 8.0
    v="${v%%[.+-]*}"     # 21.0.5 -> 21
    [[ "$v" =~ ^[0-9]+$ ]] && echo "$v"
    return 0
}

# Picks a JDK >= 21: $JAVA_HOME if it is one, else the newest under /usr/lib/jvm. Exports JAVA_HOME and
# PATH. When there is none, warns and exports PASTEBIN_MAVEN_ARGS=-Dmaven.compiler.release=17 instead.
find_java21() {
    local major best="" best_major=0 d
    if [[ -n "${JAVA_HOME:-}" ]]; then
        major="$(_jdk_major "$JAVA_HOME")"
        if [[ -n "$major" && "$major" -ge 21 ]]; then
            best="$JAVA_HOME"; best_major="$major"
        else
            log "JAVA_HOME=$JAVA_HOME is not a JDK >= 21 (major '${major:-?}'); looking under /usr/lib/jvm"
        fi
    fi
    if [[ -z "$best" ]]; then
        for d in /usr/lib/jvm/*/; do
            d="${d%/}"
            [[ -L "$d" ]] && continue
            major="$(_jdk_major "$d")"
            if [[ -n "$major" && "$major" -ge 21 && "$major" -gt "$best_major" ]]; then
                best="$d"; best_major="$major"
            fi
        done
    fi
    if [[ -n "$best" ]]; then
        export JAVA_HOME="$best"
        export PATH="$JAVA_HOME/bin:$PATH"
        log "using JDK $best_major at $JAVA_HOME"
    else
        export PASTEBIN_MAVEN_ARGS="${PASTEBIN_MAVEN_ARGS:+$PASTEBIN_MAVEN_ARGS }-Dmaven.compiler.release=17"
        warn "no JDK >= 21 found (JAVA_HOME or /usr/lib/jvm); the build will use -Dmaven.compiler.release=17" \
             "with $(command -v java || echo 'no java on PATH'). Install a JDK 21+ (e.g. a Temurin 21 or 25 under /usr/lib/jvm)" \
             "or set JAVA_HOME to one, to build for the java21 Lambda runtime."
    fi
}

# --- environment for the Java processes and tests -----------------------------------------------------
# The URL LocalStack 4.14.0 returns for queue $1 with SQS_ENDPOINT_STRATEGY=path (as get-queue-url
# returns it; bootstrap.py fails if they ever differ):
#   http://localhost:4566/queue/us-east-1/000000000000/pastebin-uploads
queue_url() { echo "http://$LOCALSTACK_HOST/queue/$AWS_REGION/$LOCALSTACK_ACCOUNT_ID/$1"; }

export_app_env() {
    export DATASOURCES_DEFAULT_URL="jdbc:postgresql://$PASTEBIN_DB_HOST:$PASTEBIN_DB_PORT/$PASTEBIN_DB_NAME"
    export DATASOURCES_DEFAULT_USERNAME="$PASTEBIN_DB_USER"
    export DATASOURCES_DEFAULT_PASSWORD="$PASTEBIN_DB_PASSWORD"
    export AWS_ENDPOINT_URL="$LOCALSTACK_ENDPOINT"
    export AWS_REGION AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY
    export AWS_S3_PATH_STYLE_ACCESS_ENABLED=true
    export PASTEBIN_STORAGE_BUCKET
    export PASTEBIN_UPLOAD_QUEUE_URL="${PASTEBIN_UPLOAD_QUEUE_URL:-$(queue_url "$PASTEBIN_UPLOAD_QUEUE")}"
    export PASTEBIN_UPLOAD_DLQ_URL="${PASTEBIN_UPLOAD_DLQ_URL:-$(queue_url "$PASTEBIN_UPLOAD_DLQ")}"
}

# --- the local runtime (local-runtime/, see its README) ------------------------------------------------
# `env_vars_json` prints the runtime's env-vars file (the format of `sam local invoke --env-vars`): what the
# functions need locally beyond what infra/template.yaml resolves to (the database, S3 path-style access).
env_vars_json() {
    python3 - <<'PY'
import json, os
e = os.environ
print(json.dumps({"Parameters": {
    "DATASOURCES_DEFAULT_URL": f"jdbc:postgresql://{e['PASTEBIN_DB_HOST']}:{e['PASTEBIN_DB_PORT']}/{e['PASTEBIN_DB_NAME']}",
    "DATASOURCES_DEFAULT_USERNAME": e["PASTEBIN_DB_USER"],
    "DATASOURCES_DEFAULT_PASSWORD": e["PASTEBIN_DB_PASSWORD"],
    "AWS_S3_PATH_STYLE_ACCESS_ENABLED": "true",
    # the local PostgreSQL has no TLS; the template requires verify-full
    "PASTEBIN_DATABASE_TLS_REQUIRED": "false",
    # the template's AbuseContact is empty by default; locally every page shows this one
    "PASTEBIN_ABUSE_CONTACT": e.get("PASTEBIN_ABUSE_CONTACT", "mailto:abuse@localhost"),
}}, indent=2))
PY
}

# The local names of the template's queues, bucket, topic and secret (infra/template.yaml leaves naming to
# CloudFormation).
physical_names() {
    echo "UploadQueue=$PASTEBIN_UPLOAD_QUEUE,UploadDeadLetterQueue=$PASTEBIN_UPLOAD_DLQ,PasteBucket=$PASTEBIN_STORAGE_BUCKET,ModerationOutboxQueue=$PASTEBIN_MODERATION_OUTBOX,ModerationOutboxDeadLetterQueue=$PASTEBIN_MODERATION_OUTBOX_DLQ,AbuseNotificationTopic=$PASTEBIN_ABUSE_TOPIC,ReportAddressKeySecret=$PASTEBIN_REPORT_ADDRESS_KEY_SECRET"
}

# `local_runtime_java MAIN ARGS...` runs a main class of the built local runtime (module local-runtime) with
# infra/template.yaml, the env-vars of env_vars_json (through a pipe, never a file: it holds the database
# password) and the local names; the caller's ARGS come last and win.
local_runtime_java() {
    local main="$1" jar
    shift
    # the runtime's own jar, not its test-jar (pastebin-local-runtime-<version>-tests.jar)
    jar="$(ls "$PASTEBIN_ROOT"/tools/local-runtime/target/pastebin-local-runtime-*.jar 2>/dev/null | grep -v -- '-tests\.jar$' | head -n1 || true)"
    [[ -n "$jar" && -f "$PASTEBIN_ROOT/tools/local-runtime/target/runtime-classpath.txt" ]] \
        || die "the local runtime is not built; run: mvn -B -DskipTests package"
    # Where the test command keeps class archives, map the one the test kit's launcher wrote for the runtime's own
    # JVM (LocalRuntimeLauncher: the same class path; the newest, as a rebuilt jar's older one is refused by the JVM,
    # which then runs without): each infra/local/invoke a test runs starts on about half the CPU.
    local archive="" archive_flags=()
    if [[ -n "${PASTEBIN_LOCAL_CLASS_ARCHIVES:-}" ]]; then
        archive="$(ls -t "$PASTEBIN_LOCAL_CLASS_ARCHIVES"/local-runtime-*.jsa 2>/dev/null | head -n1 || true)"
        [[ -z "$archive" ]] || archive_flags=("-XX:SharedArchiveFile=$archive" -Xlog:cds=off -Xlog:cds+dynamic=off)
    fi
    # exec replaces the calling shell: run.sh starts this as a background job, whose pid is then the JVM's,
    # so run.sh's TERM reaches the runtime's shutdown hook (which stops the function processes).
    # C1 only and the serial collector, as the function processes it starts run: the runtime relays requests and
    # events for minutes at most, and C2's compilations would take CPU the functions need on a small machine.
    exec "${JAVA_HOME:+$JAVA_HOME/bin/}java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC "${archive_flags[@]}" -cp "$jar:$(cat "$PASTEBIN_ROOT/tools/local-runtime/target/runtime-classpath.txt")" \
        "$main" --template "$PASTEBIN_ROOT/infra/template.yaml" --env-vars <(env_vars_json) \
        --physical-name "$(physical_names)" "$@"
}

# The variables export_app_env sets, for printing (`print_app_env`) and for `eval`-style use.
PASTEBIN_APP_ENV_VARS=(DATASOURCES_DEFAULT_URL DATASOURCES_DEFAULT_USERNAME DATASOURCES_DEFAULT_PASSWORD
    AWS_ENDPOINT_URL AWS_REGION AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_S3_PATH_STYLE_ACCESS_ENABLED
    PASTEBIN_STORAGE_BUCKET PASTEBIN_UPLOAD_QUEUE_URL PASTEBIN_UPLOAD_DLQ_URL)

print_app_env() {
    local v
    for v in "${PASTEBIN_APP_ENV_VARS[@]}"; do
        printf 'export %s=%q\n' "$v" "${!v}"
    done
}

# --- LocalStack helpers -------------------------------------------------------------------------------
localstack_python() { echo "$LOCALSTACK_VENV/bin/python"; }

# `http_get URL` prints the body of a 2xx answer, or fails (curl when present, else python3).
http_get() {
    if command -v curl >/dev/null 2>&1; then
        curl -fsS --max-time 3 "$1" 2>/dev/null
    else
        python3 -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=3).read().decode())' "$1" 2>/dev/null
    fi
}

# True when LocalStack's health endpoint answers at $LOCALSTACK_ENDPOINT.
localstack_answers() {
    http_get "${LOCALSTACK_ENDPOINT%/}/_localstack/health" >/dev/null
}

# --- bookkeeping of what this project started ---------------------------------------------------------
# `started_marker NAME` is the file that records that the project started service NAME.
started_marker() { echo "$PASTEBIN_RUN_DIR/$1.started"; }

# Names of the marker files present now (one a line), to compare with later.
started_markers() { (cd "$PASTEBIN_RUN_DIR" && ls -1 -- *.started 2>/dev/null) || true; }

# `stop_started_since "$before"` stops the services whose marker appeared after `before=$(started_markers)`,
# i.e. the ones the caller itself started; services that were already running are left alone.
stop_started_since() {
    local before="$1" m now
    now="$(started_markers)"
    # LocalStack first, PostgreSQL last.
    for m in $(grep -v '^postgres-' <<<"$now"; grep '^postgres-' <<<"$now"); do
        grep -qxF -- "$m" <<<"$before" && continue
        case "$m" in
            localstack.started) "$PASTEBIN_LOCAL_DIR/localstack.sh" stop || true ;;
            postgres-*.started)
                local port="${m#postgres-}"
                PASTEBIN_DB_PORT="${port%.started}" "$PASTEBIN_LOCAL_DIR/postgres.sh" stop || true ;;
        esac
    done
}

# --- SAM CLI ------------------------------------------------------------------------------------------
# `ensure_sam_cli` installs AWS SAM CLI and cfn-lint from PyPI into their own venv, $SAM_VENV
# ($PASTEBIN_CACHE_DIR/sam-venv; once, reused while the pinned versions match), and turns SAM's telemetry off.
# Used by validate-template.sh and sam-build.sh; run $SAM_VENV/bin/sam afterwards.
: "${SAM_CLI_VERSION:=1.170.0}"
: "${CFN_LINT_VERSION:=1.58.0}"
: "${SAM_VENV:=$PASTEBIN_CACHE_DIR/sam-venv}"

# `ensure_tool_venv VENV EXECUTABLE "pkg==version ..." LOGNAME`: a virtualenv of pinned PyPI tools in the cache,
# installed once and again only when the pins change.
ensure_tool_venv() {
    local venv="$1" executable="$2" want="$3" logname="$4"
    local stamp="$venv/.pastebin-versions"
    with_install_lock "$venv"
    if [[ ! -x "$venv/bin/$executable" || "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
        log "installing $want into $venv (once; log: $PASTEBIN_LOG_DIR/$logname-pip.log)"
        python3 -m venv "$venv" || die "python3 -m venv failed (install the python3-venv package)"
        # shellcheck disable=SC2086
        "$venv/bin/pip" install --quiet --disable-pip-version-check $want >"$PASTEBIN_LOG_DIR/$logname-pip.log" 2>&1 \
            || die "pip install $want failed; see $PASTEBIN_LOG_DIR/$logname-pip.log"
        echo "$want" >"$stamp"
    fi
    release_install_lock
}

# `with_install_lock PATH` / `release_install_lock`: one install into a cached PATH at a time, since clones and
# worktrees running their scripts together share the cache.
with_install_lock() {
    exec {PASTEBIN_INSTALL_LOCK_FD}>"$1.lock"
    flock "$PASTEBIN_INSTALL_LOCK_FD"
}
release_install_lock() {
    exec {PASTEBIN_INSTALL_LOCK_FD}>&-
}

ensure_sam_cli() {
    ensure_tool_venv "$SAM_VENV" sam "aws-sam-cli==$SAM_CLI_VERSION cfn-lint==$CFN_LINT_VERSION" sam
    # No telemetry calls from a test run.
    export SAM_CLI_TELEMETRY=0
}

: "${SCHEMATHESIS_VERSION:=4.32.5}"
# Hypothesis pinned to the oldest that Schemathesis accepts: newer ones describe filter lambdas by parsing
# Schemathesis's whole coverage module, which this Python 3.11 rejects ("AST constructor recursion
# depth mismatch"), failing the coverage phase of an operation with an internal error, not a finding.
: "${SCHEMATHESIS_HYPOTHESIS_VERSION:=6.130.12}"
: "${SCHEMATHESIS_VENV:=$PASTEBIN_CACHE_DIR/schemathesis-venv}"

ensure_schemathesis() {
    ensure_tool_venv "$SCHEMATHESIS_VENV" schemathesis \
        "schemathesis==$SCHEMATHESIS_VERSION hypothesis==$SCHEMATHESIS_HYPOTHESIS_VERSION" schemathesis
}
