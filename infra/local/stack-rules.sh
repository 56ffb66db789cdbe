#!/usr/bin/env bash
# Usage: infra/local/stack-rules.sh [calls-dir]  -- every request the stack makes, against the rules AWS would enforce.
#
# Runs infra/stackrules (docs/testing.md, "Stack rules"): its own unit tests, then the check of infra/template.yaml
# under each parameter set of infra/template-parameter-sets.json. The template goes through SAM's own translator
# (in the SAM CLI's venv, ensure_sam_cli); each AWS call the functions made while the tests ran (recorded by
# tools/call-recorder into $PASTEBIN_RECORD_CALLS_DIR, default infra/target/recorded-calls) and each call AWS
# documents the stack making (custom-resource answers, alarm notifications, event-source polling, schedules, the
# edge's origin header, CloudFormation's AWS WAF calls for the edge's us-east-1 stack of infra/edge-waf.yaml) is checked
# against the caller's role, its route and VPC endpoint policy, the resource's policy and its KMS key's policy. Fails
# naming the request, the caller and the missing statement.
set -euo pipefail
PASTEBIN_LOG_TAG=stack-rules
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ensure_sam_cli
calls="${1:-${PASTEBIN_RECORD_CALLS_DIR:-$PASTEBIN_ROOT/infra/target/recorded-calls}}"
cd "$PASTEBIN_ROOT/infra/stackrules"
export AWS_DEFAULT_REGION=us-east-1
"$SAM_VENV/bin/python" -m unittest discover --quiet -s tests -t . || die "the stack rules' own tests fail (above)"
"$SAM_VENV/bin/python" -m stackrules \
    --template "$PASTEBIN_ROOT/infra/template.yaml" \
    --parameter-sets "$PASTEBIN_ROOT/infra/template-parameter-sets.json" \
    --edge-template "$PASTEBIN_ROOT/infra/edge-waf.yaml" \
    --calls "$calls"
