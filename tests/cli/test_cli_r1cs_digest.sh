#!/bin/sh
# czk bench synth-only --r1cs-digest / --r1cs-dump / --r1cs-compare on the
# 2KiB partition (docs/r1cs-digest.md): two runs print the same digests and
# write the same dump; comparing with that dump exits 0, with a corrupted copy
# (a flipped hash, a changed count, a truncated file, a wrong magic) exits 1
# naming the constraint / count / offset; bad flag combinations exit 2.
# Usage: test_cli_r1cs_digest.sh /path/to/czk
set -u
CZK="$1"
. "$(dirname "$0")/lib.sh"
cli_init test_cli_r1cs_digest
B="bench synth-only --sector-size 2KiB -i 1 --no-nnz"

digests() { grep -E '^(inputs|aux|constraints|r1cs digest|assignment digest) ' "$1"; }

# shellcheck disable=SC2086
expect 0 "digest run a" -- $B --r1cs-digest --r1cs-dump "$T/a.dump"
cp "$T/out" "$T/a.out"
expect_out "^r1cs digest [0-9a-f]\{64\}$" "r1cs digest line"
expect_out "^assignment digest [0-9a-f]\{64\}$" "assignment digest line"
expect_out "^constraints 2687921$" "the circuit's own constraints (no input rows)"
expect_out "^inputs 40$" "inputs, ONE counted"
# shellcheck disable=SC2086
expect 0 "digest run b (sequential PROVE backend)" -- $B --seq --r1cs-digest --r1cs-dump "$T/b.dump"
cp "$T/out" "$T/b.out"
digests "$T/a.out" > "$T/a.dig"
digests "$T/b.out" > "$T/b.dig"
check "the two runs print the same counts and digests" cmp -s "$T/a.dig" "$T/b.dig"
check "five digest lines" sh -c "[ \$(wc -l < '$T/a.dig') -eq 5 ]"
check "the two dumps are identical" cmp -s "$T/a.dump" "$T/b.dump"
check "dump size 32 + 32 m" sh -c "[ \$(wc -c < '$T/a.dump') -eq $((32 + 32 * 2687921)) ]"
check "no temporary file left" sh -c "! ls '$T' | grep -q '\.tmp\.'"

# shellcheck disable=SC2086
expect 0 "compare with its own dump" -- $B --r1cs-compare "$T/a.dump"
expect_out "r1cs compare .*: identical" "identical message"
# shellcheck disable=SC2086
expect 0 "compare, json" -- $B --r1cs-compare "$T/a.dump" --json
expect_out '"r1cs_digest":"[0-9a-f]\{64\}"' "json digest"
expect_out '"identical":true' "json identical"

cp "$T/a.dump" "$T/flip.dump"
flip_byte "$T/flip.dump" $((32 + 32 * 1000 + 7))
# shellcheck disable=SC2086
expect 1 "compare with a flipped hash" -- $B --r1cs-compare "$T/flip.dump"
expect_out "DIFFERENT" "difference reported"
expect_out "first differing constraint: 1000 " "names constraint 1000"
expect_out "^constraint 1000 challenge_0/" "its namespace path"
expect_out "^    aux [0-9]* 0x[0-9a-f]\{64\}$" "its terms"
# shellcheck disable=SC2086
expect 1 "compare with a flipped hash, json" -- $B --r1cs-compare "$T/flip.dump" --json
expect_out '"first_differing":1000' "json first"
expect_out '"ok":false' "json not ok"

cp "$T/a.dump" "$T/count.dump"
flip_byte "$T/count.dump" 16
# shellcheck disable=SC2086
expect 1 "compare with another aux count" -- $B --r1cs-compare "$T/count.dump"
expect_out "count of aux differs: czk 2685673, dump 2685672" "names the count"

head -c 1000 "$T/a.dump" > "$T/trunc.dump"
# shellcheck disable=SC2086
expect 1 "compare with a truncated dump" -- $B --r1cs-compare "$T/trunc.dump"
expect_out "trunc.dump: truncated at offset 1000" "names file and offset"
check "a truncated dump fails before the timed runs" sh -c "! grep -q '^min ' '$T/out'"

printf 'NOTADUMP' > "$T/magic.dump"
dd if="$T/a.dump" bs=1 skip=8 count=100 2>/dev/null >> "$T/magic.dump"
# shellcheck disable=SC2086
expect 1 "compare with a wrong magic" -- $B --r1cs-compare "$T/magic.dump"
expect_out "offset 0: not an R1CS dump" "wrong magic"
# shellcheck disable=SC2086
expect 1 "compare with a missing file" -- $B --r1cs-compare "$T/missing.dump"

# shellcheck disable=SC2086
expect 2 "--r1cs-digest with --all" -- $B --all --r1cs-digest
# shellcheck disable=SC2086
expect 2 "--r1cs-digest with --pce on" -- $B --pce on --r1cs-digest

cli_finish
