# Shared by the CLI test scripts (sourced, not run):
#
#   . "$(dirname "$0")/lib.sh"
#   cli_init NAME          temporary directory $T (removed on exit), counters
#   expect CODE DESC -- ARGS...   run czk ARGS, want exit CODE
#   expect_out PATTERN DESC       the last command's stdout+stderr has PATTERN
#   expect_absent FILE DESC       FILE does not exist (a failed command left nothing)
#   check DESC COMMAND...         COMMAND succeeds
#   flip_byte FILE OFFSET         flip the low bit of one byte in place
#   wait_listening LOG PID        wait (15 s at most) for czk serve PID's "listening on" line
#                                 in LOG; 1, with LOG's tail printed, if it did not come
#   window_randomness DIR         DIR/post-window.json's randomness as 64 hex digits
#   cli_finish                    print the counts; exit 0 only if nothing failed
#
# With CZK_CLI_TIMES set, expect prints each command's wall time (to find
# what a script spends its time on).
# $CZK is the czk executable (the scripts' first argument).

cli_init() {
    CLI_NAME="$1"
    T=$(mktemp -d "${TMPDIR:-/tmp}/czk-$1.XXXXXX") || exit 1
    trap 'rm -rf "$T"' EXIT
    pass=0
    fail=0
}

expect() {
    want="$1"; desc="$2"; shift 3
    [ -n "${CZK_CLI_TIMES:-}" ] && t0=$(date +%s.%N)
    "$CZK" "$@" >"$T/out" 2>"$T/err"
    got=$?
    [ -n "${CZK_CLI_TIMES:-}" ] && awk -v a="$t0" -v b="$(date +%s.%N)" -v d="$desc" \
        'BEGIN { printf "  [%6.1f s] %s\n", b - a, d }'
    if [ "$got" -eq "$want" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $desc: czk $* exited $got, wanted $want"
        sed 's/^/  stderr: /' "$T/err" | head -5
    fi
}

expect_out() {
    if grep -q -- "$1" "$T/out" "$T/err"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $2: output lacks '$1'"
        sed 's/^/  stdout: /' "$T/out" | tail -8
        sed 's/^/  stderr: /' "$T/err" | head -5
    fi
}

expect_absent() {
    if [ -e "$1" ]; then
        fail=$((fail + 1))
        echo "FAIL: $2: $1 exists"
        rm -f "$1"
    else
        pass=$((pass + 1))
    fi
}

check() {
    desc="$1"; shift
    if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $desc"; fi
}

flip_byte() {
    b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
    printf "$(printf '\\%03o' $((b ^ 1)))" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

wait_listening() {
    i=0
    while ! grep -q "czk serve: info: listening on" "$1" 2>/dev/null && [ $i -lt 300 ] && kill -0 "$2" 2>/dev/null; do
        sleep 0.05
        i=$((i + 1))
    done
    grep -q "czk serve: info: listening on" "$1" && return 0
    echo "FAIL: czk serve did not start"
    sed 's/^/  serve: /' "$1" | tail -5
    return 1
}

window_randomness() {
    # shellcheck disable=SC2046
    printf '%02x' $(tr -d ' \n' <"$1/post-window.json" | sed 's/.*"randomness":\[\([0-9,]*\)\].*/\1/' | tr ',' ' ')
}

cli_finish() {
    echo "$CLI_NAME: $pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit $?
}
