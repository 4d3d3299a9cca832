#!/usr/bin/env bash
# Runs one ctest entry: timed.sh NAME COMMAND [ARGS...].
# With CZK_TEST_TIMES=FILE set, appends one line to FILE when the command ends:
#   NAME WALL_S USER_S SYS_S EXIT
# (user and system CPU of the command and every process it waited for), which
# tests/timings.sh turns into the per-test table of tests/README.md.
# Without it the command simply runs.
name=$1
shift
if [ -z "${CZK_TEST_TIMES:-}" ]; then
  exec "$@"
fi
t0=$(date +%s.%N)
"$@"
rc=$?
t1=$(date +%s.%N)
# the second line of `times` (run here, not in a subshell): the children's
# user and system time, as 1m2.345s
tf=$(mktemp)
times > "$tf"
ct=$(sed -n 2p "$tf")
rm -f "$tf"
secs() { awk -v t="$1" 'BEGIN { split(t, p, "m"); sub("s", "", p[2]); printf "%.2f", p[1] * 60 + p[2] }'; }
u=$(secs "${ct%% *}")
s=$(secs "${ct##* }")
w=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
printf '%s %s %s %s %d\n' "$name" "$w" "$u" "$s" "$rc" >> "$CZK_TEST_TIMES"
exit $rc
