#!/usr/bin/env bash
# Usage: infra/local/sam-build.sh  -- runs `sam build` for infra/template.yaml and checks it built every function.
#
# `sam build` (the SAM CLI from PyPI in $PASTEBIN_CACHE_DIR/sam-venv, in process: no container) with infra/samconfig.toml,
# into infra/target/sam-build (emptied first, so nothing of an earlier build can pass for this one). Each
# function is built by its module's Makefile (infra/lambda-build.mk): `mvn package` only for a module whose
# target/function.zip is out of date, then the zip is unzipped. After `mvn package` (as in test.sh) it takes
# seconds. Then check_sam_build.py checks, for each function of the template, that the built template points
# at its build directory and that the Handler class is in it; the run fails naming every function that was not
# built.
set -euo pipefail
PASTEBIN_LOG_TAG=sam-build
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

TEMPLATE="$PASTEBIN_ROOT/infra/template.yaml"
BUILD_DIR="$PASTEBIN_ROOT/infra/target/sam-build"

find_java21
ensure_sam_cli
command -v make >/dev/null || die "make is not installed; sam build runs the functions' Makefiles (install make)"
command -v unzip >/dev/null || die "unzip is not installed; the functions' Makefiles unzip the artifacts (install unzip)"
# The region sam build reads from the environment; no credentials are used.
export AWS_REGION="${AWS_REGION:-us-east-1}" AWS_DEFAULT_REGION="${AWS_DEFAULT_REGION:-${AWS_REGION:-us-east-1}}"

rm -rf "$BUILD_DIR"
cd "$PASTEBIN_ROOT/infra"
log "sam build --build-dir infra/target/sam-build (config: infra/samconfig.toml; log: $PASTEBIN_LOG_DIR/sam-build.log)"
t0=$SECONDS
if ! "$SAM_VENV/bin/sam" build --config-file samconfig.toml --template-file "$TEMPLATE" --build-dir "$BUILD_DIR" \
        >"$PASTEBIN_LOG_DIR/sam-build.log" 2>&1; then
    tail -n 40 "$PASTEBIN_LOG_DIR/sam-build.log" >&2
    die "sam build failed (last lines above; all of it: $PASTEBIN_LOG_DIR/sam-build.log)"
fi
log "sam build finished in $((SECONDS - t0)) s"

"$SAM_VENV/bin/python" "$PASTEBIN_LOCAL_DIR/check_sam_build.py" "$TEMPLATE" "$BUILD_DIR" \
    || die "sam build did not build every function of infra/template.yaml (NOT BUILT lines above; sam's output: $PASTEBIN_LOG_DIR/sam-build.log)"
log "every function is built in infra/target/sam-build"
