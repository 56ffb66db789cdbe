#!/usr/bin/env bash
# Usage: infra/local/test.sh [maven args...]  -- THE test command: services up, `mvn verify`, services down.
#
# Picks a JDK >= 21, starts PostgreSQL and LocalStack unless they already run (infra/local/up), lints
# the template (beside the build), installs Chromium and its driver when missing (infra/local/chromium.sh, beside the build, for the browser
# tests) and the command-line paste clients (infra/local/clients.sh, beside the build), runs `mvn -B verify` at the repository root with the app environment exported (unit
# tests in `test`, *IT integration tests in `verify`, Schemathesis against the local API among them: SchemathesisIT runs
# infra/local/schemathesis.sh), then, side by side, `sam build` of every function with a check of its output
# (infra/local/sam-build.sh) and the stack's own rules against every request it makes (infra/local/stack-rules.sh),
# stops only the services this run started, and exits non-zero
# when any step failed. Every AWS call of the functions the run starts is recorded in infra/target/recorded-calls
# (PASTEBIN_RECORD_CALLS_DIR, below). Extra arguments go to Maven: infra/local/test.sh -pl core -am
# If PostgreSQL or LocalStack cannot be started the run fails with the reason: integration tests never
# skip silently for want of them.
set -euo pipefail
PASTEBIN_LOG_TAG=test
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

find_java21

before="$(started_markers)"
cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    stop_started_since "$before"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$PASTEBIN_LOCAL_DIR/up" >/dev/null || die "could not start PostgreSQL and LocalStack (reason above); not running the tests"
export_app_env
# The template's lint (sam validate, cfn-lint, checkov: a few minutes of Python) needs nothing Maven builds, and
# Maven's first minutes leave a core idle: it runs beside the build, its output kept for the end.
validate_log="$(mktemp -t pastebin-validate.XXXXXX)"
"$PASTEBIN_LOCAL_DIR/validate-template.sh" >"$validate_log" 2>&1 &
validate_pid=$!

# The real command-line clients CommandLineClientsIT, PrivateBinClientsIT and SignInCreateIT drive (pastebinit, haste,
# rpaste, pbincli, pbcli, the Go client) install beside the build: on a fresh machine their Rust and Go builds take
# minutes, and the first tests to use them run minutes into Maven's. Those tests wait for the file named by
# PASTEBIN_CLIENTS_INSTALLED, written with the installer's exit status when it ends; its output is printed after
# Maven's. Without a client its test fails (rpaste, pbcli, the Go client: skips) and says why.
# The browser tests (DashboardBrowserIT, WebPageBrowserIT) drive Chromium, the web page's through chromedriver: the
# same job installs both first when missing (a fresh machine's half minute of apt-get, before the clients' own
# apt-get), rather than before Maven starts. A browser test that starts before it has ended runs chromium.sh too,
# which waits for this install. Without them those tests fail and say why; the other tests still run.
clients_dir="$(mktemp -d -t pastebin-clients.XXXXXX)"
export PASTEBIN_CLIENTS_INSTALLED="$clients_dir/ended"
(
    "$PASTEBIN_LOCAL_DIR/chromium.sh" --driver >/dev/null 2>"$clients_dir/chromium-log" \
        || echo "no Chromium or chromedriver: the browser tests will fail" >>"$clients_dir/chromium-log"
    clients_status=0
    "$PASTEBIN_LOCAL_DIR/clients.sh" >"$clients_dir/log" 2>&1 || clients_status=$?
    echo "$clients_status" >"$PASTEBIN_CLIENTS_INSTALLED"
) &
clients_pid=$!

cd "$PASTEBIN_ROOT"
# Every local runtime the tests start gives a function's init the time a busy machine needs (Lambda's 10 s, and the
# runtime's own 60 s default, are limits of production and of `make run`, not of a test's set-up).
export PASTEBIN_LOCAL_INIT_TIMEOUT="${PASTEBIN_LOCAL_INIT_TIMEOUT:-5m}"
# Every local runtime the tests start (and Schemathesis's) has its functions record each AWS call they make, one JSON
# line each (tools/call-recorder/README.md), into this directory, emptied first: what the run called, to be checked
# against the permissions the template grants.
export PASTEBIN_RECORD_CALLS_DIR="$PASTEBIN_ROOT/infra/target/recorded-calls"
rm -rf "$PASTEBIN_RECORD_CALLS_DIR"
# Every function JVM those runtimes start (some 150 in a run, most of them a function already started before) maps a
# class-data-sharing archive the first one of its function wrote (tools/local-runtime/README.md, --class-archives):
# a third less CPU per start on this CPU-bound run; so does each runtime's own JVM the tests start (the test kit's
# launcher reads the same variable). Kept across runs of one checkout; a rebuilt jar's is refused by the JVM and
# written again.
export PASTEBIN_LOCAL_CLASS_ARCHIVES="$PASTEBIN_ROOT/infra/target/class-archives"
# Modules build and test in parallel once what they depend on is built (core first; then the five functions
# and the local runtime side by side; infra and chaos last, side by side): the integration tests mostly wait
# on PostgreSQL, LocalStack and timers, and each isolates itself (own database, queues, bucket, ports), so
# three at a time roughly halves the wall time on two cores (four, measured, took as long: 10 min 43 s against
# 10 min 34 s, with 30 s more CPU). PASTEBIN_MAVEN_THREADS=1 runs them one by one.
threads="${PASTEBIN_MAVEN_THREADS:-3}"
log "mvn -B -T $threads ${PASTEBIN_MAVEN_ARGS:-}${PASTEBIN_MAVEN_ARGS:+ }verify $*"
set +e
# PASTEBIN_MAVEN_ARGS is a space-separated list of options (e.g. -Dmaven.compiler.release=17).
# shellcheck disable=SC2086
mvn -B -T "$threads" ${PASTEBIN_MAVEN_ARGS:-} verify "$@"
status=$?
set -e
log "maven exited with $status"

wait "$clients_pid" || true
cat "$clients_dir/chromium-log" "$clients_dir/log"
if [[ "$(cat "$PASTEBIN_CLIENTS_INSTALLED" 2>/dev/null)" != 0 ]]; then
    warn "a command-line client is missing (reason above): the tests that drive it failed or skipped"
fi
rm -rf "$clients_dir"

validate_status=0
wait "$validate_pid" || validate_status=$?
cat "$validate_log"
rm -f "$validate_log"
if [[ "$validate_status" -ne 0 ]]; then
    log "infra/template.yaml does not validate (sam validate --lint / cfn-lint / checkov, output above)"
    status=1
fi

if [[ "$status" -eq 0 ]]; then
    # sam build of every function: their Makefiles reuse the zips Maven just built (seconds; a function module Maven
    # did not package here is packaged by its Makefile when out of date). Beside it, every request the stack makes (the
    # calls the tests recorded, and those AWS documents) against the rules the deployed stack would enforce: roles,
    # routes and VPC endpoint policies, resource and key policies. They share nothing; each one's output is kept for
    # after both ended.
    sam_build_log="$(mktemp -t pastebin-sam-build.XXXXXX)"
    "$PASTEBIN_LOCAL_DIR/sam-build.sh" >"$sam_build_log" 2>&1 &
    sam_build_pid=$!
    stack_rules_log="$(mktemp -t pastebin-stack-rules.XXXXXX)"
    "$PASTEBIN_LOCAL_DIR/stack-rules.sh" >"$stack_rules_log" 2>&1 &
    stack_rules_pid=$!
    sam_build_status=0
    wait "$sam_build_pid" || sam_build_status=$?
    stack_rules_status=0
    wait "$stack_rules_pid" || stack_rules_status=$?
    cat "$sam_build_log" "$stack_rules_log"
    rm -f "$sam_build_log" "$stack_rules_log"
    [[ "$sam_build_status" -eq 0 ]] || { log "sam build check failed (reason above)"; status=1; }
    [[ "$stack_rules_status" -eq 0 ]] || { log "a request the deployed stack would refuse (above)"; status=1; }
else
    log "not running infra/local/sam-build.sh and stack-rules.sh: maven failed"
fi
exit "$status"
