#!/bin/sh
# czk serve as Curio calls it (filecoin-project/curio lib/ffi/cuzk_funcs.go,
# lib/cuzk/client.go, tasks/window/compute_do.go): a daemon started with cuzk's
# shipped example configuration unchanged (tests/server/cuzk.example.toml),
# Python's grpcio sending Curio's own requests (grpc_client.py curio): two
# WindowPoSt partitions of one deadline, which Curio submits with one
# request_id and partition_index 0, proven concurrently, one of them with a
# skipped sector removed; each proof verified against its own partition and
# refused for the other; a retry; a WinningPoSt under Curio's id. 2KiB
# shapes, parameters made here (seconds). The PoRep and SnapDeals ids, a
# redone C1 under the same id and a C1 as Go re-encodes it are judged by
# filecoin-proofs in tests/oracle/oracle.sh (porep 2KiB).
# Usage: test_curio.sh /path/to/czk
set -u
CZK="$1"
. "$(dirname "$0")/../cli/lib.sh"
cli_init test_curio
HERE="$(cd "$(dirname "$0")" && pwd)"
PY=/usr/bin/python3
if ! "$PY" -c "import grpc, grpc_tools" 2>/dev/null; then
    echo "test_curio: FAIL: $PY lacks grpcio / grpc_tools (scripts/install-deps installs them)"
    exit 1
fi
PID=""
trap '[ -n "$PID" ] && kill -9 "$PID" 2>/dev/null; rm -rf "$T"' EXIT

for k in window winning; do
    expect 0 "setup $k-post 2KiB into the cache" -- setup --circuit $k-post --sector-size 2KiB --seed 1 \
        --param-cache "$T/pc" --quiet
done
# two partitions of one deadline: one randomness and miner id, other sectors
RND=$("$PY" -c 'import json, sys; print(bytes(json.load(open(sys.argv[1]))["randomness"]).hex())' \
    "$HERE/../filecoin/vectors/post-window.json")
expect 0 "gen-post partition A" -- gen-post --kind window --sector-size 2KiB --seed 11 --randomness "$RND" \
    --miner-id 1007 -o "$T/a" --quiet
expect 0 "gen-post partition B" -- gen-post --kind window --sector-size 2KiB --seed 12 --randomness "$RND" \
    --miner-id 1007 -o "$T/b" --quiet

# cuzk's example file as it is; --listen and --param-cache override its
# 0.0.0.0:9820 and /data/zk/params here, as cuzk's own --listen does
"$CZK" serve -c "$HERE/cuzk.example.toml" --listen 127.0.0.1:0 --param-cache "$T/pc" --background-nice 0 \
    2>"$T/serve.log" &
PID=$!
i=0
while [ $i -lt 600 ] && ! grep -q "czk serve: info: listening on" "$T/serve.log"; do
    kill -0 "$PID" 2>/dev/null || break
    sleep 0.1
    i=$((i + 1))
done
ADDR=$(sed -n 's/^czk serve: info: listening on \([^ ]*\) .*/\1/p' "$T/serve.log")
if [ -z "$ADDR" ]; then
    echo "FAIL: czk serve -c cuzk.example.toml did not start"
    sed 's/^/  log: /' "$T/serve.log" | tail -8
    exit 1
fi
nwarn=$(grep -c "cuzk.example.toml:[0-9]*: .* is ignored" "$T/serve.log")
check "cuzk's example: one warning per key czk ignores (6, got $nwarn)" [ "$nwarn" -eq 6 ]
check "... sort_by_type among them" grep -q "scheduler.sort_by_type is ignored" "$T/serve.log"

if timeout 900 "$PY" "$HERE/grpc_client.py" "$ADDR" "$T" curio "$T/a" "$T/b" >"$T/client.out" 2>&1; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL: Curio's requests"
    grep -v '^ok' "$T/client.out" | head -20 | sed 's/^/  /'
fi
v() { # v WANT KIND DIR PROOF DESC
    expect "$1" "$5" -- verify --post "$2" --vanilla "$3" --param-cache "$T/pc" --proof "$4"
}
v 0 window "$T/a" "$T/a.proof" "partition A's proof verifies for A"
v 0 window "$T/b-skipped" "$T/b.proof" "partition B's proof verifies for B (its skipped sector removed)"
v 1 window "$T/b-skipped" "$T/a.proof" "A's proof does not verify for B"
v 1 window "$T/a" "$T/b.proof" "B's proof does not verify for A"
v 0 winning "$HERE/../filecoin/vectors" "$T/winning.proof" "the WinningPoSt proof verifies"
check "two jobs under one id, logged" grep -q "names another request too" "$T/serve.log"
kill -TERM "$PID"
wait "$PID"
rc=$?
PID=""
check "SIGTERM: exit 0 (got $rc)" [ "$rc" -eq 0 ]
if grep -q "ERROR: AddressSanitizer\|ERROR: LeakSanitizer\|runtime error:" "$T/serve.log"; then
    fail=$((fail + 1)); echo "FAIL: a sanitizer report in the daemon's log"; grep -A20 "Sanitizer\|runtime error" "$T/serve.log" | head -30
fi
cli_finish
