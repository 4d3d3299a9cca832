#!/bin/sh
# czk gen-c1 / setup / prove / verify end to end on the smallest custom PoRep
# shape (nodes 64, layers 2, 1 challenge, tree 8: 1.34M constraints), and
# every failure: bit-flipped proof, another C1, a corrupted parameter point,
# truncated / missing files, bad flags. A failing command must not leave its
# -o file behind. Usage: test_cli_groth16.sh /path/to/czk
set -u
CZK="$1"
if [ -n "${CZK_TEST_ASAN:-}" ]; then
    echo "test_cli_groth16: skipped under ASan (1.34M-constraint setup)"
    exit 77
fi
. "$(dirname "$0")/lib.sh"
cli_init test_cli_groth16
SHAPE="--layers 2 --challenges 1 --tree 8 --nodes 64"

# shellcheck disable=SC2086
expect 0 "gen-c1 a" -- gen-c1 --sector-size 2KiB $SHAPE --seed 1 -o "$T/a.json" --quiet
# shellcheck disable=SC2086
expect 0 "gen-c1 b" -- gen-c1 --sector-size 2KiB $SHAPE --seed 2 -o "$T/b.json" --quiet
# shellcheck disable=SC2086
expect 0 "setup" -- setup --circuit porep $SHAPE --seed 1 -o "$T/p.params" --vk "$T/p.vk" --quiet
# the streamed setup (section by section from the PCE matrices) writes the
# same bytes for the same seed, and its own sidecar
saved_cache=${CZK_CACHE_DIR-}
export CZK_CACHE_DIR="$T/cache" # the PCE it builds stays out of the caller's cache
# shellcheck disable=SC2086
expect 0 "setup --stream" -- setup --circuit porep $SHAPE --seed 1 --stream -o "$T/s.params" --vk "$T/s.vk" --quiet
if [ -n "$saved_cache" ]; then export CZK_CACHE_DIR="$saved_cache"; else unset CZK_CACHE_DIR; fi
check "streamed params = in-memory params" cmp "$T/p.params" "$T/s.params"
check "streamed vk = in-memory vk" cmp "$T/p.vk" "$T/s.vk"
check "streamed setup wrote the sidecar" test -s "$T/s.params.czkcheck"
rm -f "$T/s.params" "$T/s.params.czkcheck" "$T/s.vk"
# every kind streams through the same contract (its PCE matrices): the
# PoSt circuits (under a second each at 2KiB) write the same bytes too
export CZK_CACHE_DIR="$T/cache"
for c in window-post winning-post; do
    expect 0 "setup $c" -- setup --circuit $c --sector-size 2KiB --seed 3 -o "$T/$c.params" --vk "$T/$c.vk" --quiet
    expect 0 "setup --stream $c" -- setup --circuit $c --sector-size 2KiB --seed 3 --stream -o "$T/$c.s.params" \
        --vk "$T/$c.s.vk" --json
    expect_out '"streamed":true' "setup --stream $c says it streamed"
    check "$c: streamed params = in-memory params" cmp "$T/$c.params" "$T/$c.s.params"
    check "$c: streamed vk = in-memory vk" cmp "$T/$c.vk" "$T/$c.s.vk"
    rm -f "$T/$c".*
done
if [ -n "$saved_cache" ]; then export CZK_CACHE_DIR="$saved_cache"; else unset CZK_CACHE_DIR; fi
P="--params-check curve"
# setup recorded the checksum sidecar with the file: the first prove (default
# --params-check pinned) does no full validation
check "setup wrote the sidecar" test -s "$T/p.params.czkcheck"
expect 0 "prove" -- prove --c1 "$T/a.json" --params "$T/p.params" -o "$T/proof.bin" --json
expect_out '"params_check":"pinned"' "first prove after setup: pinned, no full validation"
# tampered in place with the sidecar's size and mtime kept: still refused
cp -p "$T/p.params" "$T/t.params"
cp -p "$T/p.params.czkcheck" "$T/t.params.czkcheck"
n_ic=$(od -An -tu1 -j 864 -N4 "$T/p.params" | awk '{print $1*16777216 + $2*65536 + $3*256 + $4}')
flip_byte "$T/t.params" $((864 + 4 + n_ic * 96 + 4 + 5 * 96 + 20))
touch -r "$T/p.params" "$T/t.params"
expect 1 "tampered params, sidecar kept" -- prove --c1 "$T/a.json" --params "$T/t.params" -o "$T/bad.bin" --quiet
expect_out "section h, point 5" "tampered point named"
expect_absent "$T/bad.bin" "no proof after tampered params"
rm -f "$T/t.params" "$T/t.params.czkcheck"
expect 0 "verify" -- verify --vk "$T/p.vk" --c1 "$T/a.json" --proof "$T/proof.bin"
size=$(wc -c <"$T/proof.bin")
[ "$size" -eq 192 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: proof.bin is $size bytes"; }

# another C1's public inputs
expect 1 "verify against another c1" -- verify --vk "$T/p.vk" --c1 "$T/b.json" --proof "$T/proof.bin"
expect_out "verify" "rejection explained"
# bit flips in A, B and C
for off in 7 60 150; do
    cp "$T/proof.bin" "$T/flip.bin"
    flip_byte "$T/flip.bin" "$off"
    expect 1 "bit-flipped proof (byte $off)" -- verify --vk "$T/p.vk" --c1 "$T/a.json" --proof "$T/flip.bin"
    [ -s "$T/err" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: flipped byte $off: no message"; }
done
# truncated proof, missing files
head -c 191 "$T/proof.bin" >"$T/short.bin"
expect 1 "truncated proof" -- verify --vk "$T/p.vk" --c1 "$T/a.json" --proof "$T/short.bin"
expect 1 "missing proof" -- verify --vk "$T/p.vk" --c1 "$T/a.json" --proof "$T/nosuch.bin"
expect_out "nosuch.bin" "missing proof named"
expect 1 "missing vk" -- verify --vk "$T/nosuch.vk" --c1 "$T/a.json" --proof "$T/proof.bin"
expect 1 "params as vk" -- verify --vk "$T/a.json" --c1 "$T/a.json" --proof "$T/proof.bin"

# a corrupted point: h[5], x coordinate (vk: 3 G1 + 3 G2 = 864 bytes, u32 n_ic, ic, u32 n_h)
n_ic=$(od -An -tu1 -j 864 -N4 "$T/p.params" | awk '{print $1*16777216 + $2*65536 + $3*256 + $4}')
off=$((864 + 4 + n_ic * 96 + 4 + 5 * 96 + 20))
cp "$T/p.params" "$T/bad.params"
flip_byte "$T/bad.params" "$off"
# shellcheck disable=SC2086
expect 1 "corrupted h point" -- prove --c1 "$T/a.json" --params "$T/bad.params" $P -o "$T/bad.bin" --quiet
expect_out "section h, point 5" "section and point named"
expect_absent "$T/bad.bin" "no proof after corrupted params"
rm -f "$T/bad.params"
# truncated params
head -c 100000 "$T/p.params" >"$T/short.params"
# shellcheck disable=SC2086
expect 1 "truncated params" -- prove --c1 "$T/a.json" --params "$T/short.params" $P -o "$T/bad.bin" --quiet
expect_absent "$T/bad.bin" "no proof after truncated params"
expect 1 "missing params" -- prove --c1 "$T/a.json" --params "$T/nosuch.params" -o "$T/bad.bin" --quiet
expect_absent "$T/bad.bin" "no proof after missing params"
expect 1 "missing c1" -- prove --c1 "$T/nosuch.json" --params "$T/p.params" -o "$T/bad.bin" --quiet
expect_absent "$T/bad.bin" "no proof after missing c1"
# params of another shape: the 2KiB c1 against the 1-challenge params
expect 0 "gen-c1 2KiB" -- gen-c1 --sector-size 2KiB --seed 3 -o "$T/c.json" --quiet
# shellcheck disable=SC2086
expect 1 "params of another shape" -- prove --c1 "$T/c.json" --params "$T/p.params" $P -o "$T/bad.bin" --quiet
expect_absent "$T/bad.bin" "no proof with mismatched params"
expect 1 "vk of another shape" -- verify --vk "$T/p.vk" --c1 "$T/c.json" --proof "$T/proof.bin"

# usage errors: exit 2, nothing written
expect 2 "prove without -o" -- prove --c1 "$T/a.json" --params "$T/p.params"
expect 2 "prove with a bad flag" -- prove --c1 "$T/a.json" --params "$T/p.params" -o "$T/bad.bin" --bogus
expect_absent "$T/bad.bin" "no proof after usage error"
expect 2 "verify without --proof" -- verify --vk "$T/p.vk" --c1 "$T/a.json"
expect 2 "setup without --vk" -- setup --circuit porep $SHAPE -o "$T/x.params"
expect_absent "$T/x.params" "no params after usage error"
expect 2 "setup with a bad seed" -- setup --circuit porep $SHAPE --seed -1 -o "$T/x.params" --vk "$T/x.vk"
expect 2 "setup of an unknown circuit" -- setup --circuit nosuch $SHAPE -o "$T/x.params" --vk "$T/x.vk"
expect_absent "$T/x.params" "no params after bad circuit"
expect_absent "$T/x.vk" "no vk after bad circuit"

cli_finish
