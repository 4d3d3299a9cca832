#!/bin/sh
# czk setup --circuit snap / prove --snap / verify --snap end to end at 2KiB
# (1,705,039 constraints): the real update of tests/filecoin/vectors
# (filecoin-proofs' partition proof) and a czk gen-snap update, both proven
# with one seeded setup; and the failures: a flipped proof byte, another
# comm_r_new / comm_d_new in snap.json, a proof of the wrong length, a
# tampered or short partition proof refused before proving (no output file),
# a key of another circuit, a missing file, the v28 names.
# Under ASan only the refusals and the generator run.
# Usage: test_cli_snap.sh /path/to/czk
set -u
CZK="$1"
. "$(dirname "$0")/lib.sh"
cli_init test_cli_snap
export CZK_CACHE_DIR="$T/cache" # czk's own cache (PCE files): this test's
VEC="$(dirname "$0")/../filecoin/vectors"
P="--params-check curve"
S28=v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-
S28=${S28}fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194

# refused before any parameter is read: a tampered partition proof (a tree D
# sibling of challenge 3), a short one, a missing one ($T/pc does not exist yet)
mkdir -p "$T/bad"
cp "$VEC/snap.json" "$VEC/snap-partition-0.bin" "$T/bad/"
flip_byte "$T/bad/snap-partition-0.bin" 5000
# shellcheck disable=SC2086
expect 1 "prove a tampered partition proof" -- prove --snap --vanilla "$T/bad" --param-cache "$T/pc" $P -o "$T/no.proof"
expect_out "SnapDeals partition 0 challenge 3 (node" "the tampered challenge named"
expect_absent "$T/no.proof" "no proof from a tampered partition proof"
head -c 7000 "$VEC/snap-partition-0.bin" >"$T/bad/snap-partition-0.bin"
# shellcheck disable=SC2086
expect 1 "prove a short partition proof" -- prove --snap --vanilla "$T/bad" --param-cache "$T/pc" $P -o "$T/no.proof"
expect_out "snap-partition-0.bin: 7000 bytes, want 15064 (a StackedDrg2KiBV1 partition proof)" "short proof named"
expect_absent "$T/no.proof" "no proof from a short partition proof"
rm -f "$T/bad/snap-partition-0.bin"
expect 1 "a missing partition proof" -- prove --snap --vanilla "$T/bad" --param-cache "$T/pc" -o "$T/no.proof"
expect_out "snap-partition-0.bin: cannot open" "the missing file named"


# czk gen-snap: the same seed, the same bytes
expect 0 "gen-snap 2KiB" -- gen-snap --sector-size 2KiB --seed 4 -o "$T/gen" --json
expect_out '"registered_update_proof":"StackedDrg2KiBV1","sector_size":2048,"partitions":1,"challenges":10' \
    "gen-snap reports the update"
expect 0 "gen-snap again" -- gen-snap --sector-size 2KiB --seed 4 -o "$T/gen2" --quiet
check "gen-snap: the same seed, the same partition proof" cmp -s "$T/gen/snap-partition-0.bin" \
    "$T/gen2/snap-partition-0.bin"
check "gen-snap: the same seed, the same snap.json" cmp -s "$T/gen/snap.json" "$T/gen2/snap.json"
if [ -n "${CZK_TEST_ASAN:-}" ]; then
    echo "  (ASan build: the 1.7M-constraint setup and the proofs are left to the Release run)"
    cli_finish
fi

# the parameters, under their v28 name (with the checksum sidecar)
expect 0 "setup snap 2KiB --param-cache" -- setup --circuit snap --sector-size 2KiB --seed 1 --param-cache "$T/pc" \
    --quiet
for f in "$T/pc/$S28.params" "$T/pc/$S28.vk" "$T/pc/$S28.params.czkcheck"; do
    check "setup --param-cache wrote $f" test -s "$f"
done
mkdir -p "$T/real"
cp "$VEC/snap.json" "$VEC/snap-partition-0.bin" "$T/real/"

# the real update, by its v28 name
expect 0 "prove --snap the real update" -- prove --snap --vanilla "$T/real" --param-cache "$T/pc" -o "$T/real.proof" \
    --json --quiet
expect_out '"kind":"snap","registered_proof":"StackedDrg2KiBV1"' "prove --snap reports the kind and proof type"
expect_out '"verified":true' "prove --snap verified its proof"
check "the update proof is 192 bytes" test "$(wc -c <"$T/real.proof")" -eq 192
expect 0 "verify --snap the real update" -- verify --snap --vanilla "$T/real" --param-cache "$T/pc" \
    --proof "$T/real.proof"
expect_out "valid: 1 snap proof of StackedDrg2KiBV1" "verify --snap says valid"
for off in 7 60 150; do
    cp "$T/real.proof" "$T/flip.bin"
    flip_byte "$T/flip.bin" "$off"
    expect 1 "flipped proof byte $off" -- verify --snap --vanilla "$T/real" --vk "$T/pc/$S28.vk" --proof "$T/flip.bin"
done
head -c 191 "$T/real.proof" >"$T/short.proof"
expect 1 "a proof one byte short" -- verify --snap --vanilla "$T/real" --vk "$T/pc/$S28.vk" --proof "$T/short.proof"
expect_out "191 bytes, expected 1 proof of 192 bytes" "a short proof named"

# the parallel prover and PCE give proofs that verify (their assignments
# equal full synthesis bit for bit: tests/snap/test_snap_sources.c)
expect 0 "pce build --circuit snap 2KiB" -- pce build --circuit snap --sector-size 2KiB --quiet
expect 0 "prove --snap --pce on" -- prove --snap --vanilla "$T/real" --param-cache "$T/pc" --pce on -o "$T/pce.proof" \
    --json --quiet
expect_out '"witness":"pce"' "prove --snap --pce on names its witness source"
expect 0 "verify the PCE proof" -- verify --snap --vanilla "$T/real" --param-cache "$T/pc" --proof "$T/pce.proof"
expect 0 "prove --snap --parallel --pce off" -- prove --snap --vanilla "$T/real" --param-cache "$T/pc" --pce off \
    --parallel -o "$T/par.proof" --json --quiet
expect_out '"witness":"parallel"' "prove --snap --parallel names its witness source"
expect 0 "verify the parallel prover's proof" -- verify --snap --vanilla "$T/real" --param-cache "$T/pc" \
    --proof "$T/par.proof"

# other commitments in snap.json: the proof fails for another comm_r_new
for key in comm_r_new comm_d_new comm_r_old; do
    mkdir -p "$T/$key"
    python3 - "$VEC/snap.json" "$T/$key/snap.json" "$key" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j[sys.argv[3]][0] ^= 1
json.dump(j, open(sys.argv[2], "w"))
PY
    expect 1 "verify with another $key" -- verify --snap --vanilla "$T/$key" --vk "$T/pc/$S28.vk" \
        --proof "$T/real.proof"
    expect_out "INVALID" "another $key is invalid"
    # prove refuses the same directory before proving: the native check fails
    cp "$VEC/snap-partition-0.bin" "$T/$key/"
    # shellcheck disable=SC2086
    expect 1 "prove with another $key" -- prove --snap --vanilla "$T/$key" --param-cache "$T/pc" $P -o "$T/no.proof"
    expect_out "the job.s input is refused (nothing written)" "another $key refused"
    expect_absent "$T/no.proof" "no proof with another $key"
done
expect_out "the native check: SnapDeals partition 0" "the native check names the partition"

# czk gen-snap's update proven and verified
# shellcheck disable=SC2086
expect 0 "prove --snap a gen-snap update" -- prove --snap --vanilla "$T/gen" --params "$T/pc/$S28.params" $P \
    -o "$T/gen.proof" --quiet
expect 0 "verify --snap the gen-snap update" -- verify --snap --vanilla "$T/gen" --vk "$T/pc/$S28.vk" \
    --proof "$T/gen.proof"
expect 1 "the gen-snap proof is not the real update's" -- verify --snap --vanilla "$T/real" --vk "$T/pc/$S28.vk" \
    --proof "$T/gen.proof"
expect 0 "gen-snap 32GiB (16 partitions of 561,768 bytes, seconds)" -- gen-snap --sector-size 32GiB -o "$T/g32" --json
expect_out '"partitions":16,"challenges":86,"partition_bytes":561768' "gen-snap 32GiB reports its proofs"
check "gen-snap 32GiB wrote partition 15" test "$(wc -c <"$T/g32/snap-partition-15.bin")" -eq 561768

# czk serve: the real update as Curio sends it (SNAP_DEALS_UPDATE: one
# bincode partition proof per partition, the three commitments), proven with
# the v28 parameters of the daemon's cache; czk verify accepts the proof, and
# a request for another comm_r_new is refused at submission
hexof() { python3 -c "import json,sys; print(bytes(json.load(open(sys.argv[1]))[sys.argv[2]]).hex())" "$1" "$2"; }
if "$CZK" serve --help >/dev/null 2>&1; then
    cat >"$T/czk.toml" <<EOT
[daemon]
listen = "unix://$T/czk.sock"
[srs]
param_cache = "$T/pc"
[memory]
total_budget = "4GiB"
[scheduler]
# beside other ctest jobs a lowered prover would only be slower (tests/engine tests the lowering)
background_nice = 0
EOT
    "$CZK" serve -c "$T/czk.toml" >"$T/serve.out" 2>"$T/serve.err" &
    srv=$!
    i=0
    while ! grep -q "listening on" "$T/serve.err" && [ $i -lt 300 ] && kill -0 "$srv" 2>/dev/null; do
        sleep 0.1
        i=$((i + 1))
    done
    if grep -q "listening on" "$T/serve.err"; then
        A="unix://$T/czk.sock"
        CRO=$(hexof "$VEC/snap.json" comm_r_old)
        CRN=$(hexof "$VEC/snap.json" comm_r_new)
        CDN=$(hexof "$VEC/snap.json" comm_d_new)
        expect 0 "czk serve proves the update" -- client prove --addr "$A" --kind snap --registered-proof 0 \
            --vanilla "$VEC/snap-partition-0.bin" --comm-r-old "$CRO" --comm-r-new "$CRN" --comm-d-new "$CDN" \
            --request-id snap-1 -o "$T/serve.proof"
        expect_out "job snap-1 COMPLETED: 192 proof bytes" "the daemon's summary line"
        expect 0 "czk verify accepts the daemon's proof" -- verify --snap --vanilla "$T/real" --param-cache "$T/pc" \
            --proof "$T/serve.proof"
        expect 1 "a request for another comm_r_new" -- client prove --addr "$A" --kind snap --registered-proof 0 \
            --vanilla "$VEC/snap-partition-0.bin" --comm-r-old "$CRO" --comm-r-new "$CRO" --comm-d-new "$CDN" \
            -o "$T/no.proof"
        expect_out "INVALID_ARGUMENT" "refused as INVALID_ARGUMENT"
        expect_out "SnapDeals partition 0" "the refusal names the partition"
        expect_absent "$T/no.proof" "no proof for another comm_r_new"
    else
        fail=$((fail + 1))
        echo "FAIL: czk serve did not start"
        sed 's/^/  serve: /' "$T/serve.err" | tail -5
    fi
    kill -TERM "$srv" 2>/dev/null
    wait "$srv"
else
    echo "  (czk serve is not built: the daemon case is skipped)"
fi

# a key of another circuit, an empty cache
expect 0 "setup window-post (another circuit)" -- setup --circuit window-post --sector-size 2KiB --seed 1 \
    -o "$T/w.params" --vk "$T/w.vk" --quiet
expect 1 "verify --snap with a WindowPoSt key" -- verify --snap --vanilla "$T/real" --vk "$T/w.vk" \
    --proof "$T/real.proof"
expect_out "the verifying key has 23 public inputs, the SnapDeals circuit 5" "the key mismatch named"
# shellcheck disable=SC2086
expect 1 "prove --snap with WindowPoSt parameters" -- prove --snap --vanilla "$T/real" --params "$T/w.params" $P \
    -o "$T/no.proof"
expect_absent "$T/no.proof" "no proof with another circuit's parameters"
expect 1 "prove --snap from an empty cache" -- prove --snap --vanilla "$T/real" --param-cache "$T/none" \
    -o "$T/no.proof"
expect_out "$S28.params" "the 2KiB v28 name"
expect 1 "verify --snap from an empty cache" -- verify --snap --vanilla "$T/gen" --param-cache "$T/none" \
    --proof "$T/gen.proof"
expect_out "$S28.vk" "the 2KiB v28 vk name"
cli_finish
