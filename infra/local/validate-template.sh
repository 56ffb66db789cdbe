#!/usr/bin/env bash
# Usage: infra/local/validate-template.sh  -- lints infra/template.yaml with `sam validate --lint` and cfn-lint,
# and infra/edge-waf.yaml with cfn-lint.
#
# Installs AWS SAM CLI and cfn-lint from PyPI into their own venv, $PASTEBIN_CACHE_DIR/sam-venv (once; reused while
# the pinned versions match: ensure_sam_cli in lib.sh), then runs both linters. Neither needs AWS
# credentials or network access once installed (`sam validate --lint` runs cfn-lint locally; plain
# `sam validate` would call AWS).
# Fails on any error or warning; a warning that is deliberately accepted is ignored by rule id in
# infra/.cfnlintrc with the reason beside it.
set -euo pipefail
PASTEBIN_LOG_TAG=validate
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

TEMPLATE="$PASTEBIN_ROOT/infra/template.yaml"

ensure_sam_cli

# sam reads the region for the lint; no credentials are used.
export AWS_REGION="${AWS_REGION:-us-east-1}" AWS_DEFAULT_REGION="${AWS_DEFAULT_REGION:-${AWS_REGION:-us-east-1}}"

cd "$PASTEBIN_ROOT/infra"
log "sam validate --lint -t infra/template.yaml"
"$SAM_VENV/bin/sam" validate --lint --template-file "$TEMPLATE"
log "cfn-lint infra/template.yaml (settings: infra/.cfnlintrc)"
# cfn-lint exits non-zero on errors (2), warnings (4) and informational findings (8).
"$SAM_VENV/bin/cfn-lint" --config-file "$PASTEBIN_ROOT/infra/.cfnlintrc" -- "$TEMPLATE"
# the edge's web ACL, nested by the template in us-east-1 and deployed on its own elsewhere
log "cfn-lint infra/edge-waf.yaml"
"$SAM_VENV/bin/cfn-lint" --config-file "$PASTEBIN_ROOT/infra/.cfnlintrc" -- "$PASTEBIN_ROOT/infra/edge-waf.yaml"
log "template is valid: no errors, no warnings"
