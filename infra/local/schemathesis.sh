#!/usr/bin/env bash
# Usage: infra/local/schemathesis.sh [schemathesis run args...]  -- the API against its OpenAPI document.
#
# Starts the local runtime (every function of infra/template.yaml, from the artifacts `mvn package` built) on
# a free port, runs Schemathesis (PyPI, pinned, installed once into $PASTEBIN_CACHE_DIR/schemathesis-venv) with
# docs/openapi.yaml against it, and stops the runtime. Fails on any 5xx and on any response the document does
# not describe (status, content type, headers, body schema). Needs PostgreSQL and LocalStack up (infra/local/up)
# and the app environment (export_app_env); in the test command infra's SchemathesisIT runs it, with queues and a
# bucket of its own (PASTEBIN_UPLOAD_QUEUE, PASTEBIN_UPLOAD_DLQ, PASTEBIN_STORAGE_BUCKET).
set -euo pipefail
PASTEBIN_LOG_TAG=schemathesis
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

find_java21
ensure_schemathesis

# A database of its own, created afresh each run: Schemathesis' seed repeats its Idempotency-Keys, and a kept
# database would replay them with pastes of an earlier run whose objects a restarted LocalStack (in memory)
# no longer holds, an inconsistency the API rightly answers 500. Named after this run (its process id) and dropped
# when it ends, so that two runs on one PostgreSQL (two checkouts, or a run beside `make test`) never drop each
# other's database halfway.
export PASTEBIN_DB_NAME="pastebin_schemathesis_$$"
PGPASSWORD="$PASTEBIN_DB_PASSWORD" psql -X -q -w -v ON_ERROR_STOP=1 -h "$PASTEBIN_DB_HOST" -p "$PASTEBIN_DB_PORT" \
    -U "$PASTEBIN_DB_USER" -d postgres -c "DROP DATABASE IF EXISTS $PASTEBIN_DB_NAME WITH (FORCE)" \
    -c "CREATE DATABASE $PASTEBIN_DB_NAME" >&2 || die "could not create the database $PASTEBIN_DB_NAME"
"$PASTEBIN_LOCAL_DIR/migrate"
export_app_env

runtime_log="$PASTEBIN_LOG_DIR/schemathesis-runtime.log"
runtime_pid=""
cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    if [[ -n "$runtime_pid" ]] && kill -0 "$runtime_pid" 2>/dev/null; then
        kill -TERM "$runtime_pid" 2>/dev/null || true
        wait "$runtime_pid" 2>/dev/null || true
    fi
    PGPASSWORD="$PASTEBIN_DB_PASSWORD" psql -X -q -w -h "$PASTEBIN_DB_HOST" -p "$PASTEBIN_DB_PORT" -U "$PASTEBIN_DB_USER" \
        -d postgres -c "DROP DATABASE IF EXISTS $PASTEBIN_DB_NAME WITH (FORCE)" >&2 \
        || warn "could not drop the database $PASTEBIN_DB_NAME"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --port 0: any free port; the runtime says which once every function is up.
(local_runtime_java dev.pastebin.local.cli.LocalRuntime --port 0 --instances 2) >"$runtime_log" 2>&1 &
runtime_pid=$!
base_url=""
for _ in $(seq 1 480); do
    base_url="$(sed -n 's|^Local API listening on \(http://[^ ]*\).*|\1|p' "$runtime_log" | head -n1)"
    [[ -n "$base_url" ]] && break
    kill -0 "$runtime_pid" 2>/dev/null || { tail -n 30 "$runtime_log" >&2; die "the local runtime exited (log: $runtime_log)"; }
    sleep 0.5
done
[[ -n "$base_url" ]] || die "the local runtime did not come up within 4 minutes (log: $runtime_log)"
log "local API on $base_url; running Schemathesis $SCHEMATHESIS_VERSION with docs/openapi.yaml"

# The checks are the document's promises: no 5xx, and every status, content type, header and body as
# documented. Negative cases (the coverage phase's invalid inputs) must be answered with a documented 4xx.
# The stateful phase follows the document's links (its components' responses "Created" and "PasteRead") from a
# created paste to reading, HEAD, revealing and deleting it with its deleteToken, and from a read to reading it
# again with its ETag (304): the answers of a paste that exists. A form create answers its URL as text/plain, from
# which no link can take the code: Schemathesis lists those scenarios as "Failed to extract data" without failing
# the run. PrivateBin's /pb/ is in the document too, its answers checked against PrivateBin's JSON shapes; its
# links take a create of the document's example paste to its JSON read and its delete (a generated body is
# refused, status 1, and leaves its links nothing to follow).
set +e
"$SCHEMATHESIS_VENV/bin/schemathesis" run "$PASTEBIN_ROOT/docs/openapi.yaml" --url "$base_url" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance \
    --phases examples,coverage,fuzzing,stateful --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-30}" --workers 2 \
    --request-timeout 30 --seed "${SCHEMATHESIS_SEED:-14}" --no-color "$@"
status=$?
set -e
[[ "$status" -eq 0 ]] || log "Schemathesis found problems (above); the runtime's log: $runtime_log"
exit "$status"
