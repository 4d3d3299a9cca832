#!/bin/sh
# czk setup / prove --post / verify --post end to end on the real 2KiB
# vanilla proofs of tests/filecoin/vectors (WindowPoSt: 21,866 constraints;
# WinningPoSt: 90,750), and the failures: a flipped proof byte, another
# comm_r or randomness in the public data, a tampered vanilla proof refused
# before proving (no output file), parameters of the other kind, bad flags.
# Usage: test_cli_post.sh /path/to/czk
set -u
CZK="$1"
. "$(dirname "$0")/lib.sh"
cli_init test_cli_post
VEC="$(dirname "$0")/../filecoin/vectors"
P="--params-check curve"
# PCE matrices go to a fresh cache of this run's
export CZK_CACHE_DIR="$T/cache"

for kind in window winning; do
    expect 0 "setup $kind" -- setup --circuit $kind-post --sector-size 2KiB --seed 1 -o "$T/$kind.params" \
        --vk "$T/$kind.vk" --quiet
    # shellcheck disable=SC2086
    expect 0 "prove $kind" -- prove --post $kind --vanilla "$VEC" --params "$T/$kind.params" $P \
        -o "$T/$kind.proof" --json --quiet
    expect_out "\"kind\":\"$kind-post\"" "prove $kind reports the kind"
    expect_out '"verified":true' "prove $kind verified its proof"
    size=$(wc -c <"$T/$kind.proof")
    [ "$size" -eq 192 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: $kind.proof is $size bytes"; }
    expect 0 "verify $kind" -- verify --post $kind --vanilla "$VEC" --vk "$T/$kind.vk" --proof "$T/$kind.proof"
    expect_out "valid: 1 $kind-post proof of StackedDrg" "verify $kind says valid"
    # the sources, streamed parameters and the benchmark paths: both kinds in
    # the Release run; under the sanitizers (CZK_TEST_ASAN) the window kind
    # only, as the winning circuit is the same code four times larger
    if [ -z "${CZK_TEST_ASAN:-}" ] || [ $kind = window ]; then
        # the parallel prover and PCE (its matrices built into a fresh cache)
        for src in "--parallel:parallel" "--pce on:pce"; do
            # shellcheck disable=SC2086
            expect 0 "prove $kind ${src%%:*}" -- prove --post $kind --vanilla "$VEC" \
                --params "$T/$kind.params" $P ${src%%:*} -o "$T/$kind-src.proof" --json --quiet --threads 2
            expect_out "\"source\":\"${src##*:}\"" "prove $kind ran the ${src##*:} source"
            expect 0 "verify $kind (${src##*:})" -- verify --post $kind --vanilla "$VEC" --vk "$T/$kind.vk" \
                --proof "$T/$kind-src.proof"
        done
        # the PCE is cached now: auto (prove's default) takes it
        # shellcheck disable=SC2086
        expect 0 "prove $kind, PCE cached" -- prove --post $kind --vanilla "$VEC" \
            --params "$T/$kind.params" $P -o "$T/$kind-src.proof" --json --quiet
        expect_out '"source":"pce"' "prove $kind --pce auto finds the cached PCE"
        # the parameters streamed from disk by section (pinned by setup's sidecar):
        # with PCE the witness only, a, b, c evaluated one at a time; without it
        # the parallel prover's full assignment
        # (under the sanitizers only the PCE path: CZK_TEST_ASAN)
        srcs='--pce on:pce|--pce off --parallel:parallel'
        [ -n "${CZK_TEST_ASAN:-}" ] && srcs='--pce on:pce'
        IFS='|'
        for src in $srcs; do
            unset IFS
            # shellcheck disable=SC2086
            expect 0 "prove $kind --stream-params ${src%%:*}" -- prove --post $kind --vanilla "$VEC" \
                --params "$T/$kind.params" ${src%%:*} --stream-params -o "$T/$kind-stream.proof" --json --quiet
            expect_out '"params":"streamed","params_check":"pinned"' "prove $kind streamed the pinned parameters"
            expect_out "\"source\":\"${src##*:}\"" "prove $kind --stream-params ran the ${src##*:} source"
            expect_out '"verified":true' "prove $kind --stream-params verified its proof"
            expect 0 "verify $kind (streamed, ${src##*:})" -- verify --post $kind --vanilla "$VEC" --vk "$T/$kind.vk" \
                --proof "$T/$kind-stream.proof"
        done
        # the benchmark's three paths on the real vanilla, PCE validated against PROVE
        expect 0 "bench synth-only $kind --pce both --validate" -- bench synth-only \
            --circuit $kind-post --vanilla "$VEC" -i 1 --pce both --validate --threads 2
        expect_out "validate: input, aux, a, b, c and the densities equal" "bench $kind validates the PCE"
        expect_out "pce off (parallel) vs on" "bench $kind compares parallel and PCE"
        expect 0 "bench synth-only $kind --pce on --stream" -- bench synth-only --circuit $kind-post --vanilla "$VEC" \
            -i 1 --pce on --stream --json
        expect_out '"stream":true' "bench $kind streams a, b, c"
        expect 0 "bench synth-only $kind --seq" -- bench synth-only --circuit $kind-post --vanilla "$VEC" -i 1 --seq \
            --json
        expect_out '"mode":"sequential"' "bench $kind --seq is sequential"

    fi

    # a flipped byte in A, B and C
    for off in 7 60 150; do
        cp "$T/$kind.proof" "$T/flip.bin"
        flip_byte "$T/flip.bin" "$off"
        expect 1 "$kind: flipped proof byte $off" -- verify --post $kind --vanilla "$VEC" --vk "$T/$kind.vk" \
            --proof "$T/flip.bin"
    done

    # other public data: comm_r, randomness (the JSON alone is what verify reads)
    mkdir -p "$T/cr-$kind" "$T/rnd-$kind"
    python3 - "$VEC/post-$kind.json" "$T/cr-$kind/post-$kind.json" "$T/rnd-$kind/post-$kind.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
a = json.loads(json.dumps(j)); a["comm_r"][0][0] ^= 1
json.dump(a, open(sys.argv[2], "w"))
b = json.loads(json.dumps(j)); b["randomness"][0] ^= 1
json.dump(b, open(sys.argv[3], "w"))
PY
    expect 1 "$kind: another comm_r" -- verify --post $kind --vanilla "$T/cr-$kind" --vk "$T/$kind.vk" \
        --proof "$T/$kind.proof"
    expect_out "INVALID" "$kind: another comm_r is invalid"
    expect 1 "$kind: another randomness" -- verify --post $kind --vanilla "$T/rnd-$kind" --vk "$T/$kind.vk" \
        --proof "$T/$kind.proof"
    # the same directories refused by prove, before proving
    cp "$VEC/vanilla-$kind.bin" "$T/cr-$kind/"
    cp "$VEC/vanilla-$kind.bin" "$T/rnd-$kind/"
    # shellcheck disable=SC2086
    expect 1 "$kind: prove with another comm_r" -- prove --post $kind --vanilla "$T/cr-$kind" \
        --params "$T/$kind.params" $P -o "$T/no.proof"
    expect_out "comm_r differs from .*post-$kind.json: comm_r\[0\]" "$kind: comm_r mismatch named"
    expect_absent "$T/no.proof" "$kind: no proof after a comm_r mismatch"
    # shellcheck disable=SC2086
    expect 1 "$kind: prove with another randomness" -- prove --post $kind --vanilla "$T/rnd-$kind" \
        --params "$T/$kind.params" $P -o "$T/no.proof"
    expect_out "the native check: vanilla PoSt sector proof 0 (sector 264602): challenge 0: proves leaf 13, the challenge is leaf 29" \
        "$kind: the challenges of another randomness named"
    expect_absent "$T/no.proof" "$kind: no proof after a randomness mismatch"

    # a tampered vanilla proof: a sibling hash changed
    mkdir -p "$T/bad-$kind"
    cp "$VEC/post-$kind.json" "$T/bad-$kind/"
    cp "$VEC/vanilla-$kind.bin" "$T/bad-$kind/"
    flip_byte "$T/bad-$kind/vanilla-$kind.bin" 1000
    # shellcheck disable=SC2086
    expect 1 "$kind: prove a tampered vanilla" -- prove --post $kind --vanilla "$T/bad-$kind" \
        --params "$T/$kind.params" $P -o "$T/no.proof"
    expect_out "the job.s input is refused (nothing written)" "$kind: tampered vanilla refused"
    expect_out "the native check: .*path does not hash to comm_r_last" "$kind: the native check named"
    expect_absent "$T/no.proof" "$kind: no proof from a tampered vanilla"
    # cut short
    head -c 1000 "$VEC/vanilla-$kind.bin" >"$T/bad-$kind/vanilla-$kind.bin"
    # shellcheck disable=SC2086
    expect 1 "$kind: prove a short vanilla" -- prove --post $kind --vanilla "$T/bad-$kind" \
        --params "$T/$kind.params" $P -o "$T/no.proof"
    expect_out "vanilla-$kind.bin: 1000 bytes, want [0-9]* (1 sector proof(s) of" "$kind: short vanilla named"
    expect_absent "$T/no.proof" "$kind: no proof from a short vanilla"
done

# parameters and key of the other kind
# shellcheck disable=SC2086
expect 1 "window vanilla, winning params" -- prove --post window --vanilla "$VEC" --params "$T/winning.params" \
    $P -o "$T/no.proof"
expect_out "parameters have 133 public inputs (with ONE), the circuit 23" "the mismatch names the parameters"
expect_absent "$T/no.proof" "no proof with the other kind's parameters"
expect 1 "window proof, winning vk" -- verify --post window --vanilla "$VEC" --vk "$T/winning.vk" \
    --proof "$T/window.proof"
    expect_out "the verifying key has 133 public inputs, this window-post circuit 23" "vk mismatch named"

# --param-cache names the v28 file
expect 1 "prove from an empty param cache" -- prove --post window --vanilla "$VEC" --param-cache "$T/none" \
    -o "$T/no.proof"
expect_out "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0.params" \
    "the window v28 name"
expect 1 "verify from an empty param cache" -- verify --post winning --vanilla "$VEC" --param-cache "$T/none" \
    --proof "$T/window.proof"
expect_out "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e.vk" \
    "the winning v28 name"
# setup --param-cache writes both files under their v28 names (with the
# checksum sidecar), where prove / verify --param-cache find them
expect 0 "setup --param-cache" -- setup --circuit window-post --sector-size 2KiB --seed 1 --param-cache "$T/pc" \
    --quiet
W28="$T/pc/v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0"
for f in "$W28.params" "$W28.vk" "$W28.params.czkcheck"; do
    [ -s "$f" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: setup --param-cache did not write $f"; }
done
cmp -s "$W28.params" "$T/window.params" && pass=$((pass + 1)) ||
    { fail=$((fail + 1)); echo "FAIL: the same seed gave other parameters under --param-cache"; }
expect 0 "prove from the param cache" -- prove --post window --vanilla "$VEC" --param-cache "$T/pc" \
    -o "$T/pc.proof" --quiet
expect 0 "verify from the param cache" -- verify --post window --vanilla "$VEC" --param-cache "$T/pc" \
    --proof "$T/pc.proof"
expect 2 "setup --param-cache with -o" -- setup --circuit window-post --sector-size 2KiB --param-cache "$T/pc" -o x
expect_out "exclude each other" "setup: --param-cache and -o exclude each other"
expect 1 "setup --param-cache of a custom tree" -- setup --circuit window-post --nodes 64 --tree 8 --sectors 1 \
    --challenges 1 --param-cache "$T/pc" --quiet
expect_out "no Filecoin parameter name" "setup: a custom shape has no v28 name"
# a directory without the files
mkdir -p "$T/empty"
expect 1 "no post-window.json" -- prove --post window --vanilla "$T/empty" --params x -o "$T/no.proof"
expect_out "post-window.json" "the missing file named"

# czk gen-post: synthetic partitions czk proves and verifies (full and short
# WindowPoSt, both versions; WinningPoSt chosen from a sector set), the same
# seed the same bytes, and its refusals
for g in "window full:--kind window" "window short:--kind window --sectors 1" \
    "window V1:--kind window --api 1 --seed 5" "winning:--kind winning --sector-set 7 --seed 3"; do
    name=${g%%:*}
    args=${g#*:}
    kind=${name%% *}
    d="$T/gen-$(echo "$name" | tr ' ' _)"
    # shellcheck disable=SC2086
    expect 0 "gen-post $name" -- gen-post $args --sector-size 2KiB -o "$d" --json
    expect_out '"registered_post_proof":"StackedDrgWin' "gen-post $name names the proof type"
    # shellcheck disable=SC2086
    expect 0 "prove gen-post $name" -- prove --post $kind --vanilla "$d" --params "$T/$kind.params" $P \
        -o "$d/proof" --quiet
    expect 0 "verify gen-post $name" -- verify --post $kind --vanilla "$d" --vk "$T/$kind.vk" --proof "$d/proof"
    expect_out "valid: 1 $kind-post proof of StackedDrg" "verify gen-post $name says valid"
    # the proof is for this partition only: the real vector's public data refuse it
    expect 1 "gen-post $name proof against the vector" -- verify --post $kind --vanilla "$VEC" --vk "$T/$kind.vk" \
        --proof "$d/proof"
done
grep -q '"sector_ids": \[' "$T/gen-window_short/post-window.json" &&
    [ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["sector_ids"]))' \
        "$T/gen-window_short/post-window.json")" = 1 ] && pass=$((pass + 1)) ||
    { fail=$((fail + 1)); echo "FAIL: gen-post --sectors 1 did not write one sector"; }
expect 0 "gen-post again" -- gen-post --kind window --sector-size 2KiB -o "$T/gen-again" --quiet
for f in post-window.json vanilla-window.bin; do
    cmp -s "$T/gen-window_full/$f" "$T/gen-again/$f" && pass=$((pass + 1)) ||
        { fail=$((fail + 1)); echo "FAIL: gen-post with the same seed wrote another $f"; }
done
expect 0 "gen-post another seed" -- gen-post --kind window --sector-size 2KiB --seed 9 -o "$T/gen-seed9" --quiet
cmp -s "$T/gen-window_full/vanilla-window.bin" "$T/gen-seed9/vanilla-window.bin" &&
    { fail=$((fail + 1)); echo "FAIL: gen-post --seed 9 wrote the same proofs as seed 1"; } || pass=$((pass + 1))
expect 2 "gen-post without --kind" -- gen-post --sector-size 2KiB -o "$T/g"
expect_out "--kind window|winning is required" "gen-post wants --kind"
expect 2 "gen-post --kind bogus" -- gen-post --kind bogus -o "$T/g"
expect_out "--kind wants window or winning, got 'bogus'" "gen-post names the bad kind"
expect 2 "gen-post without -o" -- gen-post --kind window
expect_out "an output directory is required" "gen-post wants -o"
expect 2 "gen-post 3 sectors at 2KiB" -- gen-post --kind window --sectors 3 -o "$T/g"
expect_out "a window-post partition holds at most 2" "gen-post names the partition size"
expect 2 "gen-post winning --sectors" -- gen-post --kind winning --sectors 2 -o "$T/g"
expect_out "--sectors is for WindowPoSt" "gen-post: --sectors is Window's"
expect 2 "gen-post window --sector-set" -- gen-post --kind window --sector-set 2 -o "$T/g"
expect 2 "gen-post --api 3" -- gen-post --kind window --api 3 -o "$T/g"
expect 2 "gen-post 3KiB" -- gen-post --kind window --sector-size 3KiB -o "$T/g"
expect_out "--sector-size" "gen-post names the sector size"
expect_absent "$T/g" "no directory after refused flags"
: >"$T/afile"
expect 1 "gen-post under a file" -- gen-post --kind window -o "$T/afile/sub"
expect_out "afile: not a directory\|afile/sub: cannot create" "gen-post names the path it cannot create"

# bad flags
expect 2 "prove --post bogus" -- prove --post bogus --vanilla "$VEC" -o x
expect_out "--post wants window or winning, got 'bogus'" "prove names the bad --post"
expect 2 "prove --post without --vanilla" -- prove --post window -o x
expect_out "--post, --vanilla and -o are required together" "prove wants --vanilla"
expect 2 "prove --post with --c1" -- prove --post window --vanilla "$VEC" --c1 c.json -o x
expect_out "are PoRep's, not --post's" "prove refuses PoRep flags"
expect 2 "verify --post bogus" -- verify --post bogus --vanilla "$VEC" --proof x
expect_out "--post wants window or winning, got 'bogus'" "verify names the bad --post"
expect 2 "verify --post without --proof" -- verify --post window --vanilla "$VEC"
expect 2 "setup --circuit bogus" -- setup --circuit bogus --sector-size 2KiB -o x --vk y
expect_out "--circuit wants porep, window-post, winning-post or snap, got 'bogus'" "setup names the bad circuit"
expect 2 "setup window-post with --layers" -- setup --circuit window-post --sector-size 2KiB --layers 2 -o x --vk y

cli_finish
