#!/usr/bin/env bash
# Usage: infra/local/postgres.sh start|stop|status  -- PostgreSQL for local runs and integration tests.
#
# start:  uses a server that already answers at $PASTEBIN_DB_HOST:$PASTEBIN_DB_PORT; otherwise starts the
#         local Debian cluster on that port (pg_lsclusters / pg_ctlcluster); otherwise, as root, installs the
#         `postgresql` package with apt when missing and creates a cluster on that port when the package did not. Then creates the role
#         (LOGIN CREATEDB CREATEROLE, with the password) and the database when missing, and checks that the
#         app user can log in with its password over TCP. CREATEROLE is for the tests only: the credentials
#         rotation test (read-function's DatabaseCredentialsRotationIT) creates, rotates and drops a role of its own.
# stop:   stops the cluster only if this project started it (recorded in .tools/run/postgres-PORT.started).
# status: prints one line.
set -euo pipefail
PASTEBIN_LOG_TAG=postgres
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

MARKER="$(started_marker "postgres-$PASTEBIN_DB_PORT")"
: "${PASTEBIN_DB_START_TIMEOUT:=60}"

is_local_host() {
    case "$PASTEBIN_DB_HOST" in
        127.0.0.1 | localhost | ::1 | "") return 0 ;;
        *) return 1 ;;
    esac
}

answers() {
    command -v pg_isready >/dev/null 2>&1 || return 1
    pg_isready -q -h "$PASTEBIN_DB_HOST" -p "$PASTEBIN_DB_PORT" -t 3
}

# Prints "VERSION NAME STATUS" of the local cluster that uses $PASTEBIN_DB_PORT, if there is one.
local_cluster() {
    command -v pg_lsclusters >/dev/null 2>&1 || return 1
    pg_lsclusters --no-header 2>/dev/null | awk -v port="$PASTEBIN_DB_PORT" '$3 == port { print $1, $2, $4; found = 1; exit } END { exit !found }'
}

install_postgresql() {
    if [[ $EUID -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
        die "no PostgreSQL answers at $PASTEBIN_DB_HOST:$PASTEBIN_DB_PORT and there is no local cluster;" \
            "install it (as root: apt-get update && apt-get install -y postgresql) or point PASTEBIN_DB_HOST/" \
            "PASTEBIN_DB_PORT/PASTEBIN_DB_USER/PASTEBIN_DB_PASSWORD at a server you have"
    fi
    local apt_log="$PASTEBIN_LOG_DIR/postgres-apt.log"
    log "no local PostgreSQL cluster: installing the postgresql package with apt-get (log: $apt_log) ..."
    local t0=$SECONDS
    export DEBIAN_FRONTEND=noninteractive
    if ! { apt-get update -q && apt-get install -y -q postgresql; } >"$apt_log" 2>&1; then
        tail -n 30 "$apt_log" >&2
        die "apt-get install -y postgresql failed (full log: $apt_log)"
    fi
    log "installed in $((SECONDS - t0)) s"
}

postgresql_installed() {
    command -v pg_createcluster >/dev/null 2>&1 && compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null
}

# The package creates a 'main' cluster on the first free port; a port without a cluster (a second server
# for the chaos suite, say, which stops and starts it) gets one of its own, named after the port.
create_cluster() {
    local ver name="pastebin-$PASTEBIN_DB_PORT" create_log="$PASTEBIN_LOG_DIR/postgres-createcluster.log"
    [[ $EUID -eq 0 ]] || die "no local cluster on port $PASTEBIN_DB_PORT; creating one (pg_createcluster) needs root"
    ver="$(ls /usr/lib/postgresql | sort -V | tail -n1)"
    log "creating cluster $ver/$name on port $PASTEBIN_DB_PORT"
    pg_createcluster "$ver" "$name" -p "$PASTEBIN_DB_PORT" >"$create_log" 2>&1 \
        || { tail -n 20 "$create_log" >&2; die "pg_createcluster $ver $name -p $PASTEBIN_DB_PORT failed"; }
}

wait_ready() {
    local deadline=$((SECONDS + PASTEBIN_DB_START_TIMEOUT))
    until answers; do
        ((SECONDS < deadline)) || return 1
        sleep 0.5
    done
}

# Runs psql as the postgres OS user over the local socket (peer authentication).
psql_admin() {
    runuser -u postgres -- psql -X -q -v ON_ERROR_STOP=1 -p "$PASTEBIN_DB_PORT" -d postgres "$@"
}

ensure_role_and_database() {
    local cluster
    if ! is_local_host || [[ $EUID -ne 0 ]] || ! cluster="$(local_cluster)" || [[ "$cluster" != *online* ]]; then
        log "not a local Debian cluster we can administer as root: not creating role/database (expecting them to exist)"
        return 0
    fi
    # psql variables (:'name') quote the values, so odd passwords or names are safe.
    psql_admin -v user="$PASTEBIN_DB_USER" -v pass="$PASTEBIN_DB_PASSWORD" <<'SQL'
SELECT format('CREATE ROLE %I LOGIN CREATEDB CREATEROLE PASSWORD %L', :'user', :'pass')
 WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'user') \gexec
SELECT format('ALTER ROLE %I LOGIN CREATEDB CREATEROLE PASSWORD %L', :'user', :'pass') \gexec
SQL
    psql_admin -v user="$PASTEBIN_DB_USER" -v db="$PASTEBIN_DB_NAME" <<'SQL'
SELECT format('CREATE DATABASE %I OWNER %I', :'db', :'user')
 WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = :'db') \gexec
SQL
}

verify_login() {
    local out
    if ! out="$(PGPASSWORD="$PASTEBIN_DB_PASSWORD" PGCONNECT_TIMEOUT=5 psql -X -w -At -h "$PASTEBIN_DB_HOST" \
            -p "$PASTEBIN_DB_PORT" -U "$PASTEBIN_DB_USER" -d "$PASTEBIN_DB_NAME" -c 'select 1' 2>&1)"; then
        echo "$out" >&2
        die "cannot log in as $PASTEBIN_DB_USER to $PASTEBIN_DB_NAME at $PASTEBIN_DB_HOST:$PASTEBIN_DB_PORT with the" \
            "password over TCP. For a local Debian cluster pg_hba.conf needs a 'host all all 127.0.0.1/32" \
            "scram-sha-256' (or md5) line, which is Debian's default; for another server create the role and" \
            "database or set PASTEBIN_DB_USER/PASTEBIN_DB_PASSWORD/PASTEBIN_DB_NAME."
    fi
}

start() {
    if answers; then
        log "a server answers at $PASTEBIN_DB_HOST:$PASTEBIN_DB_PORT; using it"
    elif ! is_local_host; then
        die "no PostgreSQL answers at $PASTEBIN_DB_HOST:$PASTEBIN_DB_PORT (pg_isready); start it or fix PASTEBIN_DB_HOST/PASTEBIN_DB_PORT"
    else
        local cluster
        if ! cluster="$(local_cluster)"; then
            postgresql_installed || install_postgresql
            local_cluster >/dev/null || create_cluster
            cluster="$(local_cluster)" || die "no local cluster on port $PASTEBIN_DB_PORT after installing postgresql (see pg_lsclusters)"
        fi
        local ver name state
        read -r ver name state <<<"$cluster"
        if [[ "$state" != online* ]]; then
            log "starting local cluster $ver/$name on port $PASTEBIN_DB_PORT"
            local err
            if ! err="$(pg_ctlcluster "$ver" "$name" start 2>&1)"; then
                echo "$err" >&2
                tail -n 20 "/var/log/postgresql/postgresql-$ver-$name.log" 2>/dev/null >&2 || true
                die "pg_ctlcluster $ver $name start failed (log: /var/log/postgresql/postgresql-$ver-$name.log)"
            fi
            echo "$ver $name" >"$MARKER"
        else
            log "local cluster $ver/$name is already online"
        fi
        wait_ready || die "cluster $ver/$name did not accept connections at $PASTEBIN_DB_HOST:$PASTEBIN_DB_PORT within ${PASTEBIN_DB_START_TIMEOUT}s"
    fi
    ensure_role_and_database
    verify_login
    log "ready: postgresql://$PASTEBIN_DB_USER@$PASTEBIN_DB_HOST:$PASTEBIN_DB_PORT/$PASTEBIN_DB_NAME"
}

stop() {
    if [[ ! -f "$MARKER" ]]; then
        log "not started by this project; leaving PostgreSQL as it is"
        return 0
    fi
    local ver name
    read -r ver name <"$MARKER"
    log "stopping local cluster $ver/$name (started by this project)"
    pg_ctlcluster "$ver" "$name" stop 2>&1 | sed 's/^/  /' >&2 || true
    rm -f "$MARKER"
}

status() {
    local who="not started by this project"
    [[ -f "$MARKER" ]] && who="started by this project: cluster $(cat "$MARKER")"
    if answers; then
        echo "postgres: up at $PASTEBIN_DB_HOST:$PASTEBIN_DB_PORT ($who)"
    else
        echo "postgres: down at $PASTEBIN_DB_HOST:$PASTEBIN_DB_PORT"
    fi
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    status) status ;;
    *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
