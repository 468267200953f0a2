#!/bin/sh
# Builds the libFuzzer targets and runs each one (Fuzz/README.md):
#   Fuzz/run.sh --runs N      N executions per target (make fuzz: 1 000 000)
#   Fuzz/run.sh --seconds S   S seconds per target (make fuzz-ci: 20)
# Optional further arguments name the targets to run (default: all).
# Findings go to Fuzz/.build/artifacts/<target>/, logs to Fuzz/.build/fuzz-<target>.log;
# the exit status is non-zero when any target found a crash, a leak or a hang.
set -eu
cd "$(dirname "$0")"
case "${1:-}" in
    --runs) limit="-runs=$2" ;;
    --seconds) limit="-max_total_time=$2" ;;
    *) echo "usage: $0 --runs N | --seconds S [target ...]" >&2; exit 2 ;;
esac
shift 2
targets=${*:-json-list album-record manifest checksums plist configuration bundle library-file}
# ld.gold fails on ASan-instrumented Swift objects ("internal error in format_file_lineno"); lld links them.
swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld
export LSAN_OPTIONS="suppressions=$(pwd)/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
status=0
for target in $targets; do
    mkdir -p ".build/corpus/$target" ".build/artifacts/$target"
    log=".build/fuzz-$target.log"
    # -timeout: one input running longer is a hang; -rss_limit_mb: memory must stay bounded.
    if .build/release/fuzz-"$target" "$limit" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix=".build/artifacts/$target/" ".build/corpus/$target" "Corpus/$target" > "$log" 2>&1; then
        result=ok
    else
        result="FAILED (see Fuzz/$log)"
        status=1
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log")
    seconds=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log")
    echo "fuzz-$target: $result: ${runs:-?} executions in ${seconds:-?} s (${speed:-?}/s), peak RSS ${rss:-?} MB"
done
exit $status
