#!/bin/sh
# The czk command's contract: exit codes, --help, usage errors.
# Usage: cli_smoke.sh /path/to/czk
set -u
CZK="$1"
. "$(dirname "$0")/lib.sh"
cli_init smoke

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

expect 2 "bench pipeline --pce with a bad mode" -- bench pipeline --pce sometimes
expect_out "--pce wants up to 3 of off, on, auto" "bad --pce mode named"
expect 2 "bench pipeline --pce with too many runs" -- bench pipeline --pce off,on --batch 1,2,3,4,5
expect 2 "prove --pce with a bad mode" -- prove --c1 x.json -o y.bin --pce sometimes
expect_out "--pce wants on, off or auto" "prove names the bad --pce mode"

cli_finish
