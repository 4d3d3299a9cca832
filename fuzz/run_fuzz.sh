#!/bin/sh
# Run libFuzzer harnesses for a while each and summarise.
#
# Usage: fuzz/run_fuzz.sh BUILD_DIR SECONDS [TARGET...]
#   BUILD_DIR  the fuzz build (cmake -S fuzz -B BUILD_DIR -DCMAKE_C_COMPILER=clang-14)
#   SECONDS    -max_total_time per target
#   TARGET     default: every fuzz_* binary in BUILD_DIR
# Seeds come from BUILD_DIR/czk_fuzz_seeds (written once to BUILD_DIR/seeds);
# the growing corpus lives in BUILD_DIR/corpus/<target>, crash inputs in
# BUILD_DIR/artifacts/<target>/, logs in BUILD_DIR/logs/<target>.log.
# Prints one line per target: runs, exec/s, coverage, features, corpus size,
# and CRASH when libFuzzer found one. Exit status 1 when any target crashed.
set -eu
B="$1"
T="$2"
shift 2
[ -x "$B/czk_fuzz_seeds" ] || { echo "run_fuzz: $B/czk_fuzz_seeds missing: build $B first" >&2; exit 2; }
if [ ! -d "$B/seeds" ]; then
    OMP_NUM_THREADS=1 "$B/czk_fuzz_seeds" "$B/seeds" >/dev/null
fi
if [ $# -eq 0 ]; then
    set -- $(cd "$B" && ls fuzz_* | sed 's/^fuzz_//')
fi
rc=0
for t in "$@"; do
    mkdir -p "$B/corpus/$t" "$B/artifacts/$t" "$B/logs"
    log="$B/logs/$t.log"
    set +e
    OMP_NUM_THREADS=1 ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
        UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        "$B/fuzz_$t" -max_total_time="$T" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$B/artifacts/$t/" "$B/corpus/$t" "$B/seeds/$t" >"$log" 2>&1
    r=$?
    set -e
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
    eps=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    cov=$(echo "$last" | grep -o 'cov: [0-9]*' | grep -o '[0-9]*' || true)
    ft=$(echo "$last" | grep -o 'ft: [0-9]*' | grep -o '[0-9]*' || true)
    corp=$(echo "$last" | grep -o 'corp: [0-9]*/[0-9a-zA-Z]*' | sed 's/corp: //' || true)
    status=ok
    if [ $r -ne 0 ] || ls "$B/artifacts/$t/" | grep -q .; then
        status="CRASH (exit $r; see $log, $B/artifacts/$t/)"
        rc=1
    fi
    printf '%-22s runs %-9s exec/s %-6s cov %-5s ft %-6s corpus %-12s %s\n' "$t" "${runs:-?}" "${eps:-?}" \
        "${cov:-?}" "${ft:-?}" "${corp:-?}" "$status"
done
exit $rc
