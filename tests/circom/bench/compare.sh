#!/bin/sh
# czk vs snarkjs `groth16 prove` on the same zkey and witness, same machine:
# wall and CPU (user + sys, all threads) of each whole command, interleaved
# runs, medians and ratios; then `czk bench circom` for czk's load and prove
# stages (wall and CPU). Every czk proof is checked: `czk circom prove`
# verifies its proof before writing it, and snarkjs verifies the last one.
# Usage: compare.sh ZKEY WTNS VK_JSON CZK [RUNS] [THREADS]
#   (VK_JSON from `snarkjs zkey export verificationkey ZKEY vk.json`; RUNS
#   default 3; THREADS default: all cores, what snarkjs uses).
set -eu
ZKEY="$1"; WTNS="$2"; VK="$3"; CZK="$4"; RUNS="${5:-3}"; THREADS="${6:-$(nproc)}"
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
SNARKJS="$ROOT/node_modules/.bin/snarkjs"
T="$(mktemp -d)"
trap 'rm -rf "$T"' EXIT
[ -x "$SNARKJS" ] || { echo "compare.sh: $SNARKJS missing (scripts/install-npm-deps)" >&2; exit 1; }
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "compare.sh: GNU time (/usr/bin/time) missing" >&2; exit 1; }

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

echo "# $(date -u '+%F %T') UTC, $(nproc) cores, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# czk --threads $THREADS; snarkjs (node worker threads: one per core)"
i=0
while [ "$i" -lt "$RUNS" ]; do
    $TIME -f "%e %U %S" -o "$T/s.$i" "$SNARKJS" groth16 prove "$ZKEY" "$WTNS" "$T/sp.json" "$T/sq.json" >/dev/null
    $TIME -f "%e %U %S" -o "$T/c.$i" "$CZK" circom prove --zkey "$ZKEY" --wtns "$WTNS" --no-subgroup-check \
        --threads "$THREADS" --json -o "$T/cp.json" --public "$T/cq.json" >"$T/cj.$i"
    $TIME -f "%e %U %S" -o "$T/k.$i" "$CZK" circom prove --zkey "$ZKEY" --wtns "$WTNS" --no-subgroup-check \
        --threads 1 --json -o "$T/kp.json" --public "$T/kq.json" >"$T/kj.$i"
    printf "run %d: snarkjs %s | czk %s | czk 1 thread %s (wall user sys)\n" "$i" "$(cat "$T/s.$i")" \
        "$(cat "$T/c.$i")" "$(cat "$T/k.$i")"
    i=$((i + 1))
done
"$SNARKJS" groth16 verify "$VK" "$T/cq.json" "$T/cp.json" | grep -q "OK!" ||
    { echo "compare.sh: snarkjs does not verify czk's proof" >&2; exit 1; }
cmp -s "$T/cq.json" "$T/sq.json" || { echo "compare.sh: public.json differs from snarkjs'" >&2; exit 1; }
echo "snarkjs verifies czk's proof; czk's public.json equals snarkjs'"

sw=$(cat "$T"/s.* | awk '{print $1}' | median); sc=$(cat "$T"/s.* | awk '{print $2 + $3}' | median)
cw=$(cat "$T"/c.* | awk '{print $1}' | median); cc=$(cat "$T"/c.* | awk '{print $2 + $3}' | median)
kw=$(cat "$T"/k.* | awk '{print $1}' | median); kc=$(cat "$T"/k.* | awk '{print $2 + $3}' | median)
# prove-only (czk_circom_prove) from czk's --json output
pw=$(cat "$T"/cj.* | sed 's/.*"prove_s":\([0-9.]*\).*/\1/' | median)
pc=$(cat "$T"/cj.* | sed 's/.*"prove_cpu_s":\([0-9.]*\).*/\1/' | median)
lw=$(cat "$T"/cj.* | sed 's/.*"load_s":\([0-9.]*\).*/\1/' | median)
lc=$(cat "$T"/cj.* | sed 's/.*"load_cpu_s":\([0-9.]*\).*/\1/' | median)
p1w=$(cat "$T"/kj.* | sed 's/.*"prove_s":\([0-9.]*\).*/\1/' | median)
p1c=$(cat "$T"/kj.* | sed 's/.*"prove_cpu_s":\([0-9.]*\).*/\1/' | median)
echo
echo "| median of $RUNS | wall s | CPU s | snarkjs/czk wall | snarkjs/czk CPU |"
echo "| --- | --- | --- | --- | --- |"
echo "| snarkjs groth16 prove (whole command) | $sw | $sc | | |"
awk -v sw="$sw" -v sc="$sc" -v a="$cw" -v b="$cc" -v c="$pw" -v d="$pc" -v e="$lw" -v f="$lc" \
    -v g="$kw" -v h="$kc" -v i="$p1w" -v j="$p1c" -v t="$THREADS" 'BEGIN {
    printf "| czk circom prove, %s threads (whole command) | %.3f | %.3f | %.1fx | %.1fx |\n", t, a, b, sw / a, sc / b
    printf "| czk prove only (czk_circom_prove), %s threads | %.3f | %.3f | %.1fx | %.1fx |\n", t, c, d, sw / c, sc / d
    printf "| czk zkey load, no subgroup check | %.3f | %.3f | | |\n", e, f
    printf "| czk circom prove, 1 thread (whole command) | %.3f | %.3f | %.1fx | %.1fx |\n", g, h, sw / g, sc / h
    printf "| czk prove only, 1 thread | %.3f | %.3f | %.1fx | %.1fx |\n", i, j, sw / i, sc / j
}'
echo
"$CZK" bench circom --zkey "$ZKEY" --wtns "$WTNS" --no-subgroup-check -i "$RUNS" --threads "$THREADS"
