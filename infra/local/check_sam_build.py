#!/usr/bin/env python3
# Usage: $SAM_VENV/bin/python infra/local/check_sam_build.py <template> <sam build dir>
"""Check that `sam build` built every function of the template, exit 1 naming each one it did not.

For every AWS::Serverless::Function of <template> (the source template, infra/template.yaml):
  - the built template (<build dir>/template.yaml) points its CodeUri at the function's own build directory
    (not back at the sources, which is what `sam deploy` would then upload), and
  - that directory holds the function's Handler class: as a .class file under the directory itself, or
    inside one of the jars under its lib/ (where the Java runtime looks).
Runs with the SAM CLI venv's python: samcli.yamlhelper reads CloudFormation's short-form tags (!Ref ...).
"""
from __future__ import annotations

import sys
import zipfile
from pathlib import Path

from samcli.yamlhelper import yaml_parse


def functions(template: dict) -> dict[str, dict]:
    return {logical_id: resource.get("Properties") or {}
            for logical_id, resource in (template.get("Resources") or {}).items()
            if resource.get("Type") == "AWS::Serverless::Function"}


def find_class(function_dir: Path, class_file: str) -> str | None:
    """Where class_file (a/b/C.class) is in the artifact, as a path relative to function_dir, or None."""
    if (function_dir / class_file).is_file():
        return class_file
    for jar in sorted((function_dir / "lib").glob("*.jar")):
        with zipfile.ZipFile(jar) as archive:
            if class_file in archive.namelist():
                return f"lib/{jar.name}"
    return None


def check(template_path: Path, build_dir: Path) -> list[str]:
    source = functions(yaml_parse(template_path.read_text()))
    if not source:
        return [f"{template_path} declares no AWS::Serverless::Function"]
    built_template = build_dir / "template.yaml"
    if not built_template.is_file():
        return [f"{built_template} does not exist: sam build did not finish"]
    built = functions(yaml_parse(built_template.read_text()))
    problems = []
    for logical_id, properties in source.items():
        handler = properties.get("Handler")
        if not isinstance(handler, str) or not handler:
            problems.append(f"{logical_id}: no Handler in {template_path}")
            continue
        class_file = handler.split("::")[0].replace(".", "/") + ".class"
        function_dir = build_dir / logical_id
        code_uri = (built.get(logical_id) or {}).get("CodeUri")
        if not isinstance(code_uri, str) or (build_dir / code_uri).resolve() != function_dir.resolve():
            problems.append(f"{logical_id}: the built template's CodeUri is {code_uri!r}, not its build directory"
                            f" {function_dir}: sam build did not build it")
            continue
        if not function_dir.is_dir():
            problems.append(f"{logical_id}: {function_dir} does not exist: sam build did not build it")
            continue
        where = find_class(function_dir, class_file)
        if where is None:
            jars = len(list((function_dir / "lib").glob("*.jar")))
            problems.append(f"{logical_id}: handler {handler} ({class_file}) is neither in {function_dir}"
                            f" nor in its {jars} lib/*.jar")
            continue
        print(f"{logical_id}: {handler} found in {where}")
    return problems


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    problems = check(Path(sys.argv[1]), Path(sys.argv[2]))
    for problem in problems:
        print(f"NOT BUILT: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
