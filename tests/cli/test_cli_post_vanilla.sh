#!/bin/sh
# czk bench synth-only --circuit window-post|winning-post --vanilla DIR on the
# real 2KiB vanilla proofs in tests/filecoin/vectors: the counts of
# czk_post_circuit_counts (tests/circuits/test_post.c), the r1cs and
# assignment digests (64 hex digits, pinned, equal across runs, thread counts
# and backends), --r1cs-dump / --r1cs-compare, tampered proofs failing their
# native check, and every bad input named with a non-zero exit.
# Usage: test_cli_post_vanilla.sh /path/to/czk
set -u
CZK="$1"
. "$(dirname "$0")/lib.sh"
cli_init test_cli_post_vanilla
V="$(cd "$(dirname "$0")/../filecoin/vectors" && pwd)"
W="bench synth-only --circuit window-post -i 1"
N="bench synth-only --circuit winning-post -i 1"
# the digests of the committed vectors (czk's own; the reference's are the
# oracle tests' business)
WR=5543576b057ef9535d2a1e6f4d09d826aa8769bb80d0535b922fa6164a5647a5
WA=d646d5cbb5cd7c9e120953debd878d52f06977ad0ab04707c784b986f104800e
NR=3d373d772916fb7874a4a7829fbbe9dc432bcfd4dd23ea15188c5a5042c8b972
NA=52bb3953421546e5c3fe833c1cd8615b751771e54700fa30eb536035024c5382

digests() { grep -E '^(inputs|aux|constraints|r1cs digest|assignment digest) ' "$1"; }

# --- WindowPoSt: 2 circuit sectors x 10 challenges, 2 x (313 + 10 x 1,062)
# constraints, 22 public inputs + ONE; one real sector, the second padded
# shellcheck disable=SC2086
expect 0 "window, digest and dump" -- $W --vanilla "$V" --r1cs-dump "$T/w.dump" --threads 2
cp "$T/out" "$T/w1.out"
expect_out "^inputs 23$" "window inputs"
expect_out "^aux 22128$" "window aux"
expect_out "^constraints 21866$" "window constraints (without the 23 input constraints)"
expect_out "^r1cs digest [0-9a-f]\{64\}$" "window r1cs digest: 64 hex digits"
expect_out "^assignment digest [0-9a-f]\{64\}$" "window assignment digest: 64 hex digits"
expect_out "^r1cs digest $WR$" "window r1cs digest pinned"
expect_out "^assignment digest $WA$" "window assignment digest pinned"
expect_out "1 vanilla sectors read and checked" "the proofs were read, not generated"
check "dump size 32 + 32 x 21866" sh -c "[ \$(wc -c < '$T/w.dump') -eq $((32 + 32 * 21866)) ]"
# shellcheck disable=SC2086
expect 0 "window, one thread" -- $W --vanilla "$V" --r1cs-digest --threads 1
cp "$T/out" "$T/w2.out"
# shellcheck disable=SC2086
expect 0 "window, witness backend" -- $W --vanilla "$V" --r1cs-digest --backend witness --no-nnz
cp "$T/out" "$T/w3.out"
digests "$T/w1.out" > "$T/w1.dig"
digests "$T/w2.out" > "$T/w2.dig"
digests "$T/w3.out" > "$T/w3.dig"
check "five digest lines" sh -c "[ \$(wc -l < '$T/w1.dig') -eq 5 ]"
check "threads 2 and 1 print the same counts and digests" cmp -s "$T/w1.dig" "$T/w2.dig"
check "prove and witness backends print the same counts and digests" cmp -s "$T/w1.dig" "$T/w3.dig"

# shellcheck disable=SC2086
expect 0 "window, compare with its own dump" -- $W --vanilla "$V" --r1cs-compare "$T/w.dump"
expect_out "^r1cs compare $T/w.dump: identical (23 inputs, 22128 aux, 21866 constraints, every h_c equal)$" \
    "identical verdict"
# shellcheck disable=SC2086
expect 0 "window, compare, json" -- $W --vanilla "$V" --r1cs-compare "$T/w.dump" --json
expect_out "\"vanilla\":\"read\"" "json: read"
expect_out "\"r1cs\":{\"inputs\":23,\"aux\":22128,\"constraints\":21866,\"r1cs_digest\":\"$WR\"" "json counts, digest"
expect_out "\"assignment_digest\":\"$WA\"" "json assignment digest"
expect_out "\"identical\":true" "json identical"
expect_out "\"ok\":true,\"process\":{" "json ok (then czk bench's whole-process member, last)"

# The generated witness: the same matrices (the dump compares identical), another assignment.
# shellcheck disable=SC2086
expect 0 "generated window partition against the real one's dump" -- \
    $W --sector-size 2KiB --r1cs-compare "$T/w.dump"
expect_out "^r1cs digest $WR$" "generated: the same r1cs digest"
expect_out "^assignment digest [0-9a-f]\{64\}$" "generated: an assignment digest"
check "generated: another assignment digest" sh -c "! grep -q '^assignment digest $WA$' '$T/out'"

# A dump with one constraint hash changed: DIFFERENT, exit 1.
cp "$T/w.dump" "$T/w-bad.dump"
flip_byte "$T/w-bad.dump" $((32 + 32 * 1000 + 5))
# shellcheck disable=SC2086
expect 1 "compare with a changed dump" -- $W --vanilla "$V" --r1cs-compare "$T/w-bad.dump"
expect_out "r1cs compare $T/w-bad.dump: DIFFERENT" "different verdict"
expect_out "first differing constraint: 1000 " "names constraint 1000"

# --- WinningPoSt: 66 circuit sectors of one challenge, 66 x (313 + 1,062)
# shellcheck disable=SC2086
expect 0 "winning, digest and dump" -- $N --vanilla "$V" --r1cs-dump "$T/n.dump"
cp "$T/out" "$T/n1.out"
expect_out "^inputs 133$" "winning inputs"
expect_out "^aux 91674$" "winning aux"
expect_out "^constraints 90750$" "winning constraints"
expect_out "^r1cs digest $NR$" "winning r1cs digest pinned"
expect_out "^assignment digest $NA$" "winning assignment digest pinned"
# shellcheck disable=SC2086
expect 0 "winning, one thread" -- $N --vanilla "$V" --r1cs-digest --threads 1
digests "$T/n1.out" > "$T/n1.dig"
digests "$T/out" > "$T/n2.dig"
check "winning: two runs print the same counts and digests" cmp -s "$T/n1.dig" "$T/n2.dig"
# shellcheck disable=SC2086
expect 0 "winning, compare with its own dump" -- $N --vanilla "$V" --r1cs-compare "$T/n.dump"
expect_out "r1cs compare $T/n.dump: identical" "winning identical"
# shellcheck disable=SC2086
expect 1 "winning against the window dump" -- $N --vanilla "$V" --r1cs-compare "$T/w.dump"
expect_out "count of inputs differs: czk 133, dump 23" "the input counts named"
expect_out "count of constraints differs: czk 90750, dump 21866" "the constraint counts named"

# --- tampered proofs: the native check fails, naming sector and challenge; no dump is left
mk() { rm -rf "$T/d"; mkdir "$T/d" && cp "$V"/post-*.json "$V"/vanilla-*.bin "$T/d"; }
mk
flip_byte "$T/d/vanilla-window.bin" $((5680 - 64)) # comm_c's low byte
# shellcheck disable=SC2086
expect 1 "another comm_c" -- $W --vanilla "$T/d" --r1cs-dump "$T/t.dump"
expect_out "vanilla-window.bin: the native check: .*sector proof 0 (sector 264602): comm_r != Poseidon2(comm_c, comm_r_last)" \
    "comm_c change named"
expect_absent "$T/t.dump" "no dump from a failed check"
mk
flip_byte "$T/d/vanilla-window.bin" 140 # inclusion proof 0, first sibling
# shellcheck disable=SC2086
expect 1 "another sibling" -- $W --vanilla "$T/d" --r1cs-digest
expect_out "sector proof 0 (sector 264602): challenge 0 (leaf 13): path does not hash to comm_r_last" \
    "sibling change named by sector and challenge"
mk
flip_byte "$T/d/vanilla-winning.bin" 0 # the sector id
# shellcheck disable=SC2086
expect 1 "another sector id" -- $N --vanilla "$T/d" --r1cs-digest
expect_out "vanilla-winning.bin: sector proof 0 is of sector 264603; .*post-winning.json: sector_ids\[0\] is 264602" \
    "sector id mismatch named"
mk
sed '3s/13/14/' "$V/post-window.json" > "$T/d/post-window.json"
# shellcheck disable=SC2086
expect 1 "another challenge in the json" -- $W --vanilla "$T/d"
expect_out "challenge 0: proves leaf 13; .*post-window.json: challenges\[0\] is 14" "challenge mismatch named"

# --- bad input
# shellcheck disable=SC2086
expect 1 "missing directory" -- $W --vanilla "$T/nothing"
expect_out "$T/nothing/post-window.json: cannot open" "missing json named"
mk
rm "$T/d/vanilla-window.bin"
# shellcheck disable=SC2086
expect 1 "missing bincode" -- $W --vanilla "$T/d"
expect_out "$T/d/vanilla-window.bin: cannot open" "missing bincode named"
mk
head -c 100 "$V/post-window.json" > "$T/d/post-window.json"
# shellcheck disable=SC2086
expect 1 "truncated json" -- $W --vanilla "$T/d"
expect_out "$T/d/post-window.json: line [0-9]* column [0-9]*: " "truncated json named with its position"
mk
sed 's/StackedDrgWindow2KiBV1_2/StackedDrgWindow2KiBV7/' "$V/post-window.json" > "$T/d/post-window.json"
# shellcheck disable=SC2086
expect 1 "unknown proof type" -- $W --vanilla "$T/d"
expect_out "post-window.json: registered_post_proof: unknown PoSt proof type 'StackedDrgWindow2KiBV7' (version 'V7')" \
    "unknown proof type named"
mk
sed 's/"randomness"/"randomnes"/' "$V/post-window.json" > "$T/d/post-window.json"
# shellcheck disable=SC2086
expect 1 "json without randomness" -- $W --vanilla "$T/d"
expect_out "post-window.json: missing key \"randomness\"" "missing key named"
mk
cp "$V/post-winning.json" "$T/d/post-window.json"
# shellcheck disable=SC2086
expect 1 "a winning json as the window one" -- $W --vanilla "$T/d"
expect_out "post-window.json: registered_post_proof StackedDrgWinning2KiBV1 is a winning-post proof, not window-post" \
    "wrong kind named"
mk
head -c 100 "$V/vanilla-window.bin" > "$T/d/vanilla-window.bin"
# shellcheck disable=SC2086
expect 1 "short bincode" -- $W --vanilla "$T/d"
expect_out "vanilla-window.bin: 100 bytes, want 5680 (1 sector proof(s) of 5680 bytes" "short bincode named"
mk
cp "$V/vanilla-winning.bin" "$T/d/vanilla-window.bin"
# shellcheck disable=SC2086
expect 1 "the winning bincode as the window one" -- $W --vanilla "$T/d"
expect_out "vanilla-window.bin: 36816 bytes, want 5680" "wrong-size bincode named"
mk
flip_byte "$T/d/vanilla-window.bin" 56 # the Merkle variant index
# shellcheck disable=SC2086
expect 1 "bad bincode variant" -- $W --vanilla "$T/d"
expect_out "vanilla-window.bin: vanilla PoSt sector proof 0 (sector 264602): inclusion proof 0, variant: expected 0 (Single, the tree's shape), found 1 (Sub) (byte offset 56)" \
    "bad bincode named with field and offset"
# shellcheck disable=SC2086
expect 2 "--vanilla with --sector-size" -- $W --vanilla "$V" --sector-size 2KiB
expect_out "takes the shape from DIR's json" "usage error"
expect 2 "--vanilla without a PoSt circuit" -- bench synth-only --vanilla "$V"
expect_out "--vanilla DIR is for --circuit window-post|winning-post" "porep usage error"
# shellcheck disable=SC2086
expect 1 "a missing compare dump fails before synthesis" -- $W --vanilla "$V" --r1cs-compare "$T/none.dump"
expect_out "--r1cs-compare: " "missing dump named"

cli_finish
