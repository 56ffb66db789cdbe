# Usage: source tools/benchmarks/lib.sh NAME  -- what every benchmark command checks first, NAME prefixing its messages.
#   bench_jdk:       a JDK 21+ in JAVA_HOME (the one set if it is one, else the first installed of 25 and 21)
#   bench_postgres:  PostgreSQL answers (`make up` starts it)
#   bench_harness:   builds tools/benchmarks/harness unless BENCH_SKIP_BUILD=1
#   bench_elasticmq: resolves ElasticMQ's class path (below)
BENCH_NAME="${1:?source tools/benchmarks/lib.sh NAME}"

bench_jdk() {
    if [[ -z "${JAVA_HOME:-}" || ! -x "$JAVA_HOME/bin/java" ]] \
            || ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -qE 'version "(2[1-9]|[3-9][0-9])'; then
        local candidate
        for candidate in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-21-jdk-amd64 /usr/lib/jvm/java-21-openjdk-amd64; do
            if [[ -x "$candidate/bin/java" ]]; then export JAVA_HOME="$candidate"; break; fi
        done
    fi
    [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]] || { echo "$BENCH_NAME: needs a JDK 21+ (set JAVA_HOME)" >&2; exit 1; }
}

bench_postgres() {
    pg_isready -q -h "${PGHOST:-127.0.0.1}" -p "${PGPORT:-5432}" \
        || { echo "$BENCH_NAME: PostgreSQL is not answering on ${PGHOST:-127.0.0.1}:${PGPORT:-5432}; start it with 'make up'" >&2; exit 1; }
}

bench_harness() {
    if [[ "${BENCH_SKIP_BUILD:-0}" != 1 ]]; then
        echo "$BENCH_NAME: building tools/benchmarks/harness" >&2
        mvn -B -q -Pbenchmarks -pl tools/benchmarks/harness -am package -DskipTests >&2
    fi
}

# bench_elasticmq: ElasticMQ's class path, resolved by Maven from tools/benchmarks/elasticmq/pom.xml into its
#   target/classpath.txt (the harness runs the server from it; docs/benchmarks.md, "Queue engine")
bench_elasticmq() {
    mvn -B -q -f tools/benchmarks/elasticmq/pom.xml dependency:build-classpath \
        -Dmdep.outputFile=target/classpath.txt >&2 \
        || { echo "$BENCH_NAME: could not resolve ElasticMQ's class path (tools/benchmarks/elasticmq/pom.xml)" >&2; exit 1; }
}
