#!/bin/sh
# The czk command's contract: exit codes, --help, usage errors.
# Usage: cli_smoke.sh /path/to/czk
set -u
CZK="$1"
T="$(mktemp -d "${TMPDIR:-/tmp}/czk-smoke.XXXXXX")" || exit 1
trap 'rm -rf "$T"' EXIT
pass=0
fail=0

expect() { # expect CODE DESCRIPTION -- ARGS...
    want="$1"; desc="$2"; shift 3
    "$CZK" "$@" >"$T/out" 2>"$T/err"
    got=$?
    if [ "$got" -eq "$want" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $desc: czk $* exited $got, wanted $want"
        sed 's/^/  stderr: /' "$T/err" | head -5
    fi
}

expect_out() { # expect_out PATTERN DESCRIPTION (on the last command's stdout+stderr)
    if grep -q -- "$1" "$T/out" "$T/err"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $2: output lacks '$1'"
    fi
}

expect 2 "no command" --
expect 0 "top-level help" -- --help
expect_out "commands:" "help lists commands"
expect 2 "unknown command" -- frobnicate
expect_out "unknown command 'frobnicate'" "unknown command named"
expect 0 "version" -- version
expect_out "ADX" "version shows CPU features"
expect_out "threads:" "version shows threads"
expect 0 "version json" -- version --json
expect_out '"field_impl"' "version json has the field implementation"
expect 2 "unknown flag" -- version --bogus
expect_out "unknown option '--bogus'" "unknown flag named"
expect 2 "bad thread count" -- version --threads zero
expect 2 "missing flag value" -- version --threads
expect 2 "stray argument" -- version extra
expect 0 "version help" -- version --help
expect_out "usage: czk version" "version usage"
expect 2 "bench without name" -- bench
expect 0 "bench help" -- bench --help
expect 2 "unknown bench" -- bench nosuch

# Every registered command and benchmark answers --help with exit 0.
for c in $("$CZK" --help | sed -n 's/^  \([a-z][a-z0-9-]*\) .*/\1/p'); do
    [ "$c" = bench ] && continue
    expect 0 "$c --help" -- "$c" --help
    expect_out "usage: czk $c" "$c usage text"
    expect 2 "$c with an unknown flag" -- "$c" --no-such-flag
done
for b in $("$CZK" bench --help | sed -n 's/^  \([a-z][a-z0-9-]*\) .*/\1/p'); do
    expect 0 "bench $b --help" -- bench "$b" --help
    expect_out "usage: czk bench $b" "bench $b usage text"
    expect 2 "bench $b with an unknown flag" -- bench "$b" --no-such-flag
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
