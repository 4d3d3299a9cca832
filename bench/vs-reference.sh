#!/bin/sh
# czk side by side with Filecoin's reference (bellpepper synthesis, bellperson
# C2, filecoin-proofs' parameter loading), alternating runs, same threads.
#
#   bench/vs-reference.sh [-n RUNS] [-t THREADS] [-o DIR] CASE...
#
# CASE: synth-2k synth-8m synth-512m synth-32g c2-2k c2-8m
#   synth-*   one partition's synthesis: czk bench synth-only (timed region and
#             the whole command) against czk-oracle synth-bench (the circuit
#             seal_commit_phase2 builds, into a constraint system doing
#             bellperson's prover work); real seals for 2k/8m/512m, czk gen-c1
#             for 32g. czk runs at 1 thread and at THREADS, the reference on
#             its one thread (bellpepper synthesizes a circuit sequentially);
#             czk's pre-compiled path too (--pce on: witness + mat-vec, its
#             matrices cached by the first run), at 1 thread.
#   c2-*      the whole C2 of a real sector: czk prove --param-cache against
#             czk-oracle prove-c2 (bellperson, CPU), both with THREADS threads,
#             both reading filecoin-proofs' parameters and verifying the proof.
#             Parameter loading is reported beside it: czk's read (pinned by its
#             sidecar after the first full validation) as czk prove prints it,
#             and czk-oracle load-params (bellperson's mapped parameters, which
#             defer decoding the points to the proof itself).
#
# Prints every run, then per case the medians (wall and CPU seconds) and the
# ratio reference / czk. Every czk run checks its own result (a*b = c, or the
# proof verifies); the reference's C2 verifies its proof itself.
set -eu
RUNS=3
THREADS=$(nproc)
OUTDIR=""
while [ $# -gt 0 ]; do
    case "$1" in
    -n) RUNS="$2"; shift 2 ;;
    -t) THREADS="$2"; shift 2 ;;
    -o) OUTDIR="$2"; shift 2 ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] || { sed -n '2,24p' "$0"; exit 2; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CZK="${CZK:-$ROOT/build/czk}"
CACHE="${CZK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/czk}"
export CARGO_TARGET_DIR="$CACHE/oracle-target"
ORACLE="$CARGO_TARGET_DIR/release/czk-oracle"
export FIL_PROOFS_PARAMETER_CACHE="$CACHE/oracle-params"
[ -x "$CZK" ] || { echo "vs-reference: $CZK missing (make build)"; exit 1; }
[ -x /usr/bin/time ] || { echo "vs-reference: needs GNU time (apt-get install time)"; exit 1; }
if [ ! -x "$ORACLE" ]; then
    cargo build --release --locked --manifest-path "$ROOT/tests/oracle/Cargo.toml" >&2
fi
W="${OUTDIR:-$(mktemp -d "${TMPDIR:-/tmp}/czk-vsref.XXXXXX")}"
mkdir -p "$W"
echo "# czk $("$CZK" version 2>/dev/null | head -1)"
echo "# cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cpus, threads $THREADS, runs $RUNS"
echo "# reference: $(grep -A1 'name = "filecoin-proofs"' "$ROOT/tests/oracle/Cargo.lock" | tail -1 | tr -d ' '), bellperson $(grep -A1 'name = "bellperson"' "$ROOT/tests/oracle/Cargo.lock" | tail -1 | sed 's/.*"\(.*\)"/\1/')"

size_of() { case "$1" in 2k) echo 2KiB ;; 8m) echo 8MiB ;; 512m) echo 512MiB ;; 32g) echo 32GiB ;; esac; }

sector() { # sector TAG -> prints the C1 path, sealing once
    s=$(size_of "$1")
    if [ "$1" = 32g ]; then
        [ -s "$W/g32.json" ] || "$CZK" gen-c1 --sector-size 32GiB --seed 3 -o "$W/g32.json" --quiet
        echo "$W/g32.json"
        return
    fi
    [ -s "$W/s$1/c1.json" ] || "$ORACLE" seal --sector-size "$s" --seed 7 -o "$W/s$1" >"$W/seal-$1.log"
    echo "$W/s$1/c1.json"
}

params() { # params TAG: filecoin-proofs' parameters, generated once
    s=$(size_of "$1")
    "$ORACLE" params --sector-size "$s" --cache "$FIL_PROOFS_PARAMETER_CACHE" >"$W/params-$1.log"
}

# timed LABEL CMD...: run, append "LABEL wall user+sys" to $W/times, keep stdout
timed() {
    label="$1"; shift
    /usr/bin/time -f "%e %U %S" -o "$W/t" "$@" >"$W/last" 2>"$W/last.err" || {
        echo "vs-reference: $label failed:"; tail -5 "$W/last" "$W/last.err"; exit 1; }
    set -- $(cat "$W/t")
    cpu=$(awk -v u="$2" -v s="$3" 'BEGIN {print u + s}')
    echo "$label $1 $cpu" >>"$W/times"
    printf '  %-34s wall %8.3f s  cpu %8.3f s\n' "$label" "$1" "$cpu"
}

# region LABEL PATTERN-SED: the timed region printed by the last command
region() {
    v=$(sed -n "$2" "$W/last" | head -1)
    [ -n "$v" ] || { echo "vs-reference: no timed region for $1"; cat "$W/last"; exit 1; }
    echo "$1 $v" >>"$W/times"
    printf '  %-34s %s s\n' "$1" "$v"
}

median() { # median LABEL FIELD(2=wall,3=cpu)
    grep "^$1 " "$W/times" | awk -v f="$2" '{print $f}' | sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

: >"$W/times"
for CASE in "$@"; do
    tag=${CASE#*-}
    case "$CASE" in
    synth-*)
        c1=$(sector "$tag")
        echo "== $CASE: one partition of $(size_of "$tag") ($c1)"
        for i in $(seq "$RUNS"); do
            timed "$CASE.ref" "$ORACLE" synth-bench --c1 "$c1" -i 1
            region "$CASE.ref.region" 's/^median synth \([0-9.]*\) s.*/\1/p'
            timed "$CASE.czk1" "$CZK" bench synth-only --c1 "$c1" -i 1 --no-nnz --no-check --threads 1 --json
            region "$CASE.czk1.region" 's/.*"synth_median_s":\([0-9.]*\).*/\1/p'
            timed "$CASE.czk" "$CZK" bench synth-only --c1 "$c1" -i 1 --no-nnz --no-check --threads "$THREADS" --json
            region "$CASE.czk.region" 's/.*"synth_median_s":\([0-9.]*\).*/\1/p'
            timed "$CASE.pce1" "$CZK" bench synth-only --c1 "$c1" -i 1 --no-check --pce on --threads 1 --json
            region "$CASE.pce1.region" 's/.*"wall_median_s":\([0-9.]*\).*/\1/p'
        done
        r=$(median "$CASE.ref.region" 2); c1r=$(median "$CASE.czk1.region" 2); cr=$(median "$CASE.czk.region" 2)
        pr=$(median "$CASE.pce1.region" 2)
        echo "  median synthesis: reference $r s, czk 1 thread $c1r s ($(ratio "$r" "$c1r")x), czk $THREADS threads $cr s ($(ratio "$r" "$cr")x), czk PCE 1 thread $pr s ($(ratio "$r" "$pr")x)"
        rw=$(median "$CASE.ref" 2); rc=$(median "$CASE.ref" 3); cw=$(median "$CASE.czk" 2); cc=$(median "$CASE.czk" 3)
        echo "  median whole command: reference $rw s wall / $rc s cpu, czk ($THREADS threads) $cw s wall / $cc s cpu"
        ;;
    c2-*)
        params "$tag"
        c1=$(sector "$tag")
        d=$(dirname "$c1")
        echo "== $CASE: C2 of a real $(size_of "$tag") sector, $THREADS threads"
        for i in $(seq "$RUNS"); do
            RAYON_NUM_THREADS=$THREADS timed "$CASE.ref" "$ORACLE" prove-c2 "$d" -o "$W/bp.proof"
            region "$CASE.ref.synth" 's/^step c2.synthesis \([0-9.]*\).*/\1/p'
            timed "$CASE.czk" "$CZK" prove --c1 "$c1" --param-cache "$FIL_PROOFS_PARAMETER_CACHE" -o "$W/czk.proof" \
                --threads "$THREADS"
            v=$(sed -n 's/.*parameters .*(\([0-9.]*\) s).*/\1/p' "$W/last.err" | head -1)
            echo "$CASE.czk.params $v" >>"$W/times"
            printf '  %-34s %s s\n' "$CASE.czk params read" "$v"
            timed "$CASE.ref.params" "$ORACLE" load-params --sector-size "$(size_of "$tag")"
            "$ORACLE" verify-seal "$d" "$W/czk.proof" >/dev/null || { echo "vs-reference: verify_seal rejected czk's proof"; exit 1; }
        done
        rw=$(median "$CASE.ref" 2); rc=$(median "$CASE.ref" 3); cw=$(median "$CASE.czk" 2); cc=$(median "$CASE.czk" 3)
        echo "  median whole C2: reference $rw s wall / $rc s cpu, czk $cw s wall / $cc s cpu: $(ratio "$rw" "$cw")x wall, $(ratio "$rc" "$cc")x cpu"
        echo "  median synthesis inside C2: reference (bellperson's log) $(median "$CASE.ref.synth" 2) s"
        echo "  median parameter read: czk $(median "$CASE.czk.params" 2) s, reference load-params $(median "$CASE.ref.params" 2) s wall"
        ;;
    *) echo "vs-reference: unknown case $CASE"; exit 2 ;;
    esac
done
echo "# raw times: $W/times"
