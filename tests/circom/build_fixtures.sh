#!/bin/sh
# Build the circom/snarkjs fixtures for czk's interoperability test
# (tests/circom/run_interop.sh): compile the circuits with circom2 for
# BLS12-381, make a small powers of tau and a Groth16 setup with snarkjs,
# compute witnesses, and have snarkjs prove each circuit once.
#
# Usage: build_fixtures.sh OUTDIR [POWER]
#   OUTDIR  where everything goes; reused when its stamp matches the sources
#   POWER   powers-of-tau size (default 11: domains up to 2048)
# Needs the npm packages of the repository's package.json in ./node_modules
# (scripts/install-npm-deps); fails with a message if they are missing.
set -eu
OUT="$1"
POWER="${2:-11}"
SRC="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$SRC/../.." && pwd)"
BIN="$ROOT/node_modules/.bin"
CIRCUITS="mult sha_rounds"

for t in node "$BIN/snarkjs" "$BIN/circom2"; do
    if ! command -v "$t" >/dev/null 2>&1; then
        echo "build_fixtures: '$t' not found: run scripts/install-npm-deps (needs node and npm)" >&2
        exit 1
    fi
done
[ -d "$ROOT/node_modules/circomlib/circuits" ] || {
    echo "build_fixtures: circomlib missing from $ROOT/node_modules: run scripts/install-npm-deps" >&2
    exit 1
}

mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
cd "$OUT"
# One builder at a time (the Release and sanitizer test runs share the cache).
if command -v flock >/dev/null 2>&1; then
    exec 9>"$OUT/.lock"
    flock 9
fi
stamp="$(cat "$SRC"/*.circom "$SRC"/*.input.json "$SRC/build_fixtures.sh" | cksum | cut -d' ' -f1)-$POWER"
if [ -f stamp ] && [ "$(cat stamp)" = "$stamp" ]; then
    exit 0
fi
rm -f stamp

log() { echo "build_fixtures: $*" >&2; }
run() { # quiet unless it fails
    if ! "$@" >"$OUT/cmd.log" 2>&1; then
        log "failed: $*"
        tail -20 "$OUT/cmd.log" >&2
        exit 1
    fi
}

if [ ! -f "pot$POWER.ptau" ]; then
    log "powers of tau 2^$POWER (bls12381)"
    run "$BIN/snarkjs" powersoftau new bls12381 "$POWER" pot_0.ptau
    run "$BIN/snarkjs" powersoftau contribute pot_0.ptau pot_1.ptau --name=czk-test -e=czk-fixture-entropy-1
    run "$BIN/snarkjs" powersoftau prepare phase2 pot_1.ptau "pot$POWER.ptau.tmp"
    mv "pot$POWER.ptau.tmp" "pot$POWER.ptau"
    rm -f pot_0.ptau pot_1.ptau
fi

for c in $CIRCUITS; do
    log "circuit $c"
    # circom2 (WASI) resolves include paths relative to the working directory
    (cd "$ROOT" && run "$BIN/circom2" "tests/circom/$c.circom" --r1cs --wasm --sym --prime bls12381 \
        -o "$OUT" -l node_modules)
    run "$BIN/snarkjs" groth16 setup "$c.r1cs" "pot$POWER.ptau" "${c}_0.zkey"
    run "$BIN/snarkjs" zkey contribute "${c}_0.zkey" "$c.zkey" --name=czk-test -e=czk-fixture-entropy-2
    rm -f "${c}_0.zkey"
    run "$BIN/snarkjs" zkey export verificationkey "$c.zkey" "$c.vk.json"
    run "$BIN/snarkjs" wtns calculate "${c}_js/$c.wasm" "$SRC/$c.input.json" "$c.wtns"
    run "$BIN/snarkjs" groth16 prove "$c.zkey" "$c.wtns" "$c.snarkjs_proof.json" "$c.public.json"
done
echo "$stamp" > stamp
