#!/usr/bin/env bash
# A throwaway PostgreSQL server on 127.0.0.1 for the tests (.ci/run) and for trying the
# `postgres` backend (`make postgres`).
#
#   scripts/postgres-server.sh start    install PostgreSQL 15 if absent, init and start; prints the URL
#   scripts/postgres-server.sh stop     stop it (the data folder stays until the next `start --fresh`)
#   scripts/postgres-server.sh status   say whether it runs
#   scripts/postgres-server.sh url      print the superuser URL (for ALBUMKIT_TEST_POSTGRES_URL)
#   scripts/postgres-server.sh run COMMAND...
#                                       run COMMAND with ALBUMKIT_TEST_POSTGRES_URL set (`make test`):
#                                       as given when it is, else to this server, started for
#                                       COMMAND and stopped after (unless it was running already)
#
# `start --fresh` wipes the data folder first (CI does this). Settings, from the environment:
#   ALBUMKIT_PG_PORT  port on 127.0.0.1 (default 54329, away from a system server's 5432)
#   ALBUMKIT_PG_DIR   data, socket and log folder (default ${TMPDIR:-/tmp}/albumkit-postgres)
#
# Authentication: `trust` for every role on 127.0.0.1, except role `albumkit_password`
# (password `albumkit-secret`), which must give its password — the tests use it to check
# what a wrong password looks like. initdb refuses to run as root, so as root every server
# command runs as the `postgres` user through runuser.
set -euo pipefail

port=${ALBUMKIT_PG_PORT:-54329}
dir=${ALBUMKIT_PG_DIR:-${TMPDIR:-/tmp}/albumkit-postgres}
bin=/usr/lib/postgresql/15/bin
url="postgres://postgres@127.0.0.1:${port}/postgres"

as_postgres() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

install_server() {
    [ -x "$bin/initdb" ] && return
    echo "postgres-server: installing postgresql-15 from Debian" >&2
    if [ "$(id -u)" = 0 ]; then apt_get=(apt-get); else apt_get=(sudo apt-get); fi
    export DEBIAN_FRONTEND=noninteractive
    "${apt_get[@]}" update -qq
    # policy-rc.d keeps the package's own cluster from starting on 5432.
    "${apt_get[@]}" install -y -qq --no-install-recommends postgresql-15 postgresql-client-15 >/dev/null
}

running() { [ -f "$dir/data/postmaster.pid" ] && as_postgres "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; }

start() {
    install_server
    if running; then
        echo "postgres-server: already running on 127.0.0.1:$port" >&2
        echo "$url"
        return
    fi
    [ "${1:-}" = "--fresh" ] && rm -rf "$dir"
    mkdir -p "$dir/socket"
    if [ "$(id -u)" = 0 ]; then chown -R postgres: "$dir"; fi
    if [ ! -f "$dir/data/PG_VERSION" ]; then
        as_postgres "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log"
        cat >>"$dir/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir/socket'
max_connections = 300
CONF
        cat >"$dir/data/pg_hba.conf" <<HBA
local all all                          trust
host  all albumkit_password 127.0.0.1/32 scram-sha-256
host  all all               127.0.0.1/32 trust
HBA
        fresh=1
    fi
    as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null
    if [ "${fresh:-0}" = 1 ]; then
        as_postgres psql -q -h "$dir/socket" -p "$port" -U postgres -d postgres \
            -c "CREATE ROLE albumkit_password LOGIN PASSWORD 'albumkit-secret'" >/dev/null
    fi
    echo "postgres-server: running on 127.0.0.1:$port (data in $dir); export ALBUMKIT_TEST_POSTGRES_URL=$url" >&2
    echo "$url"
}

stop() {
    if running; then
        as_postgres "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
        echo "postgres-server: stopped" >&2
    else
        echo "postgres-server: not running" >&2
    fi
}

run() {
    if [ -n "${ALBUMKIT_TEST_POSTGRES_URL:-}" ]; then exec "$@"; fi
    # Stopped however COMMAND ends (a failure, ^C), but only if this run started it.
    if ! running; then
        trap stop EXIT
        trap 'exit 130' INT
        trap 'exit 143' TERM
    fi
    ALBUMKIT_TEST_POSTGRES_URL="$(start)"
    export ALBUMKIT_TEST_POSTGRES_URL
    "$@"
}

case "${1:-}" in
    start) start "${2:-}" ;;
    stop) stop ;;
    status) if running; then echo "running on 127.0.0.1:$port"; else echo "not running"; exit 3; fi ;;
    url) echo "$url" ;;
    run) shift; run "$@" ;;
    *) echo "usage: $0 start [--fresh] | stop | status | url | run COMMAND..." >&2; exit 2 ;;
esac
