#!/usr/bin/env bash
# Issue 5's "must show" numbers: for a library of 100 000 albums on each of json, plist,
# bundle, sqlite and postgres — time to open and list, median and p99 of one add / remove /
# update through the Library API, and the size on disk. Prints a Markdown table for
# BENCHMARKS.md. Starts the throwaway PostgreSQL server (scripts/postgres-server.sh).
# Usage: Benchmarks/storage.sh [ALBUMS] [OPERATIONS] [FILE_OPERATIONS]
#   (whole-file backends rewrite the library on every change, so they get fewer operations)
set -euo pipefail
cd "$(dirname "$0")/.."
albums=${1:-100000}
operations=${2:-200}
file_operations=${3:-20}
scratch=${SCRATCH:-.build}
swift build --scratch-path "$scratch" -c release --product storage-bench >&2
bench="$scratch/release/storage-bench"
work=$(mktemp -d /tmp/albumkit-storage-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

admin=$(scripts/postgres-server.sh start)
port=${admin##*:}; port=${port%%/*}
database="albumkit_bench_$$"
psql_admin=(psql -q -At -h 127.0.0.1 -p "$port" -U postgres -d postgres)
"${psql_admin[@]}" -c "CREATE DATABASE $database"

echo "| backend | albums | fill (s) | open + list (s) | add median / p99 (ms) | remove median / p99 (ms) | update median / p99 (ms) | size (MB) |"
echo "|---|---|---|---|---|---|---|---|"
for backend in json plist bundle sqlite postgres; do
    count=$file_operations
    case $backend in sqlite | postgres) count=$operations ;; esac
    IFS='|' read -r name n fill open add_m add_p remove_m remove_p update_m update_p size < <(
        ALBUMKIT_BENCH_URL="postgres://postgres@127.0.0.1:$port/$database" "$bench" "$backend" "$work/$backend" "$albums" "$count")
    if [ "$backend" = postgres ]; then
        size=$("${psql_admin[@]}" -c "SELECT round(pg_database_size('$database') / 1e6, 1)")
    fi
    echo "| $name | $n | $fill | $open | $add_m / $add_p | $remove_m / $remove_p | $update_m / $update_p | $size |" | tr -s ' '
done
"${psql_admin[@]}" -c "DROP DATABASE $database"
