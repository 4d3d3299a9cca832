#!/bin/sh
# czk judged by Filecoin's own implementation (ctest label "oracle").
#
#   oracle.sh CZK build            build czk-oracle (tests/oracle, Cargo.lock)
#   oracle.sh CZK names            czk's v28 parameter names = filecoin-proofs' own
#   oracle.sh CZK params           2KiB and 8MiB PoRep parameters: czk setup's,
#                                  rewritten by bellperson (CZK_ORACLE_FIL_PARAMS=1:
#                                  filecoin-proofs generates its own)
#   oracle.sh CZK porep SIZE       real seal -> czk prove with those parameters
#                                  -> verify_seal; bellperson's proof -> czk
#                                  verify; R1CS and assignment digests; at 2KiB
#                                  real vanilla PoSt proofs: czk reads and checks
#                                  them, FallbackPoSt digests equal
#   oracle.sh CZK czk-params       czk setup's parameters -> bellperson proves
#                                  with them -> both verifiers accept
#   oracle.sh CZK digest SIZE      digests only, of a C1 from czk gen-c1 (512MiB, 32GiB
#                                  with 2 challenges per partition; CZK_ORACLE_REAL_512=1:
#                                  a real 512MiB seal, ~10 min)
#   oracle.sh CZK snap-digest SIZE SnapDeals digests only, of a czk gen-snap update
#                                  (512MiB, 32GiB with 10 challenges per partition:
#                                  its first and last partition)
# The porep cases also update their sealed sector (SnapDeals, vanilla-snap):
# digests of the update's partitions at both sizes; at 2KiB czk proves it
# with 2KiB snap parameters (made like the PoRep ones) and filecoin-proofs'
# verify_empty_sector_update_proof judges the proof.
#
# Every step prints what it runs and how long it took. The oracle's build
# directory and filecoin-proofs' parameters live in czk's cache directory
# ($CZK_CACHE_DIR, else $XDG_CACHE_HOME/czk, else ~/.cache/czk), so later runs
# reuse them. Exit 77 (ctest: skipped) with one line only when cargo is absent.
set -u
CZK="$1"
CASE="$2"
SIZE="${3:-}"
HERE=$(cd "$(dirname "$0")" && pwd)
CACHE="${CZK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/czk}"
export CARGO_TARGET_DIR="$CACHE/oracle-target"
# The PoRep parameters the cases prove and verify with. By default czk setup
# makes them (toxic waste from getrandom, minutes) and bellperson rewrites
# them; CZK_ORACLE_FIL_PARAMS=1 has filecoin-proofs generate its own instead
# (its test path: about 30 CPU-minutes for 2KiB and 42 for 8MiB here).
FIL_OWN_PARAMS="${CZK_ORACLE_FIL_PARAMS:-0}"
if [ "$FIL_OWN_PARAMS" = 1 ]; then FILPARAMS="$CACHE/oracle-params"; else FILPARAMS="$CACHE/oracle-params-czk"; fi
export FIL_PROOFS_PARAMETER_CACHE="$FILPARAMS"

if ! command -v cargo >/dev/null 2>&1; then
    echo "oracle: skipped: cargo is not installed (the reference crates cannot be built)"
    exit 77
fi
# The built oracle is kept under a key of what it is built from (manifest,
# lock file, sources, compiler): a later run, or another checkout of the same
# sources, finds it without cargo; a checkout with other sources builds its
# own beside it (the build directory, and so every dependency, is shared).
KEY=$( { cat "$HERE/Cargo.toml" "$HERE/Cargo.lock" "$HERE"/src/*.rs; rustc -V 2>/dev/null; } | sha256sum | cut -c1-16)
ORACLE="$CACHE/oracle-bin/$KEY/czk-oracle"

T=$(mktemp -d "${TMPDIR:-/tmp}/czk-oracle.XXXXXX")
trap 'rm -rf "$T"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }

# run NAME CMD...: run a command, show its output on failure, time it
run() {
    name="$1"; shift
    t0=$(date +%s.%N)
    "$@" >"$T/out" 2>"$T/err"
    rc=$?
    t1=$(date +%s.%N)
    printf '  [%6.1f s] %s (exit %d)\n' "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')" "$name" "$rc"
    if [ "$rc" -ne 0 ] && [ "${QUIET_FAIL:-0}" = 0 ]; then
        sed 's/^/    | /' "$T/out" | tail -8
        sed 's/^/    ! /' "$T/err" | tail -8
    fi
    return "$rc"
}

# expect_rc WANT DESC CMD...
expect_rc() {
    want="$1"; desc="$2"; shift 2
    QUIET_FAIL=1 run "$desc" "$@"
    got=$?
    if [ "$got" -eq "$want" ]; then ok "$desc"; else
        bad "$desc: exit $got, wanted $want"
        sed 's/^/    | /' "$T/out" | tail -8
        sed 's/^/    ! /' "$T/err" | tail -8
    fi
}

finish() {
    echo "oracle $CASE $SIZE: $pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit $?
}

need_oracle() {
    if [ ! -x "$ORACLE" ]; then
        echo "oracle: $ORACLE is missing (the oracle/build test builds it)"
        exit 1
    fi
}

porep_param() { # porep_param SIZE -> the v28 stem
    case "$1" in
    2KiB) echo "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f" ;;
    8MiB) echo "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb" ;;
    512MiB) echo "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472" ;;
    esac
}

post_param() { # post_param KIND SIZE -> the v28 stem of filecoin-proofs' FallbackPoSt parameters
    case "$1:$2" in
    window:2KiB) echo "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0" ;;
    winning:2KiB) echo "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e" ;;
    esac
}

ensure_post_params() { # ensure_post_params KIND SIZE: filecoin-proofs' own, generated (a minute or two at 2KiB)
    stem=$(post_param "$1" "$2")
    if [ -s "$FILPARAMS/$stem.params" ] && [ -s "$FILPARAMS/$stem.vk" ]; then return 0; fi
    mkdir -p "$FILPARAMS"
    run "czk-oracle params --circuit $1-post --sector-size $2 (filecoin-proofs' generator, random toxic waste)" \
        "$ORACLE" params --circuit "$1-post" --sector-size "$2" --cache "$FILPARAMS" || return 1
    grep '^step\|^post' "$T/out" | sed 's/^/    /'
    [ -s "$FILPARAMS/$stem.params" ] && [ -s "$FILPARAMS/$stem.vk" ]
}

snap_param() { # snap_param SIZE -> the v28 stem of the EmptySectorUpdate parameters
    case "$1" in
    2KiB) echo "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-$(
        echo fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194)" ;;
    8MiB) echo "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-$(
        echo 92180959e1918d26350b8e6cfe217bbdd0a2d8de51ebec269078b364b715ad63)" ;;
    esac
}

# ensure_snap_params SIZE: EmptySectorUpdate parameters under their v28
# names in $FILPARAMS. By default czk setup makes them (about a minute at
# 2KiB) and bellperson rewrites them (byte-identical, checked); with
# CZK_ORACLE_FIL_PARAMS=1 filecoin-proofs' own generator makes them (its test
# path: 902 CPU-s, 31 minutes of wall time, for 2KiB on the loaded development machine).
ensure_snap_params() {
    stem=$(snap_param "$1")
    if [ -s "$FILPARAMS/$stem.params" ] && [ -s "$FILPARAMS/$stem.vk" ]; then return 0; fi
    mkdir -p "$FILPARAMS"
    if [ "$FIL_OWN_PARAMS" = 1 ]; then
        run "czk-oracle params --circuit snap --sector-size $1 (filecoin-proofs' generator, random toxic waste)" \
            "$ORACLE" params --circuit snap --sector-size "$1" --cache "$FILPARAMS" || return 1
        grep '^step\|^snap' "$T/out" | sed 's/^/    /'
    else
        run "czk setup --circuit snap --sector-size $1 (toxic waste from getrandom)" "$CZK" setup --circuit snap \
            --sector-size "$1" -o "$T/snap.params" --vk "$T/snap.vk" --quiet || return 1
        run "czk-oracle params --circuit snap --from (bellperson reads czk's files, writes them with its own writer)" \
            "$ORACLE" params --circuit snap --sector-size "$1" --cache "$FILPARAMS" --from "$T/snap.params" \
            --from-vk "$T/snap.vk" || return 1
        grep '^step\|^snap\|^sections' "$T/out" | sed 's/^/    /'
        if cmp -s "$T/snap.params" "$FILPARAMS/$stem.params" && cmp -s "$T/snap.vk" "$FILPARAMS/$stem.vk"; then
            ok "bellperson's writer reproduces czk's $1 snap .params and .vk byte for byte"
        else
            bad "bellperson's serialization of czk's $1 snap parameters differs from czk's"
            rm -f "$FILPARAMS/$stem.params" "$FILPARAMS/$stem.vk"
            return 1
        fi
        rm -f "$T/snap.params" "$T/snap.vk"
    fi
    [ -s "$FILPARAMS/$stem.params" ] && [ -s "$FILPARAMS/$stem.vk" ]
}

# snap_digests_equal DESC DIR K...: czk's and the reference's digests of the
# EmptySectorUpdate circuit of partitions K of the update in DIR. The
# reference synthesizes on one thread, so its runs for the partitions start
# together (their outputs and dumps kept apart), and czk's runs, on every
# core, follow one after another.
snap_digests_equal() {
    sdesc="$1"; sdir="$2"; shift 2
    pids=""
    for k in "$@"; do
        (
            t0=$(date +%s.%N)
            "$ORACLE" snap-digest --vanilla "$sdir" --partition "$k" --dump "$T/ref.$k.dump" >"$T/ref.$k.out" \
                2>"$T/ref.$k.err"
            echo "$? $t0 $(date +%s.%N)" >"$T/ref.$k.rc"
        ) &
        pids="$pids $!"
    done
    for pid in $pids; do wait "$pid"; done
    for k in "$@"; do
        REF_CMD="snap-digest --vanilla $sdir --partition $k"
        # (${SNAP_BACKEND:-}: --backend witness for the big partitions, no a/b/c vectors)
        CZK_CMD="bench synth-only --circuit snap --vanilla $sdir --partition $k ${SNAP_BACKEND:-}"
        REF_RAN="$T/ref.$k"
        circuit_digests_equal "$sdesc, partition $k"
        REF_RAN=""
    done
}

ensure_params() { # ensure_params SIZE: PoRep parameters under their v28 names in $FILPARAMS
    stem=$(porep_param "$1")
    if [ -s "$FILPARAMS/$stem.params" ] && [ -s "$FILPARAMS/$stem.vk" ]; then return 0; fi
    if [ "$FIL_OWN_PARAMS" = 1 ]; then
        run "czk-oracle params --sector-size $1 (random toxic waste, filecoin-proofs' test path)" \
            "$ORACLE" params --sector-size "$1" --cache "$FILPARAMS" || return 1
        grep '^step\|^porep' "$T/out" | sed 's/^/    /'
    else
        mkdir -p "$FILPARAMS"
        run "czk setup --circuit porep --sector-size $1 (toxic waste from getrandom)" "$CZK" setup --circuit porep \
            --sector-size "$1" -o "$T/czk.params" --vk "$T/czk.vk" --quiet || return 1
        run "czk-oracle params --from (bellperson reads czk's files, writes them with its own writer)" \
            "$ORACLE" params --sector-size "$1" --cache "$FILPARAMS" --from "$T/czk.params" --from-vk "$T/czk.vk" || return 1
        grep '^step\|^porep\|^sections' "$T/out" | sed 's/^/    /'
        if cmp -s "$T/czk.params" "$FILPARAMS/$stem.params" && cmp -s "$T/czk.vk" "$FILPARAMS/$stem.vk"; then
            ok "bellperson's writer reproduces czk's $1 .params and .vk byte for byte"
        else
            bad "bellperson's serialization of czk's $1 parameters differs from czk's: $(cmp "$T/czk.params" "$FILPARAMS/$stem.params" 2>&1 | head -1)"
            rm -f "$FILPARAMS/$stem.params" "$FILPARAMS/$stem.vk"
            return 1
        fi
        rm -f "$T/czk.params" "$T/czk.vk"
    fi
    [ -s "$FILPARAMS/$stem.params" ] && [ -s "$FILPARAMS/$stem.vk" ]
}

# digests_equal DESC C1 [PARTITION]: czk's and the reference's digests agree
# for a PoRep partition
digests_equal() {
    k="${3:-0}"
    REF_CMD="r1cs-digest --c1 $2 --partition $k"
    CZK_CMD="bench synth-only --c1 $2 --partition $k"
    circuit_digests_equal "$1"
}

# circuit_digests_equal DESC: the same for any circuit, with the oracle's
# command in $REF_CMD and czk's in $CZK_CMD (word-split: no spaces in paths);
# on a difference czk names the first differing constraint. With $REF_RAN
# (a path prefix) the reference has already run: its output, errors, dump
# and "exit start end" line are $REF_RAN.out, .err, .dump and .rc.
circuit_digests_equal() {
    desc="$1"
    if [ -n "${REF_RAN:-}" ]; then
        cp "$REF_RAN.out" "$T/out"; cp "$REF_RAN.err" "$T/err"; rm -f "$T/ref.dump"
        mv "$REF_RAN.dump" "$T/ref.dump" 2>/dev/null
        read -r rc t0 t1 <"$REF_RAN.rc"
        printf '  [%6.1f s] %s (exit %d; beside the other partitions)\n' \
            "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')" "czk-oracle ${REF_CMD%% *} ($desc)" "$rc"
        if [ "$rc" -ne 0 ]; then
            sed 's/^/    | /' "$T/out" | tail -8
            sed 's/^/    ! /' "$T/err" | tail -8
            bad "$desc: the reference could not synthesize the circuit"
            return
        fi
    else
        # shellcheck disable=SC2086
        if ! run "czk-oracle ${REF_CMD%% *} ($desc)" "$ORACLE" $REF_CMD --dump "$T/ref.dump"; then
            bad "$desc: the reference could not synthesize the circuit"
            return
        fi
    fi
    grep '^inputs\|^aux\|^constraints\|digest' "$T/out" | sed 's/^/    ref: /'
    ref_r1cs=$(sed -n 's/^r1cs digest //p' "$T/out")
    ref_asg=$(sed -n 's/^assignment digest //p' "$T/out")
    # shellcheck disable=SC2086
    run "czk bench synth-only --r1cs-digest ($desc)" "$CZK" $CZK_CMD -i 1 --no-nnz --r1cs-digest \
        --r1cs-compare "$T/ref.dump"
    rc=$?
    grep -i 'digest\|differ\|identical' "$T/out" "$T/err" | sed 's/^[^:]*:/    czk: /' | head -12
    czk_r1cs=$(sed -n 's/.*r1cs digest \([0-9a-f]\{64\}\).*/\1/p' "$T/out" | head -1)
    czk_asg=$(sed -n 's/.*assignment digest \([0-9a-f]\{64\}\).*/\1/p' "$T/out" | head -1)
    first=$(sed -n 's/.*first differing constraint: \([0-9]*\).*/\1/p' "$T/out" "$T/err" | head -1)
    if [ -n "$first" ]; then
        # the reference's side of the first difference, with its namespace path
        cp "$T/out" "$T/czk.out"
        # shellcheck disable=SC2086
        "$ORACLE" $REF_CMD --show "$first" 2>&1 | sed -n '/^constraint /,$p' | sed 's/^/    ref: /' | head -40
        sed -n '/first differing constraint/,$p' "$T/czk.out" | sed 's/^/    czk: /' | head -40
    fi
    if [ "$rc" -eq 0 ] && [ -n "$ref_r1cs" ] && [ "$czk_r1cs" = "$ref_r1cs" ]; then
        ok "$desc: R1CS digest equals the reference's ($ref_r1cs)"
    else
        bad "$desc: R1CS digest czk '$czk_r1cs' vs reference '$ref_r1cs' (compare exit $rc)"
    fi
    if [ -n "$ref_asg" ] && [ "$czk_asg" = "$ref_asg" ]; then
        ok "$desc: assignment digest equals the reference's"
    else
        bad "$desc: assignment digest czk '$czk_asg' vs reference '$ref_asg'"
    fi
}

# go_c1 IN OUT: the C1 envelope as Curio's ProofShare path sends it: the
# inner SealCommitPhase1Output decoded into Go's Commit1OutRaw and marshalled
# again by encoding/json (lib/proof/porep_vproof_types.go: its struct order,
# comm_d first; Column's "_h"; compact), re-wrapped as c1OutputWrapper
go_c1() {
    python3 - "$1" "$2" <<'PYEOF'
import base64, json, sys
env = json.load(open(sys.argv[1]))
inner = json.loads(base64.b64decode(env["Phase1Out"]))
def col(c):
    return {"index": c["index"], "rows": c["rows"], "_h": c.get("_h")}
def colproof(p):
    return {"column": col(p["column"]), "inclusion_proof": p["inclusion_proof"]}
def chal(p):
    r = p["replica_column_proofs"]
    return {"comm_d_proofs": p["comm_d_proofs"], "comm_r_last_proof": p["comm_r_last_proof"],
            "replica_column_proofs": {"c_x": colproof(r["c_x"]), "drg_parents": [colproof(x) for x in r["drg_parents"]],
                                      "exp_parents": [colproof(x) for x in r["exp_parents"]]},
            "labeling_proofs": [{"parents": x["parents"], "layer_index": x["layer_index"], "node": x["node"]}
                                for x in p["labeling_proofs"]],
            "encoding_proof": {k: p["encoding_proof"][k] for k in ("parents", "layer_index", "node")}}
go = {k: inner[k] for k in ("comm_d", "comm_r", "registered_proof", "replica_id", "seed", "ticket")}
go["vanilla_proofs"] = {k: [[chal(c) for c in part] for part in v] for k, v in inner["vanilla_proofs"].items()}
body = json.dumps(go, separators=(",", ":")).encode()
assert body != json.dumps(inner, separators=(",", ":")).encode()
out = {"SectorNum": env["SectorNum"], "Phase1Out": base64.b64encode(body).decode(), "SectorSize": env["SectorSize"]}
open(sys.argv[2], "w").write(json.dumps(out, separators=(",", ":")))
PYEOF
}

# serve_porep DIR: the real C1 through czk serve (gRPC Prove from czk
# client) under the ids Curio gives it (lib/ffi/cuzk_funcs.go,
# tasks/proofshare/task_prove.go) with the same parameter files;
# filecoin-proofs' verify_seal judges the proofs: porep-<miner>-<sector>;
# ps-porep-<miner>-<sector>-<task> with the C1 as Go re-encodes it (the
# parameters now resident); a redone C1 under the same porep- id, which must
# get a proof of its own (czk verify accepts it for its C1, verify_seal
# refuses it for the first). SIGTERM then stops the daemon with exit 0.
# serve_start / serve_stop: czk serve on a unix socket with the oracle's
# parameter files ($sock, $spid); serve_stop checks its exit status 0 on SIGTERM.
serve_start() {
    sock="$T/serve/czk.sock"
    # --background-nice 0: beside other tests, a lowered prover would only be slower
    "$CZK" serve --listen "unix://$sock" --param-cache "$FILPARAMS" --params-check curve --memory 8GiB \
        --background-nice 0 2>"$T/serve.log" &
    spid=$!
    trap 'kill -9 "$spid" 2>/dev/null; rm -rf "$T"' EXIT
    i=0
    while [ $i -lt 600 ] && ! grep -q "czk serve: info: listening on" "$T/serve.log"; do
        kill -0 "$spid" 2>/dev/null || break
        sleep 0.1; i=$((i + 1))
    done
    if ! grep -q "czk serve: info: listening on" "$T/serve.log"; then
        bad "czk serve did not start"; sed 's/^/    ! /' "$T/serve.log" | tail -8; return 1
    fi
}

serve_stop() {
    kill -TERM "$spid"
    wait "$spid"
    rc=$?
    trap 'rm -rf "$T"' EXIT
    if [ "$rc" -eq 0 ]; then ok "czk serve exits 0 on SIGTERM"; else bad "czk serve exited $rc"; sed 's/^/    ! /' "$T/serve.log" | tail -8; fi
}

serve_porep() {
    serve_start || return
    miner=$(sed -n 's/.*"miner_id": *\([0-9]*\).*/\1/p' "$1/sector.json")
    sector=$(sed -n 's/.*"sector_id": *\([0-9]*\).*/\1/p' "$1/sector.json")
    go_c1 "$1/c1.json" "$T/c1-go.json" || bad "re-encoding the C1 as Go does"
    "$CZK" gen-c1 --sector-size 2KiB --seed 9 --envelope -o "$T/c1-redo.json" --quiet || bad "czk gen-c1 (redone C1)"
    n=0
    for req in "porep-$miner-$sector $1/c1.json" "ps-porep-$miner-$sector-77 $T/c1-go.json" \
        "porep-$miner-$sector $T/c1-redo.json"; do
        n=$((n + 1))
        id=${req% *}
        c1=${req#* }
        expect_rc 0 "czk client prove (czk serve, request $n: $id)" "$CZK" client prove --addr "unix://$sock" \
            --c1 "$c1" --request-id "$id" --miner-id "$miner" --sector-number "$sector" -o "$T/serve$n.proof" \
            --json --deadline 1800
        cp "$T/out" "$T/serve$n.json"
    done
    expect_rc 0 "verify_seal accepts the proof of czk serve under Curio's id porep-$miner-$sector" \
        "$ORACLE" verify-seal "$1" "$T/serve1.proof"
    expect_rc 0 "verify_seal accepts the proof of the C1 as Go re-encodes it (ProofShare's ps-porep- id)" \
        "$ORACLE" verify-seal "$1" "$T/serve2.proof"
    load2=$(sed -n 's/.*"srs_load_ms": *\([0-9]*\).*/\1/p' "$T/serve2.json")
    if [ -n "$load2" ] && [ "$load2" -lt 1000 ]; then ok "the second request found the parameters resident (srs_load ${load2} ms)"
    else bad "the second request's srs_load_ms is '$load2'"; fi
    expect_rc 0 "a redone C1 under the same porep- id got its own proof (czk verify accepts it for that C1)" \
        "$CZK" verify --param-cache "$FILPARAMS" --c1 "$T/c1-redo.json" --proof "$T/serve3.proof"
    expect_rc 1 "... which verify_seal refuses for the first C1 (not the stale proof)" \
        "$ORACLE" verify-seal "$1" "$T/serve3.proof"
    serve_stop
}

# serve_snap DIR SNAPDIR: the real update through czk serve as Curio sends
# it (one bincode PartitionProof each, the three commitments) under
# snap-<miner>-<sector>, and the same update as a ProofShare request
# (ps-snap-<miner>-<sector>-<task>: another request, its own job);
# verify_empty_sector_update_proof judges both proofs.
serve_snap() {
    serve_start || return
    miner=$(sed -n 's/.*"miner_id": *\([0-9]*\).*/\1/p' "$1/sector.json")
    sector=$(sed -n 's/.*"sector_id": *\([0-9]*\).*/\1/p' "$1/sector.json")
    hexof() { python3 -c 'import json, sys; print(bytes(json.load(open(sys.argv[1]))[sys.argv[2]]).hex())' "$2/snap.json" "$1"; }
    upd=$(python3 -c 'import json, sys
names = ["StackedDrg%sV1" % s for s in ("2KiB", "8MiB", "512MiB", "32GiB", "64GiB")]
print(names.index(json.load(open(sys.argv[1]))["registered_update_proof"]))' "$2/snap.json")
    n=0
    for id in "snap-$miner-$sector" "ps-snap-$miner-$sector-78"; do
        n=$((n + 1))
        expect_rc 0 "czk client prove --kind snap (czk serve, $id)" "$CZK" client prove --addr "unix://$sock" \
            --kind snap --registered-proof "$upd" --vanilla "$2/snap-partition-0.bin" --comm-r-old "$(hexof comm_r_old "$2")" \
            --comm-r-new "$(hexof comm_r_new "$2")" --comm-d-new "$(hexof comm_d_new "$2")" --request-id "$id" \
            --miner-id "$miner" --sector-number "$sector" -o "$T/serve-snap$n.proof" --deadline 1800
        expect_rc 0 "verify_empty_sector_update_proof accepts the proof of czk serve ($id)" "$ORACLE" verify-snap \
            --vanilla "$2" "$T/serve-snap$n.proof"
    done
    serve_stop
}

seal() { # seal SIZE DIR
    run "czk-oracle seal --sector-size $1 (add_piece, PC1, PC2, C1)" "$ORACLE" seal --sector-size "$1" --seed 7 -o "$2" || return 1
    grep '^step\|^comm' "$T/out" | sed 's/^/    /'
}

flip_byte() { # flip_byte IN OUT OFFSET
    cp "$1" "$2"
    b=$(od -An -tu1 -j "$3" -N1 "$1" | tr -d ' ')
    printf "$(printf '\\%03o' $(( b ^ 1 )))" | dd of="$2" bs=1 seek="$3" conv=notrunc 2>/dev/null
}

case "$CASE" in
build)
    echo "cargo: $(cargo --version)"
    if [ -x "$ORACLE" ]; then
        ok "czk-oracle $KEY already built ($ORACLE)"
        finish
    fi
    run "cargo build --release --locked (tests/oracle -> $CARGO_TARGET_DIR)" \
        cargo build --release --locked --manifest-path "$HERE/Cargo.toml"
    if [ $? -eq 0 ] && mkdir -p "$(dirname "$ORACLE")" &&
        cp "$CARGO_TARGET_DIR/release/czk-oracle" "$ORACLE.tmp.$$" && mv "$ORACLE.tmp.$$" "$ORACLE"; then
        ok "czk-oracle built ($ORACLE)"
    else
        rm -f "$ORACLE.tmp.$$"
        bad "czk-oracle did not build"
    fi
    finish
    ;;
names)
    # every v28 name czk knows (czk params) against filecoin-proofs' own
    # (cache_identifier of each circuit's public parameters)
    need_oracle
    run "czk-oracle param-names" "$ORACLE" param-names || { bad "czk-oracle param-names"; finish; }
    sed 's/\.params$//' "$T/out" | sort >"$T/ref.names"
    run "czk params" "$CZK" params --param-cache "$T" || { bad "czk params"; finish; }
    awk '{print $1, $2, $3}' "$T/out" | sort >"$T/czk.names"
    n=$(wc -l <"$T/ref.names")
    if [ "$n" -ge 20 ] && cmp -s "$T/ref.names" "$T/czk.names"; then
        kinds="PoRep, WindowPoSt, WinningPoSt, SnapDeals; 2KiB to 64GiB"
        ok "czk's $n v28 parameter names ($kinds) are filecoin-proofs'"
    else
        bad "czk's v28 names differ from filecoin-proofs':"
        diff "$T/ref.names" "$T/czk.names" | sed 's/^/    /' | head -20
    fi
    finish
    ;;
params)
    need_oracle
    if [ -n "${CZK_TEST_ASAN:-}" ]; then
        # nothing under ASan proves or verifies with them
        echo "oracle params: skipped under ASan (the Release run makes the parameters)"
        exit 77
    fi
    for s in 2KiB 8MiB; do
        if ensure_params "$s"; then ok "the $s PoRep parameters (v28 names) in $FILPARAMS"; else bad "$s parameters"; fi
    done
    for k in window winning; do
        if ensure_post_params "$k" 2KiB; then ok "filecoin-proofs' 2KiB ${k}PoSt parameters in $FILPARAMS"; else bad "2KiB $k PoSt parameters"; fi
    done
    if ensure_snap_params 2KiB; then ok "the 2KiB SnapDeals parameters (v28 name) in $FILPARAMS"
    else bad "2KiB snap parameters"; fi
    finish
    ;;
porep)
    need_oracle
    if [ -n "${CZK_TEST_ASAN:-}" ] && [ "$SIZE" != 2KiB ]; then
        echo "oracle porep $SIZE: skipped under ASan (the 2KiB case runs there; the Release run covers $SIZE)"
        exit 77
    fi
    D="$T/sector"
    if ! seal "$SIZE" "$D"; then bad "seal $SIZE"; finish; fi
    ok "sealed a $SIZE sector with filecoin-proofs"
    digests_equal "$SIZE real C1 (envelope)" "$D/c1.json"
    stem=$(porep_param "$SIZE")
    # real vanilla PoSt proofs of the sealed sector; 2KiB bincode sizes: a
    # Single Merkle proof is 4 + 32 + 32 + 8 + 2 x (8 + 7 x 32 + 8) = 556
    # bytes, a sector proof 8 + 32 + 8 + 8 + n x 556 + 32 + 32
    for kind in window:10 winning:66; do
        k=${kind%:*}; n=${kind#*:}
        expect_rc 0 "czk-oracle vanilla-post --kind $k" "$ORACLE" vanilla-post --kind "$k" -o "$T/vanilla" "$D"
        [ "$SIZE" = 2KiB ] || continue
        got=$(wc -c <"$T/vanilla/vanilla-$k.bin" 2>/dev/null || echo 0)
        want=$((8 + 32 + 8 + 8 + n * 556 + 32 + 32))
        if [ "$got" -eq "$want" ]; then ok "vanilla $k proof is $want bytes"; else bad "vanilla $k proof: $got bytes, wanted $want"; fi
    done
    # the FallbackPoSt partition circuit of each real vanilla proof, as
    # filecoin-proofs builds it for proving: czk reads and checks the proof
    # (challenges, paths), and its R1CS and assignment digests are the
    # reference's
    for k in window winning; do
        REF_CMD="post-digest --kind $k --vanilla $T/vanilla"
        CZK_CMD="bench synth-only --circuit $k-post --vanilla $T/vanilla"
        circuit_digests_equal "$SIZE $k PoSt partition of the real vanilla proof"
    done
    if [ "$SIZE" = 2KiB ]; then
        # czk reads both proofs, derives their challenges from the json's
        # randomness and sector id (they must be filecoin-proofs' challenges),
        # checks them natively and writes the bytes back
        # (tests/filecoin/test_post_vanilla.c, post_vanilla_oracle_dir)
        TESTS="$(dirname "$CZK")/czk_tests"
        if [ -x "$TESTS" ]; then
            expect_rc 0 "czk reads and checks the real vanilla PoSt proofs" \
                env CZK_POST_VANILLA_DIR="$T/vanilla" "$TESTS" --test post_vanilla_oracle_dir
        else
            echo "  (no czk_tests beside $CZK: czk's check of the vanilla PoSt proofs is skipped)"
        fi
    fi
    # a SnapDeals update of the sealed sector (random new data, encode_into),
    # its partition proofs from filecoin-proofs: czk reads and checks them,
    # and the EmptySectorUpdate circuit's digests are the reference's (first
    # and last partition; 2KiB has one, 8MiB four)
    expect_rc 0 "czk-oracle vanilla-snap (encode_into, partition proofs verified by filecoin-proofs)" \
        "$ORACLE" vanilla-snap -o "$T/snap" "$D"
    if [ "$SIZE" = 2KiB ]; then
        got=$(wc -c <"$T/snap/snap-partition-0.bin" 2>/dev/null || echo 0)
        # 32 + 8 + 8 x 32 + 8 + 10 x (2 x 556 + (4 + 32 + 32 + 8 + 6 x 48))
        if [ "$got" -eq 15064 ]; then ok "2KiB snap partition proof is 15064 bytes"
        else bad "2KiB snap partition proof: $got bytes"; fi
        snap_digests_equal "$SIZE SnapDeals update" "$T/snap" 0
    else
        snap_digests_equal "$SIZE SnapDeals update" "$T/snap" 0 3
    fi
    if [ -z "${CZK_TEST_ASAN:-}" ]; then
        # czk proves with the parameter files bellperson wrote (or
        # filecoin-proofs generated), found by their v28 name.
        # --params-check curve: the subgroup checks of a first full validation
        # cost 12-16 CPU-minutes per file here; full validation is tested in
        # groth16/params.
        run "czk prove --param-cache (bellperson's $SIZE parameter files)" "$CZK" prove --c1 "$D/c1.json" \
            --param-cache "$FILPARAMS" --params-check curve -o "$T/czk.proof" --quiet
        if [ $? -eq 0 ]; then ok "czk proved the real $SIZE C1"; else bad "czk prove"; fi
        expect_rc 0 "filecoin-proofs verify_seal accepts czk's proof" "$ORACLE" verify-seal "$D" "$T/czk.proof"
        for off in 0 100 191; do
            flip_byte "$T/czk.proof" "$T/flip.proof" "$off"
            expect_rc 1 "verify_seal rejects czk's proof with byte $off flipped" "$ORACLE" verify-seal "$D" "$T/flip.proof"
        done
        expect_rc 0 "czk verify accepts its own proof with bellperson's vk file" "$CZK" verify --param-cache "$FILPARAMS" \
            --c1 "$D/c1-inner.json" --proof "$T/czk.proof"
        # the same inputs through the other C1 form (once: 2KiB)
        [ "$SIZE" = 2KiB ] && run "czk prove (inner C1 JSON)" "$CZK" prove --c1 "$D/c1-inner.json" --params "$FILPARAMS/$stem.params" --params-check curve \
            -o "$T/czk2.proof" --quiet
        [ "$SIZE" = 2KiB ] && expect_rc 0 "verify_seal accepts czk's proof from the inner C1 form" \
            "$ORACLE" verify-seal "$D" "$T/czk2.proof"
        [ "$SIZE" = 2KiB ] && serve_porep "$D"
    else
        echo "  (ASan build: czk's proving is left to the Release run)"
        finish
    fi
    if [ "$SIZE" = 2KiB ]; then
        # WindowPoSt and WinningPoSt of the sealed sector, proven from the
        # real vanilla proofs with filecoin-proofs' own PoSt parameters: by
        # bellperson and by czk; each verifier accepts the other's proof
        for k in window winning; do
            run "czk-oracle prove-post --kind $k (bellperson)" "$ORACLE" prove-post --kind "$k" --vanilla "$T/vanilla" \
                -o "$T/bp-$k.proof"
            expect_rc 0 "filecoin-proofs verify_${k}_post accepts bellperson's proof" "$ORACLE" verify-post --kind "$k" \
                --vanilla "$T/vanilla" "$T/bp-$k.proof"
            run "czk prove --post $k --param-cache (filecoin-proofs' $k PoSt parameters)" "$CZK" prove --post "$k" \
                --vanilla "$T/vanilla" --param-cache "$FILPARAMS" --params-check curve -o "$T/czk-$k.proof" --quiet
            if [ $? -eq 0 ]; then ok "czk proved the real 2KiB $k PoSt"; else bad "czk prove --post $k"; fi
            expect_rc 0 "filecoin-proofs verify_${k}_post accepts czk's proof" "$ORACLE" verify-post --kind "$k" \
                --vanilla "$T/vanilla" "$T/czk-$k.proof"
            for off in 0 150; do
                flip_byte "$T/czk-$k.proof" "$T/flip.proof" "$off"
                expect_rc 1 "verify_${k}_post rejects czk's proof with byte $off flipped" "$ORACLE" verify-post \
                    --kind "$k" --vanilla "$T/vanilla" "$T/flip.proof"
            done
            expect_rc 0 "czk verify --post $k accepts bellperson's proof" "$CZK" verify --post "$k" --vanilla "$T/vanilla" \
                --param-cache "$FILPARAMS" --proof "$T/bp-$k.proof"
            flip_byte "$T/bp-$k.proof" "$T/flip.proof" 150
            expect_rc 1 "czk verify --post $k rejects bellperson's proof with a flipped byte" "$CZK" verify --post "$k" \
                --vanilla "$T/vanilla" --param-cache "$FILPARAMS" --proof "$T/flip.proof"
        done
        # czk gen-post's synthetic partitions, judged by filecoin-proofs: its
        # challenges, comm_r and public data as the reference derives them
        for g in "window:--kind window" "window:--kind window --api 1 --seed 4" "window:--kind window --sectors 1" \
            "winning:--kind winning --sector-set 9 --seed 2"; do
            k=${g%%:*}
            d="$T/gen-$(echo "${g#*:}" | tr -d ' -')"
            # shellcheck disable=SC2086
            run "czk gen-post ${g#*:}" "$CZK" gen-post ${g#*:} --sector-size 2KiB -o "$d" --quiet
            run "czk prove --post $k of czk gen-post ${g#*:}" "$CZK" prove --post "$k" --vanilla "$d" \
                --param-cache "$FILPARAMS" --params-check curve -o "$d/czk.proof" --quiet
            expect_rc 0 "filecoin-proofs verify_${k}_post accepts czk's proof of gen-post ${g#*:}" "$ORACLE" \
                verify-post --kind "$k" --vanilla "$d" "$d/czk.proof"
            case "$g" in *sectors\ 1* | *winning*)
                # one sector proof: filecoin-proofs reads czk's bincode and bellperson proves it
                run "czk-oracle prove-post of gen-post ${g#*:}" "$ORACLE" prove-post --kind "$k" --vanilla "$d" \
                    -o "$d/bp.proof"
                expect_rc 0 "czk verify --post accepts bellperson's proof of gen-post ${g#*:}" "$CZK" verify \
                    --post "$k" --vanilla "$d" --param-cache "$FILPARAMS" --proof "$d/bp.proof" ;;
            esac
        done
    fi
    if [ "$SIZE" = 2KiB ]; then
        # the update proven by czk with the 2KiB snap parameters (made by
        # oracle/params), judged by verify_empty_sector_update_proof; a flipped
        # byte refused; bellperson's proof of the same partition proofs
        # accepted by czk verify --snap; a czk gen-snap update proven by czk
        # and accepted by filecoin-proofs
        sstem=$(snap_param 2KiB)
        if ensure_snap_params 2KiB; then
            run "czk prove --snap --param-cache (2KiB snap parameter files)" "$CZK" prove --snap --vanilla "$T/snap" \
                --param-cache "$FILPARAMS" --params-check curve -o "$T/czk-snap.proof" --quiet
            if [ $? -eq 0 ]; then ok "czk proved the real 2KiB update"; else bad "czk prove --snap"; fi
            expect_rc 0 "filecoin-proofs verify_empty_sector_update_proof accepts czk's proof" "$ORACLE" verify-snap \
                --vanilla "$T/snap" "$T/czk-snap.proof"
            for off in 0 100 191; do
                flip_byte "$T/czk-snap.proof" "$T/flip.proof" "$off"
                expect_rc 1 "verify_empty_sector_update_proof rejects czk's proof with byte $off flipped" "$ORACLE" \
                    verify-snap --vanilla "$T/snap" "$T/flip.proof"
            done
            run "czk-oracle prove-snap (bellperson)" "$ORACLE" prove-snap --vanilla "$T/snap" -o "$T/bp-snap.proof"
            expect_rc 0 "verify_empty_sector_update_proof accepts bellperson's proof" "$ORACLE" verify-snap \
                --vanilla "$T/snap" "$T/bp-snap.proof"
            expect_rc 0 "czk verify --snap accepts bellperson's proof" "$CZK" verify --snap --vanilla "$T/snap" \
                --param-cache "$FILPARAMS" --proof "$T/bp-snap.proof"
            flip_byte "$T/bp-snap.proof" "$T/flip.proof" 150
            expect_rc 1 "czk verify --snap rejects bellperson's proof with a flipped byte" "$CZK" verify --snap \
                --vanilla "$T/snap" --param-cache "$FILPARAMS" --proof "$T/flip.proof"
            run "czk gen-snap --sector-size 2KiB" "$CZK" gen-snap --sector-size 2KiB --seed 9 -o "$T/gensnap" --quiet
            snap_digests_equal "2KiB SnapDeals update from czk gen-snap" "$T/gensnap" 0
            run "czk prove --snap of czk gen-snap" "$CZK" prove --snap --vanilla "$T/gensnap" \
                --param-cache "$FILPARAMS" --params-check curve -o "$T/gensnap.proof" --quiet
            expect_rc 0 "verify_empty_sector_update_proof accepts czk's proof of gen-snap" "$ORACLE" verify-snap \
                --vanilla "$T/gensnap" "$T/gensnap.proof"
            expect_rc 1 "verify_empty_sector_update_proof rejects it for the real update's commitments" "$ORACLE" \
                verify-snap --vanilla "$T/snap" "$T/gensnap.proof"
            serve_snap "$D" "$T/snap"
        else
            bad "2KiB snap parameters ($sstem)"
        fi
    fi
    if [ "$SIZE" != 2KiB ]; then
        # bellperson's C2 is checked once, at 2KiB (czk verify takes the same
        # path for every size); bench/vs-reference.sh c2-8m runs it at 8MiB
        finish
    fi
    # bellperson's own C2 of the same C1, verified by czk
    run "czk-oracle prove-c2 (bellperson, CPU)" "$ORACLE" prove-c2 "$D" -o "$T/bp.proof"
    if [ $? -eq 0 ]; then ok "bellperson proved the $SIZE C1"; grep '^step' "$T/out" | sed 's/^/    /'; else bad "bellperson C2"; fi
    expect_rc 0 "filecoin-proofs verify_seal accepts bellperson's proof" "$ORACLE" verify-seal "$D" "$T/bp.proof"
    expect_rc 0 "czk verify accepts bellperson's proof" "$CZK" verify --param-cache "$FILPARAMS" --c1 "$D/c1.json" \
        --proof "$T/bp.proof"
    flip_byte "$T/bp.proof" "$T/bpflip.proof" 150
    expect_rc 1 "czk verify rejects bellperson's proof with a flipped byte" "$CZK" verify --param-cache "$FILPARAMS" \
        --c1 "$D/c1.json" --proof "$T/bpflip.proof"
    finish
    ;;
czk-params)
    need_oracle
    if [ "$FIL_OWN_PARAMS" != 1 ]; then
        # the porep cases already prove with czk's parameters (bellperson and czk)
        echo "oracle czk-params: skipped: the porep cases use czk's parameters (CZK_ORACLE_FIL_PARAMS=1 runs this case)"
        exit 77
    fi
    if [ -n "${CZK_TEST_ASAN:-}" ]; then
        echo "oracle czk-params: skipped under ASan (a 2.7M-constraint setup); the Release run covers it"
        exit 77
    fi
    D="$T/sector"
    if ! seal 2KiB "$D"; then bad "seal 2KiB"; finish; fi
    P="$T/czkparams"
    mkdir -p "$P"
    stem=$(porep_param 2KiB)
    # czk's own parameters, put where filecoin-proofs looks for its own
    run "czk setup --circuit porep --sector-size 2KiB" "$CZK" setup --circuit porep --sector-size 2KiB \
        -o "$P/$stem.params" --vk "$P/$stem.vk" --quiet
    if [ $? -eq 0 ]; then ok "czk setup wrote 2KiB parameters"; else bad "czk setup"; finish; fi
    run "czk-oracle prove-c2 with czk's parameters (bellperson)" "$ORACLE" prove-c2 "$D" --cache "$P" -o "$T/bp.proof"
    if [ $? -eq 0 ]; then ok "bellperson proved with czk's parameters"; else bad "bellperson could not prove with czk's parameters"; fi
    expect_rc 0 "filecoin-proofs verify_seal (czk's vk) accepts bellperson's proof" "$ORACLE" verify-seal "$D" "$T/bp.proof" --cache "$P"
    expect_rc 0 "czk verify accepts bellperson's proof made with czk's parameters" "$CZK" verify --vk "$P/$stem.vk" \
        --c1 "$D/c1.json" --proof "$T/bp.proof"
    run "czk prove with its own parameters" "$CZK" prove --c1 "$D/c1.json" --param-cache "$P" --params-check curve -o "$T/czk.proof" --quiet
    expect_rc 0 "filecoin-proofs verify_seal (czk's vk) accepts czk's proof" "$ORACLE" verify-seal "$D" "$T/czk.proof" --cache "$P"
    expect_rc 1 "verify_seal with filecoin-proofs' own vk rejects a proof made with czk's parameters" \
        "$ORACLE" verify-seal "$D" "$T/czk.proof" --cache "$FILPARAMS"
    finish
    ;;
digest)
    need_oracle
    if [ -n "${CZK_TEST_ASAN:-}" ]; then
        echo "oracle digest $SIZE: skipped under ASan (the 2KiB digests run there; the Release run covers $SIZE)"
        exit 77
    fi
    case "$SIZE" in
    32GiB)
        # the 32GiB circuit (2^30 nodes, 11 layers, tree 8,8, its parent
        # graph, every gadget) with 2 challenges per partition instead of 18:
        # every gadget of a challenge, and more than one challenge; the
        # reference reads czk's test shape with its own setup for 2 challenges
        # and its vanilla verifier accepts every partition first
        run "czk gen-c1 --sector-size 32GiB --challenges 2" "$CZK" gen-c1 --sector-size 32GiB --challenges 2 \
            --seed 3 -o "$T/c1.json" --quiet
        if [ $? -ne 0 ]; then bad "czk gen-c1 32GiB"; finish; fi
        digests_equal "32GiB partition (2 challenges) from czk gen-c1" "$T/c1.json" 0
        ;;
    512MiB)
        if [ -n "${CZK_ORACLE_REAL_512:-}" ]; then
            # a real seal: about 10 minutes of PC1 + PC2 on 2 vCPUs
            D="$T/sector"
            if ! seal "$SIZE" "$D"; then bad "seal $SIZE"; finish; fi
            digests_equal "$SIZE real C1" "$D/c1.json"
        else
            # czk's generator (seconds); filecoin-proofs reads it like its own
            run "czk gen-c1 --sector-size 512MiB" "$CZK" gen-c1 --sector-size 512MiB --seed 5 -o "$T/c1.json" --quiet
            if [ $? -ne 0 ]; then bad "czk gen-c1 512MiB"; finish; fi
            digests_equal "512MiB partition from czk gen-c1" "$T/c1.json" 0
        fi
        ;;
    *)
        D="$T/sector"
        if ! seal "$SIZE" "$D"; then bad "seal $SIZE"; finish; fi
        digests_equal "$SIZE real C1" "$D/c1.json"
        ;;
    esac
    finish
    ;;
snap-digest)
    need_oracle
    if [ -n "${CZK_TEST_ASAN:-}" ]; then
        echo "oracle snap-digest $SIZE: skipped under ASan (the 2KiB digests run in the porep case;" \
            "the Release run covers $SIZE)"
        exit 77
    fi
    # a czk gen-snap update (whole trees of a repeating tile; seconds): the
    # reference synthesizes its first and last partition from czk's bincode.
    # 512MiB: whole partitions (86 challenges). 32GiB: the 32GiB circuit with
    # 10 challenges per partition, the fewest that still derive them from two
    # digests, the second one partly used (9 per digest at 32GiB), as the 86
    # do from ten; the reference's own public parameters with 10 challenges.
    CH=""
    [ "$SIZE" = 32GiB ] && CH="--challenges 10"
    # shellcheck disable=SC2086
    run "czk gen-snap --sector-size $SIZE $CH" "$CZK" gen-snap --sector-size "$SIZE" $CH --seed 3 -o "$T/gensnap" --quiet
    if [ $? -ne 0 ]; then bad "czk gen-snap $SIZE"; finish; fi
    SNAP_BACKEND="--backend witness"
    snap_digests_equal "$SIZE SnapDeals update from czk gen-snap${CH:+ ($CH)}" "$T/gensnap" 0 15
    finish
    ;;
*)
    echo "oracle.sh: unknown case '$CASE'"
    exit 2
    ;;
esac
