#!/bin/sh
# czk prove on a multi-partition C1: the partitions go through the pipelined
# engine. Custom shape (nodes 64, layers 2, 1 challenge, tree 8, 2
# partitions: 1.34M constraints per partition). Every proof verifies with
# czk verify, in partition order; a C1 with one tampered partition and
# parameters of another circuit fail with a message naming the partition,
# and leave no -o file. Usage: test_cli_engine.sh /path/to/czk
set -u
CZK="$1"
if [ -n "${CZK_TEST_ASAN:-}" ]; then
    echo "test_cli_engine: skipped under ASan (two 1.34M-constraint partitions)"
    exit 77
fi
. "$(dirname "$0")/lib.sh"
cli_init test_cli_engine
# no PCE file can be found: the engine path, whatever the user's cache holds
export CZK_CACHE_DIR="$T/cache"
SHAPE="--layers 2 --challenges 1 --tree 8 --nodes 64 --partitions 2"

# tamper IN OUT KEY N: add 1 (mod 256) to the first byte value after the N-th
# occurrence of KEY in the one-line C1 JSON
tamper() {
    awk -v key="$3" -v nth="$4" '{
        s = $0; out = ""; k = 0
        while ((i = index(s, key)) > 0) {
            k++
            out = out substr(s, 1, i - 1 + length(key)); s = substr(s, i + length(key))
            if (k == nth) { match(s, /^[0-9]+/); v = substr(s, 1, RLENGTH); s = ((v + 1) % 256) substr(s, RLENGTH + 1) }
        }
        print out s
    }' "$1" >"$2"
    if cmp -s "$1" "$2"; then
        fail=$((fail + 1))
        echo "FAIL: tamper $3 #$4: nothing changed"
    fi
}

# shellcheck disable=SC2086
expect 0 "gen-c1 a" -- gen-c1 --sector-size 2KiB $SHAPE --seed 1 -o "$T/a.json" --quiet
# shellcheck disable=SC2086
expect 0 "gen-c1 b" -- gen-c1 --sector-size 2KiB $SHAPE --seed 2 -o "$T/b.json" --quiet
# shellcheck disable=SC2086
expect 0 "setup" -- setup --circuit porep $SHAPE --seed 1 -o "$T/p.params" --vk "$T/p.vk" --quiet
P="--params-check curve"

# both partitions through the engine; JSON says so and lists them in order
# shellcheck disable=SC2086
expect 0 "prove (engine)" -- prove --c1 "$T/a.json" --params "$T/p.params" $P -o "$T/proof.bin" --json
expect_out '"witness":"prove"' "full synthesis through the engine"
expect_out '"partition":0,.*"partition":1,' "both partitions reported in order"
expect_out '"verified":true' "verified before writing"
size=$(wc -c <"$T/proof.bin")
[ "$size" -eq 384 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: proof.bin is $size bytes, want 384"; }
expect 0 "verify" -- verify --vk "$T/p.vk" --c1 "$T/a.json" --proof "$T/proof.bin"
expect_out "valid: 2 porep proofs of" "both partitions verified"
# the proofs are in partition order: swapped, they do not verify
tail -c 192 "$T/proof.bin" >"$T/swap.bin"
head -c 192 "$T/proof.bin" >>"$T/swap.bin"
expect 1 "verify with the partitions swapped" -- verify --vk "$T/p.vk" --c1 "$T/a.json" --proof "$T/swap.bin"
expect 1 "verify against another c1" -- verify --vk "$T/p.vk" --c1 "$T/b.json" --proof "$T/proof.bin"

# the other witness sources through the same engine path: each proof verifies
# shellcheck disable=SC2086
expect 0 "prove --parallel" -- prove --c1 "$T/a.json" --params "$T/p.params" $P -o "$T/par.bin" --parallel --json
expect_out '"witness":"parallel"' "parallel prover used"
expect 0 "verify the parallel prover's proofs" -- verify --vk "$T/p.vk" --c1 "$T/a.json" --proof "$T/par.bin"
# (in a cache of its own: the tests below want full synthesis from --pce auto)
export CZK_CACHE_DIR="$T/pce-cache"
# shellcheck disable=SC2086
expect 0 "prove --pce on" -- prove --c1 "$T/a.json" --params "$T/p.params" $P -o "$T/pce.bin" --pce on --json
expect_out '"witness":"pce"' "PCE used"
expect 0 "verify the PCE proofs" -- verify --vk "$T/p.vk" --c1 "$T/a.json" --proof "$T/pce.bin"
# a tampered partition fails the same way as with full synthesis
tamper "$T/a.json" "$T/bad-pce.json" '"comm_r_last_proof":{"data":{"Single":{"root":[' 2
# shellcheck disable=SC2086
expect 1 "prove a tampered c1 with PCE" -- prove --c1 "$T/bad-pce.json" --params "$T/p.params" $P -o "$T/bad-pce.bin" --quiet
expect_out "partition 1: witness check: .*not satisfied" "PCE: failing partition and constraint named"
expect_absent "$T/bad-pce.bin" "no proof file after the PCE witness check failed"
export CZK_CACHE_DIR="$T/cache"
# shellcheck disable=SC2086
expect 0 "prove one partition" -- prove --c1 "$T/a.json" --params "$T/p.params" $P -o "$T/one.bin" --partition 1 --json
expect_out '"partitions":\[{"partition":1,' "only partition 1"
expect_out '"verified":true' "partition 1 verified"

# partition 1's comm_r_last root tampered: its witness check fails, the job
# fails (partition named), nothing is written
tamper "$T/a.json" "$T/bad.json" '"comm_r_last_proof":{"data":{"Single":{"root":[' 2
# shellcheck disable=SC2086
expect 1 "prove a tampered c1" -- prove --c1 "$T/bad.json" --params "$T/p.params" $P -o "$T/bad.bin" --quiet
expect_out "partition 1: witness check: .*not satisfied" "failing partition and constraint named"
expect_absent "$T/bad.bin" "no proof after a tampered c1"

# parameters of another circuit (2 challenges per partition): caught after
# the first synthesis, before any prover pass; nothing written
# shellcheck disable=SC2086
expect 0 "gen-c1 of another shape" -- gen-c1 --sector-size 2KiB --layers 2 --challenges 2 --tree 8 --nodes 64 \
    --partitions 2 --seed 3 -o "$T/c.json" --quiet
# shellcheck disable=SC2086
expect 1 "params of another circuit" -- prove --c1 "$T/c.json" --params "$T/p.params" $P -o "$T/bad.bin" --quiet
expect_out "partition [01]: parameters: parameters have" "mismatch explained"
expect_absent "$T/bad.bin" "no proof with mismatched params"

cli_finish
