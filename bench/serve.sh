#!/bin/sh
# czk serve against separate czk prove processes: N 2KiB PoRep requests
# arriving at once, through one daemon (czk client prove, the gRPC Prove
# Curio sends) or as N czk prove processes started together.
#
#   bench/serve.sh [-n REQUESTS] [-r ROUNDS] [-t THREADS]
#   bench/serve.sh -w K [-s 2KiB|32GiB] [-n REQUESTS] [-t THREADS]
#
# -w K: WinningPoSt latency instead (the CRITICAL priority at work): K
# WinningPoSt proofs (2KiB: the real vanilla proof of tests/filecoin/vectors;
# -s 32GiB: one from czk gen-post, with czk setup's 32GiB WinningPoSt
# parameters, about a minute to make once) one after another on the idle
# daemon, then again while REQUESTS PoRep jobs (NORMAL) are queued; medians
# and max of both, and the PoRep jobs' completion. Run three times: with
# the daemon's defaults (the critical lane: a WinningPoSt starts at once
# beside the PoRep partition in progress, whose workers run at nice +10,
# [scheduler] background_nice), with the lane but background_nice = 0 (the
# two share the cores evenly), and without the lane ([scheduler]
# critical_lane = false: it waits for the synthesis and prover pass in
# progress, then goes ahead of every queued PoRep partition).
#
# The parameters are made once by czk setup --param-cache (2KiB PoRep, about
# 3 minutes here) in czk's cache directory and reused; every request has its
# own C1 (czk gen-c1 --seed i). The daemon is started once and warmed with
# one request, so that its parameters are resident, as they are in a
# daemon's steady state; each czk prove process reads them itself (pinned
# by the checksum sidecar, as a production czk prove does). Rounds alternate
# daemon / processes. Per round: the wall time until all N proofs are
# written, throughput (proofs per minute), each request's latency (median,
# max). Every proof is checked by czk verify; a round whose proofs do not
# verify fails the script. Prints the runs, then medians over rounds and the
# ratio processes / daemon.
set -eu
N=8
ROUNDS=3
WINNING=0
WSIZE=2KiB
THREADS=$(nproc)
while [ $# -gt 0 ]; do
    case "$1" in
    -n) N="$2"; shift 2 ;;
    -r) ROUNDS="$2"; shift 2 ;;
    -t) THREADS="$2"; shift 2 ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    -w) WINNING="$2"; shift 2 ;;
    -s) WSIZE="$2"; shift 2 ;;
    *) echo "bench/serve.sh: unknown argument '$1'" >&2; sed -n '2,30p' "$0" >&2; exit 2 ;;
    esac
done
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CZK="${CZK:-$ROOT/build/czk}"
[ -x "$CZK" ] || { echo "bench/serve.sh: no czk at $CZK (make build, or CZK=...)" >&2; exit 1; }
CACHE="${CZK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/czk}"
P="$CACHE/bench-serve-params"
W=$(mktemp -d "${TMPDIR:-/tmp}/czk-bench-serve.XXXXXX")
SPID=""
trap '[ -n "$SPID" ] && kill "$SPID" 2>/dev/null; rm -rf "$W"' EXIT
now() { date +%s.%N; }

if ! ls "$P"/v28-stacked-proof-of-replication-*.params >/dev/null 2>&1; then
    echo "making 2KiB PoRep parameters in $P (once)"
    "$CZK" setup --circuit porep --sector-size 2KiB --param-cache "$P" --quiet
fi
i=1
while [ $i -le "$N" ]; do
    "$CZK" gen-c1 --sector-size 2KiB --seed "$i" -o "$W/c1-$i.json" --quiet
    i=$((i + 1))
done

SOCK="$W/czk.sock"
start_daemon() { # start_daemon [CONFIG]: a daemon on $SOCK, warmed with one PoRep request
    rm -f "$SOCK"
    # shellcheck disable=SC2086
    "$CZK" serve --listen "unix://$SOCK" --param-cache "$P" --threads "$THREADS" --log-level warn ${1:+-c "$1"} \
        2>"$W/serve.log" &
    SPID=$!
    i=0
    until [ -S "$SOCK" ]; do
        sleep 0.1; i=$((i + 1))
        [ $i -lt 300 ] && kill -0 "$SPID" 2>/dev/null || { echo "czk serve did not start:" >&2; cat "$W/serve.log" >&2; exit 1; }
    done
    "$CZK" client prove --addr "unix://$SOCK" --c1 "$W/c1-1.json" --request-id warm -o "$W/warm.proof" --quiet
}
stop_daemon() {
    kill -TERM "$SPID"
    wait "$SPID" || true
    SPID=""
}
start_daemon

if [ "$WINNING" -gt 0 ]; then
    case "$WSIZE" in
    2KiB)
        V="$ROOT/tests/filecoin/vectors"; WPROOF=0
        if ! ls "$P"/v28-proof-of-spacetime-fallback-*-3ea05428*.params >/dev/null 2>&1; then
            "$CZK" setup --circuit winning-post --sector-size 2KiB --param-cache "$P" --quiet
        fi ;;
    32GiB)
        V="$W/win32"; WPROOF=3
        "$CZK" gen-post --kind winning --sector-size 32GiB --seed 9 -o "$V" --quiet
        if ! ls "$P"/v28-proof-of-spacetime-fallback-*-559e581f*.params >/dev/null 2>&1; then
            echo "making 32GiB WinningPoSt parameters in $P (once)"
            "$CZK" setup --circuit winning-post --sector-size 32GiB --param-cache "$P" --quiet
        fi ;;
    *) echo "bench/serve.sh: -s wants 2KiB or 32GiB" >&2; exit 2 ;;
    esac
    RND=$(python3 -c 'import json, sys; print(bytes(json.load(open(sys.argv[1]))["randomness"]).hex())' \
        "$V/post-winning.json")
    MINER=$(python3 -c 'import json, sys
p = bytes(json.load(open(sys.argv[1]))["prover_id"]); m, s = 0, 0
for b in p:
    m |= (b & 0x7f) << s; s += 7
    if b < 0x80: break
print(m)' "$V/post-winning.json")
    winning() { # winning ID: one WinningPoSt through the daemon, verified; prints its latency
        w0=$(now)
        "$CZK" client prove --addr "unix://$SOCK" --kind winning-post --registered-proof "$WPROOF" --miner-id "$MINER" \
            --randomness "$RND" --vanilla "$V/vanilla-winning.bin" --request-id "$1" -o "$W/$1.proof" --quiet
        w1=$(now)
        "$CZK" verify --post winning --vanilla "$V" --param-cache "$P" --proof "$W/$1.proof" >/dev/null ||
            { echo "WinningPoSt $1 does not verify" >&2; exit 1; }
        awk -v a="$w0" -v b="$w1" 'BEGIN {printf "%.3f\n", b - a}'
    }
    stats() { sort -n | awk '{v[NR] = $1} END {m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                                               printf "median %.2f s, max %.2f s (%d proofs)", m, v[NR], NR}'; }
    echo "$("$CZK" version | head -1), $("$CZK" version | sed -n 's/^cpu: *//p'); WinningPoSt $WSIZE latency, $THREADS threads"
    printf '[scheduler]\nbackground_nice = 0\n' >"$W/nonice.toml"
    printf '[scheduler]\ncritical_lane = false\n' >"$W/nolane.toml"
    for lane in on on-nice0 off; do
        case "$lane" in
        on-nice0) stop_daemon; start_daemon "$W/nonice.toml" ;;
        off) stop_daemon; start_daemon "$W/nolane.toml" ;;
        esac
        winning "warm-w-$lane" >/dev/null
        k=1; : >"$W/idle"
        while [ $k -le "$WINNING" ]; do winning "idle-$lane-$k" >>"$W/idle"; k=$((k + 1)); done
        echo "critical lane $lane, idle daemon:                 $(stats <"$W/idle")"
        i=1
        while [ $i -le "$N" ]; do
            "$CZK" client submit --addr "unix://$SOCK" --c1 "$W/c1-$i.json" --request-id "q-$lane-$i" \
                --priority normal --quiet >/dev/null
            i=$((i + 1))
        done
        sleep 2 # the first PoRep partition in the prover
        t0=$(now)
        k=1; : >"$W/busy"
        while [ $k -le "$WINNING" ]; do winning "busy-$lane-$k" >>"$W/busy"; k=$((k + 1)); done
        echo "critical lane $lane, $N PoRep jobs queued (NORMAL): $(stats <"$W/busy")"
        i=1
        while [ $i -le "$N" ]; do
            "$CZK" client await --addr "unix://$SOCK" "q-$lane-$i" -o "$W/q-$i.proof" --quiet
            "$CZK" verify --param-cache "$P" --c1 "$W/c1-$i.json" --proof "$W/q-$i.proof" >/dev/null ||
                { echo "PoRep q-$lane-$i does not verify" >&2; exit 1; }
            i=$((i + 1))
        done
        t1=$(now)
        awk -v a="$t0" -v b="$t1" -v n="$N" 'BEGIN {printf "  the %d PoRep jobs: all verified, done %.1f s after the first WinningPoSt\n", n, b - a}'
    done
    exit 0
fi

# one request: its latency into $W/lat-MODE-ROUND
request() { # request MODE ROUND I
    t0=$(now)
    if [ "$1" = daemon ]; then
        "$CZK" client prove --addr "unix://$SOCK" --c1 "$W/c1-$3.json" --request-id "r$2-$3" -o "$W/p-$3.proof" --quiet
    else
        "$CZK" prove --c1 "$W/c1-$3.json" --param-cache "$P" --threads "$THREADS" -o "$W/p-$3.proof" --quiet
    fi
    t1=$(now)
    awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f\n", b - a}' >>"$W/lat-$1-$2"
}

round() { # round MODE R: prints wall, proofs/min, latency median, max
    rm -f "$W"/p-*.proof "$W/lat-$1-$2"
    t0=$(now)
    i=1
    pids=""
    while [ $i -le "$N" ]; do
        request "$1" "$2" "$i" &
        pids="$pids $!"
        i=$((i + 1))
    done
    for p in $pids; do wait "$p" || { echo "a $1 request failed" >&2; exit 1; }; done
    t1=$(now)
    i=1
    while [ $i -le "$N" ]; do
        "$CZK" verify --param-cache "$P" --c1 "$W/c1-$i.json" --proof "$W/p-$i.proof" >/dev/null ||
            { echo "$1 round $2: proof $i does not verify" >&2; exit 1; }
        i=$((i + 1))
    done
    sort -n "$W/lat-$1-$2" | awk -v a="$t0" -v b="$t1" -v n="$N" '{v[NR] = $1}
        END {w = b - a; m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
             printf "%.2f %.1f %.2f %.2f\n", w, 60 * n / w, m, v[NR]}'
}

echo "$("$CZK" version | head -1), $("$CZK" version | sed -n 's/^cpu: *//p'); $N concurrent 2KiB PoRep requests, $THREADS threads, $ROUNDS rounds"
printf '%-10s %5s %9s %11s %14s %11s\n' mode round "wall s" "proofs/min" "latency med s" "latency max"
r=1
: >"$W/rows"
while [ $r -le "$ROUNDS" ]; do
    for mode in daemon processes; do
        row=$(round "$mode" "$r")
        echo "$mode $row" >>"$W/rows"
        # shellcheck disable=SC2086
        printf '%-10s %5d %9.2f %11.1f %14.2f %11.2f\n' "$mode" "$r" $row
    done
    r=$((r + 1))
done
awk '{w[$1] = w[$1] " " $2; t[$1] = t[$1] " " $3; l[$1] = l[$1] " " $4}
     function med(s,   a, n, i, j, x) { n = split(s, a, " ")
         for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
         return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
     END { printf "medians: daemon %.2f s wall, %.1f proofs/min, latency %.2f s; processes %.2f s, %.1f proofs/min, %.2f s\n",
               med(w["daemon"]), med(t["daemon"]), med(l["daemon"]), med(w["processes"]), med(t["processes"]), med(l["processes"])
           printf "processes / daemon: wall %.2fx, median latency %.2fx\n",
               med(w["processes"]) / med(w["daemon"]), med(l["processes"]) / med(l["daemon"]) }' "$W/rows"
grep -v "^czk serve: info" "$W/serve.log" || true
