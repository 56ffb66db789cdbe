#!/usr/bin/env bash
# The work per operation (docs/scale.md, "Capacity model"): database round trips, time and connections, AWS calls
# and function time of every operation, measured on the local system (the real function artifacts on the local
# runtime, each function behind counting proxies). Prints the Markdown table docs/scale.md holds.
# The same test runs once per operation inside `make test` (infra's OperationCostsIT), where it checks the counts
# against docs/scale.md; this command repeats each operation for steadier times. Needs `make up`; uses its own
# database (pastebin_costs, recreated), queues and bucket.
#
# Usage: tools/benchmarks/costs.sh [--repetitions 10] [--sweep-rows 600] [--report FILE]
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/benchmarks/lib.sh costs.sh

repetitions=10
sweep_rows=600
report=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --repetitions) repetitions="$2"; shift 2 ;;
        --sweep-rows) sweep_rows="$2"; shift 2 ;;
        --report) report="$(realpath -m "$2")"; shift 2 ;;
        *) echo "costs.sh: unknown argument $1 (see the usage at the top of this script)" >&2; exit 2 ;;
    esac
done
# The documented table is for the default sweep size; another size changes that row's counts, so its check would fail.
[[ "$sweep_rows" == 600 ]] || echo "costs.sh: --sweep-rows $sweep_rows: the sweep row will differ from docs/scale.md" >&2

bench_jdk
eval "$(infra/local/up)" || { echo "costs.sh: PostgreSQL and LocalStack are not up; start them with 'make up'" >&2; exit 1; }

exec mvn -B -q verify -pl infra -am -Dtest=NoUnitTests -Dsurefire.failIfNoSpecifiedTests=false \
    -Dit.test=OperationCostsIT -Dfailsafe.failIfNoSpecifiedTests=false \
    -Dcosts.repetitions="$repetitions" -Dcosts.sweepRows="$sweep_rows" ${report:+-Dcosts.report="$report"}
