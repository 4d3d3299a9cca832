#!/bin/sh
# czk <-> snarkjs interoperability on circom circuits (BLS12-381):
#   czk's proof verified by `snarkjs groth16 verify`, snarkjs' proof verified by
#   `czk circom verify`, tampered proofs / public inputs rejected by both, and an
#   unsatisfying witness refused by `czk circom prove` (constraint and signal named).
# Usage: run_interop.sh FIXTURE_DIR CZK_BINARY
# Builds the fixtures first (build_fixtures.sh; cached in FIXTURE_DIR).
# Prints "N passed, M failed"; exits non-zero on any failure or missing tool.
set -u
FIX="$1"
CZK="$2"
SRC="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$SRC/../.." && pwd)"
SNARKJS="$ROOT/node_modules/.bin/snarkjs"

if ! command -v node >/dev/null 2>&1 || [ ! -x "$SNARKJS" ]; then
    echo "run_interop: node or snarkjs missing: run scripts/install-npm-deps (installs snarkjs, circom2," \
         "circomlib into ./node_modules); this test does not skip" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
"$SRC/build_fixtures.sh" "$FIX" || { echo "0 passed, 1 failed"; exit 1; }

pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
T="$FIX/run.$$"
mkdir -p "$T"

expect() { # expect CODE DESC -- cmd...
    want="$1"; desc="$2"; shift 3
    "$@" >"$T/out" 2>&1
    got=$?
    if [ "$got" -eq "$want" ]; then ok; else bad "$desc: exit $got, wanted $want"; sed 's/^/    /' "$T/out" | tail -5; fi
}
expect_out() { # expect_out PATTERN DESC (last command's output)
    if grep -q -- "$1" "$T/out"; then ok; else bad "$2: output lacks '$1'"; sed 's/^/    /' "$T/out" | tail -5; fi
}
snarkjs_verify() { # vk public proof -> exit 0 only if snarkjs prints OK
    "$SNARKJS" groth16 verify "$1" "$2" "$3" >"$T/sj" 2>&1
    rc=$?
    cat "$T/sj"
    grep -q "OK!" "$T/sj" && [ "$rc" -eq 0 ]
}
# node helpers to edit JSON files
json_edit() { # json_edit IN OUT JS-expression-on-o
    node -e "const fs=require('fs');const o=JSON.parse(fs.readFileSync(process.argv[1]));$3;fs.writeFileSync(process.argv[2],JSON.stringify(o))" "$1" "$2"
}

for c in mult sha_rounds; do
    D="$FIX"
    expect 0 "$c: czk prove (r1cs-checked)" -- "$CZK" circom prove --zkey "$D/$c.zkey" --wtns "$D/$c.wtns" \
        --r1cs "$D/$c.r1cs" --sym "$D/$c.sym" -o "$T/$c.proof.json" --public "$T/$c.public.json"
    expect 0 "$c: czk prove (zkey only)" -- "$CZK" circom prove --zkey "$D/$c.zkey" --wtns "$D/$c.wtns" \
        -o "$T/$c.proof2.json" --public "$T/$c.public2.json"
    expect 0 "$c: czk's public.json equals snarkjs'" -- node -e \
        "const f=require('fs');const a=JSON.parse(f.readFileSync(process.argv[1])),b=JSON.parse(f.readFileSync(process.argv[2]));process.exit(JSON.stringify(a)===JSON.stringify(b)?0:1)" \
        "$T/$c.public.json" "$D/$c.public.json"
    expect 0 "$c: snarkjs verifies czk's proof" -- snarkjs_verify "$D/$c.vk.json" "$T/$c.public.json" "$T/$c.proof.json"
    expect 0 "$c: snarkjs verifies czk's second proof" -- snarkjs_verify "$D/$c.vk.json" "$T/$c.public2.json" "$T/$c.proof2.json"
    expect 0 "$c: czk verifies snarkjs' proof" -- "$CZK" circom verify --vk "$D/$c.vk.json" \
        --proof "$D/$c.snarkjs_proof.json" --public "$D/$c.public.json"
    expect 0 "$c: czk verifies its own proof" -- "$CZK" circom verify --vk "$D/$c.vk.json" \
        --proof "$T/$c.proof.json" --public "$T/$c.public.json"

    # tampered public input: +1 on the first public value
    json_edit "$D/$c.public.json" "$T/$c.pub_bad.json" "o[0]=(BigInt(o[0])+1n).toString()"
    expect 1 "$c: czk rejects snarkjs' proof with a changed public input" -- "$CZK" circom verify \
        --vk "$D/$c.vk.json" --proof "$D/$c.snarkjs_proof.json" --public "$T/$c.pub_bad.json"
    expect_out "INVALID" "$c: czk says INVALID"
    expect 1 "$c: snarkjs rejects czk's proof with a changed public input" -- snarkjs_verify "$D/$c.vk.json" \
        "$T/$c.pub_bad.json" "$T/$c.proof.json"
    # public value >= r (r itself)
    json_edit "$D/$c.public.json" "$T/$c.pub_r.json" \
        "o[0]='52435875175126190479447740508185965837690552500527637822603658699938581184513'"
    expect 1 "$c: czk rejects a public value >= r" -- "$CZK" circom verify --vk "$D/$c.vk.json" \
        --proof "$D/$c.snarkjs_proof.json" --public "$T/$c.pub_r.json"
    expect_out "below r" "$c: czk names the out-of-range public value"
    expect 1 "$c: snarkjs rejects a public value >= r" -- snarkjs_verify "$D/$c.vk.json" "$T/$c.pub_r.json" \
        "$D/$c.snarkjs_proof.json"
    # tampered proofs: pi_a replaced by pi_c (a valid point), and pi_a moved off the curve
    json_edit "$D/$c.snarkjs_proof.json" "$T/$c.swap.json" "o.pi_a=o.pi_c"
    expect 1 "$c: czk rejects snarkjs' proof with pi_a := pi_c" -- "$CZK" circom verify --vk "$D/$c.vk.json" \
        --proof "$T/$c.swap.json" --public "$D/$c.public.json"
    json_edit "$T/$c.proof.json" "$T/$c.swap2.json" "o.pi_a=o.pi_c"
    expect 1 "$c: snarkjs rejects czk's proof with pi_a := pi_c" -- snarkjs_verify "$D/$c.vk.json" \
        "$T/$c.public.json" "$T/$c.swap2.json"
    json_edit "$T/$c.proof.json" "$T/$c.off.json" "o.pi_a[0]=(BigInt(o.pi_a[0])+1n).toString()"
    expect 1 "$c: czk rejects a proof point off the curve" -- "$CZK" circom verify --vk "$D/$c.vk.json" \
        --proof "$T/$c.off.json" --public "$T/$c.public.json"
    expect_out "not on the curve" "$c: czk says why"
    expect 1 "$c: snarkjs rejects a proof point off the curve" -- snarkjs_verify "$D/$c.vk.json" \
        "$T/$c.public.json" "$T/$c.off.json"
    json_edit "$T/$c.proof.json" "$T/$c.pb.json" "o.pi_b[0]=[o.pi_b[0][1],o.pi_b[0][0]]"
    expect 1 "$c: czk rejects a proof with pi_b's x coordinates swapped" -- "$CZK" circom verify \
        --vk "$D/$c.vk.json" --proof "$T/$c.pb.json" --public "$T/$c.public.json"
done

# An unsatisfying witness: change the last witness value (an internal signal).
W="$FIX/sha_rounds.wtns"
size=$(wc -c <"$W")
cp "$W" "$T/bad.wtns"
byte=$(od -An -tu1 -j $((size - 32)) -N1 "$W" | tr -d ' ')
printf "$(printf '\\%03o' $(((byte + 1) % 256)))" | dd of="$T/bad.wtns" bs=1 seek=$((size - 32)) conv=notrunc 2>/dev/null
expect 1 "unsatisfying witness refused with --r1cs" -- "$CZK" circom prove --zkey "$FIX/sha_rounds.zkey" \
    --wtns "$T/bad.wtns" --r1cs "$FIX/sha_rounds.r1cs" --sym "$FIX/sha_rounds.sym" -o "$T/x.json" --public "$T/y.json"
expect_out "constraint [0-9]* of [0-9]* is not satisfied" "the failing constraint is named"
expect_out "main\." "the signals are named from the .sym file"
expect 1 "unsatisfying witness refused without --r1cs" -- "$CZK" circom prove --zkey "$FIX/sha_rounds.zkey" \
    --wtns "$T/bad.wtns" -o "$T/x.json" --public "$T/y.json"
expect_out "does not verify" "the self-verification failure is reported"
[ ! -e "$T/x.json" ] && ok || bad "no proof.json is written for an unsatisfying witness"
# A witness of another circuit.
expect 1 "witness of another circuit" -- "$CZK" circom prove --zkey "$FIX/sha_rounds.zkey" \
    --wtns "$FIX/mult.wtns" -o "$T/x.json" --public "$T/y.json"
# zkey / r1cs mismatch
expect 1 "zkey made for another r1cs" -- "$CZK" circom prove --zkey "$FIX/mult.zkey" \
    --wtns "$FIX/mult.wtns" --r1cs "$FIX/sha_rounds.r1cs" -o "$T/x.json" --public "$T/y.json"
# snarkjs' and circom's files end exactly at their last section (the proofs above read them);
# one byte more is an error naming the file and the offset.
for f in "$FIX/sha_rounds.zkey" "$FIX/sha_rounds.wtns" "$FIX/sha_rounds.r1cs"; do
    b=$(basename "$f")
    cp "$f" "$T/long.$b"
    printf '\000' >>"$T/long.$b"
    size=$(wc -c <"$f")
    case "$b" in
    *.zkey) expect 1 "$b + 1 byte refused" -- "$CZK" circom prove --zkey "$T/long.$b" --wtns "$FIX/sha_rounds.wtns" \
        -o "$T/x.json" --public "$T/y.json" ;;
    *.wtns) expect 1 "$b + 1 byte refused" -- "$CZK" circom prove --zkey "$FIX/sha_rounds.zkey" --wtns "$T/long.$b" \
        -o "$T/x.json" --public "$T/y.json" ;;
    *) expect 1 "$b + 1 byte refused" -- "$CZK" circom prove --zkey "$FIX/sha_rounds.zkey" \
        --wtns "$FIX/sha_rounds.wtns" --r1cs "$T/long.$b" -o "$T/x.json" --public "$T/y.json" ;;
    esac
    expect_out "long.$b: byte $size: 1 bytes after the last" "$b + 1 byte: file and offset named"
done
# the benchmark runs and self-checks
expect 0 "bench circom" -- "$CZK" bench circom --zkey "$FIX/mult.zkey" --wtns "$FIX/mult.wtns" \
    --r1cs "$FIX/mult.r1cs" -i 1
expect_out "MSM B2" "bench prints per-stage times"

rm -rf "$T"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
