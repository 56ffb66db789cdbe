#!/usr/bin/env bash
# Usage: infra/local/validate-template.sh  -- lints infra/template.yaml with cfn-lint (our settings, informational
# findings included) and checkov, once per parameter set of infra/template-parameter-sets.json ("default": what
# `sam deploy --guided` creates; "existing": your own network, database and secrets), and infra/edge-waf.yaml with
# both; then the template as a user lints it (plain `sam validate --lint` and `cfn-lint`), and with the newest
# releases when PyPI has newer ones than the pins (a warning: the pins decide).
#
# Installs AWS SAM CLI and cfn-lint from PyPI into their own venv, $PASTEBIN_CACHE_DIR/sam-venv, and checkov into
# another, $PASTEBIN_CACHE_DIR/checkov-venv (its dependencies would conflict with the SAM CLI's); once each, reused
# while the pinned versions match (ensure_tool_venv in lib.sh). None needs AWS credentials or network access once
# installed (`sam validate --lint` runs cfn-lint locally; plain `sam validate` would call AWS).
# Fails on any error or warning; a cfn-lint rule that is deliberately ignored is listed in infra/.cfnlintrc, a
# skipped checkov check in infra/.checkov.yaml, each with the reason beside it.
set -euo pipefail
PASTEBIN_LOG_TAG=validate
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

: "${CHECKOV_VERSION:=3.3.30}"
: "${CHECKOV_VENV:=$PASTEBIN_CACHE_DIR/checkov-venv}"

TEMPLATE="$PASTEBIN_ROOT/infra/template.yaml"
PARAMETER_SETS="$PASTEBIN_ROOT/infra/template-parameter-sets.json"

ensure_sam_cli
ensure_tool_venv "$CHECKOV_VENV" checkov "checkov==$CHECKOV_VERSION" checkov

# sam reads the region for the lint; no credentials are used.
export AWS_REGION="${AWS_REGION:-us-east-1}" AWS_DEFAULT_REGION="${AWS_DEFAULT_REGION:-${AWS_REGION:-us-east-1}}"
# checkov fetches guideline links from its vendor unless told not to; nothing here needs them.
export BC_SKIP_MAPPING=TRUE CKV_NO_VERSION_CHECK=1

cd "$PASTEBIN_ROOT/infra"
# Each parameter set becomes a copy of the template whose parameter Defaults are the set's values, so that the
# linters resolve the conditions, the Rules and the Refs as a deploy with those answers would. The copies are written
# next to the template (the same relative CodeUri and TemplateURL) and removed afterwards.
copies=()
trap 'rm -f "${copies[@]}"' EXIT
for set in $("$SAM_VENV/bin/python" -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))))' "$PARAMETER_SETS"); do
    copies+=("$PASTEBIN_ROOT/infra/.template-$set.json")
done
"$SAM_VENV/bin/python" - "$TEMPLATE" "$PARAMETER_SETS" "$PASTEBIN_ROOT/infra" <<'PY'
import copy, json, sys
from cfnlint.decode import decode
template, matches = decode(sys.argv[1])
if matches:
    sys.exit("cannot read %s: %s" % (sys.argv[1], matches))
for set_name, values in json.load(open(sys.argv[2])).items():
    answered = copy.deepcopy(template)
    for name, value in values.items():
        answered["Parameters"][name]["Default"] = value
    json.dump(answered, open("%s/.template-%s.json" % (sys.argv[3], set_name), "w"), indent=1, default=str)
PY
# One process per linter for every copy and the edge's web ACL (nested by the template in us-east-1, deployed on its
# own elsewhere): each linter's start (its rules and schemas) costs more CPU than a template's check. `sam validate
# --lint` is cfn-lint with its default rules; cfn-lint with our settings runs those and the informational ones, so
# the copies need only the latter (the plain template gets both below, as a user runs them).
log "parameter sets ${copies[*]##*/.template-} and edge-waf.yaml: cfn-lint (settings: infra/.cfnlintrc)"
# cfn-lint exits non-zero on errors (2), warnings (4) and informational findings (8).
"$SAM_VENV/bin/cfn-lint" --config-file "$PASTEBIN_ROOT/infra/.cfnlintrc" -- "${copies[@]}" "$PASTEBIN_ROOT/infra/edge-waf.yaml"
log "parameter sets and edge-waf.yaml: checkov (settings: infra/.checkov.yaml)"
"$CHECKOV_VENV/bin/checkov" --config-file "$PASTEBIN_ROOT/infra/.checkov.yaml" \
    $(printf -- '-f %s ' "${copies[@]}" "$PASTEBIN_ROOT/infra/edge-waf.yaml")
rm -f "${copies[@]}"
# The template as a user lints it, with no settings of ours: plain `sam validate --lint` and `cfn-lint` (what the
# template must ignore, it says in its own Metadata).
log "infra/template.yaml as a user lints it: sam validate --lint, cfn-lint"
"$SAM_VENV/bin/sam" validate --lint --template-file "$TEMPLATE"
"$SAM_VENV/bin/cfn-lint" -- "$TEMPLATE"

# The newest releases too, when PyPI has newer ones than the pins: a user who installs the SAM CLI today lints with
# them. The pins decide the verdict (a new release's new rule must not fail a change that did not touch the
# template); a finding of the newest is a warning to fix the template and raise the pins.
newest() { "$SAM_VENV/bin/pip" index versions --disable-pip-version-check "$1" 2>/dev/null | sed -n 's/^[^ ]* (\(.*\))$/\1/p'; }
newest_sam="$(newest aws-sam-cli)"; newest_lint="$(newest cfn-lint)"
if [[ -z "$newest_sam" || -z "$newest_lint" ]]; then
    warn "could not ask PyPI for the newest aws-sam-cli and cfn-lint; linted with the pins only"
elif [[ "$newest_sam" == "$SAM_CLI_VERSION" && "$newest_lint" == "$CFN_LINT_VERSION" ]]; then
    log "the pins are the newest releases (aws-sam-cli $newest_sam, cfn-lint $newest_lint)"
else
    newest_venv="$PASTEBIN_CACHE_DIR/sam-newest-venv"
    ensure_tool_venv "$newest_venv" sam "aws-sam-cli==$newest_sam cfn-lint==$newest_lint" sam-newest
    log "infra/template.yaml with the newest releases: aws-sam-cli $newest_sam, cfn-lint $newest_lint"
    "$newest_venv/bin/sam" validate --lint --template-file "$TEMPLATE" && "$newest_venv/bin/cfn-lint" -- "$TEMPLATE" \
        || warn "the newest linters find the above (the pins, $SAM_CLI_VERSION and $CFN_LINT_VERSION, pass): fix the template and raise the pins in infra/local/lib.sh"
fi
log "template is valid for every parameter set: no errors, no warnings"
