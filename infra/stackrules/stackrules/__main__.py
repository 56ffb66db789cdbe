"""python -m stackrules: the stack's own rules against the calls its functions made in the test suite.

Usage: python -m stackrules --template infra/template.yaml --parameter-sets infra/template-parameter-sets.json
                            [--edge-template infra/edge-waf.yaml] [--calls DIR]
Prints each refused request with the statement that is missing, then what was not modelled; exits 1 on a refusal.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .rules import check, read_recorded
from .template import Stack, load, sam_transform


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="stackrules", description=__doc__.splitlines()[0])
    parser.add_argument("--template", type=Path, required=True)
    parser.add_argument("--parameter-sets", type=Path, required=True)
    parser.add_argument("--calls", type=Path, help="the recorded calls (PASTEBIN_RECORD_CALLS_DIR)")
    parser.add_argument("--edge-template", type=Path, help="the edge's us-east-1 stack (Custom::EdgeWebAcl)")
    arguments = parser.parse_args(argv)

    recorded = read_recorded(arguments.calls) if arguments.calls and arguments.calls.is_dir() else []
    edge = load(arguments.edge_template) if arguments.edge_template else None
    functions = sorted({line["function"] for line in recorded})
    print(f"[stack-rules] {len(recorded)} recorded calls from {len(functions)} functions: {', '.join(functions)}")
    refusals, unmodelled = [], set()
    for name, parameters in json.loads(arguments.parameter_sets.read_text(encoding="utf-8")).items():
        # per parameter set: the language extensions resolve the template's Fn::Ifs from the parameters first
        transformed = sam_transform(arguments.template, parameters)
        found, missed = check(Stack(transformed, parameters), name, recorded, edge)
        refusals.extend(found)
        unmodelled |= missed
    for refusal in refusals:
        print(refusal)
    if unmodelled:
        print("[stack-rules] not modelled, so not checked (docs/testing.md, \"Stack rules\"):")
        for line in sorted(unmodelled):
            print(f"    {line}")
    print(f"[stack-rules] {len(refusals)} refused")
    return 1 if refusals else 0


if __name__ == "__main__":
    sys.exit(main())
