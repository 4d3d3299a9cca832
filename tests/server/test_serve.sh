#!/bin/sh
# czk serve end to end, with real gRPC clients: Python's grpcio (Debian's
# python3-grpcio under /usr/bin/python3) and Node's @grpc/grpc-js, both on
# stubs from czk's proto/cuzk/v1/proving.proto (tests/server/grpc_client.*).
# On the real 2KiB PoSt vectors (parameters made here by czk setup
# --param-cache, seconds): every RPC over TCP and over a unix socket, the
# proofs checked by czk verify; bad requests; 16 concurrent clients with
# mixed priorities (6 under the sanitizers); cancel, timeouts, a client leaving mid-Prove, a 300 MiB
# message; kill -9 mid-proof and a restart that the retrying client
# succeeds on; two daemons behind one round_robin channel, one killed
# mid-run; SIGTERM. Loopback only, bounded in count and time.
# (A 2KiB PoRep Prove through the daemon, judged by filecoin-proofs'
# verify_seal, is in tests/oracle/oracle.sh porep 2KiB.)
# Usage: test_serve.sh /path/to/czk
set -u
CZK="$1"
. "$(dirname "$0")/../cli/lib.sh"
cli_init test_serve
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
V="$ROOT/tests/filecoin/vectors"
PY=/usr/bin/python3
CLIENT="$HERE/grpc_client.py"
if ! "$PY" -c "import grpc, grpc_tools" 2>/dev/null; then
    echo "test_serve: FAIL: $PY lacks grpcio / grpc_tools" \
        "(scripts/install-deps installs python3-grpcio python3-grpc-tools)"
    exit 1
fi
PIDS=""
cleanup() {
    for p in $PIDS; do kill -9 "$p" 2>/dev/null; done
    rm -rf "$T"
}
trap cleanup EXIT

# start NAME ARGS...: czk serve ARGS in the background, logging to $T/NAME.log;
# waits for its "listening on" line; sets PID and ADDR. --background-nice 0:
# ctest runs other tests beside this one, and regular workers at nice +10
# would get a tenth of a core against them (slow, then client deadlines
# such as the 120 s of 'retry'); the lowering itself is tested in
# tests/engine (urgent_lane_runs_beside_held_work) and tests/server
# (test_client_cli.sh: the default's log line).
start() {
    name="$1"; shift
    "$CZK" serve --param-cache "$T/pc" --memory 6GiB --retention 300 --background-nice 0 "$@" 2>"$T/$name.log" &
    PID=$!
    PIDS="$PIDS $PID"
    ADDR=""
    i=0
    while [ $i -lt 600 ]; do
        ADDR=$(sed -n 's/^czk serve: info: listening on \([^ ]*\) .*/\1/p' "$T/$name.log")
        [ -n "$ADDR" ] && return 0
        kill -0 "$PID" 2>/dev/null || break
        sleep 0.1
        i=$((i + 1))
    done
    fail=$((fail + 1))
    echo "FAIL: czk serve $* did not start"
    sed 's/^/  log: /' "$T/$name.log" | tail -5
    return 1
}

# stop PID SIGNAL: signal it, wait for its exit status (in STOPPED)
stop() {
    kill "-$2" "$1" 2>/dev/null
    wait "$1"
    STOPPED=$?
}

# client DESC ARGS...: the Python client, every check line shown on failure
client() {
    desc="$1"; shift
    if timeout 900 "$PY" "$CLIENT" "$@" >"$T/client.out" 2>&1; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $desc"
        grep -v '^ok' "$T/client.out" | head -20 | sed 's/^/  /'
    fi
}

verify() { # verify KIND PROOF DESC
    expect 0 "$3" -- verify --post "$1" --vanilla "$V" --param-cache "$T/pc" --proof "$2"
}

# Under the sanitizers (CZK_TEST_ASAN) the load and round_robin cases run
# fewer proofs (the same paths: every priority, both kinds, both daemons);
# the Release run keeps the full counts.
if [ -n "${CZK_TEST_ASAN:-}" ]; then LOAD="6 6" NRR=6; else LOAD="16 10" NRR=8; fi

for k in window winning; do
    expect 0 "setup $k-post 2KiB into the cache" -- setup --circuit $k-post --sector-size 2KiB --seed 1 \
        --param-cache "$T/pc" --quiet
done
ls -l "$T/pc" | awk '{print $5, $9}' >"$T/pc.before"

# ---- flags and configuration that must not start a daemon ----
expect 2 "--memory nonsense" -- serve --memory lots
expect_out "--memory wants a size" "names --memory"
expect 2 "--log-format xml" -- serve --log-format xml
expect_out "--log-format wants text or json" "names --log-format"
expect 2 "--background-nice 20" -- serve --background-nice 20
expect_out "--background-nice wants 0 to 19, got '20'" "names --background-nice"
printf '[memory]\ntotl_budget = "1GiB"\n' >"$T/bad.toml"
expect 1 "a config with an unknown key" -- serve -c "$T/bad.toml"
expect_out "totl_budget" "names the unknown key"
expect 1 "a listen address without a port" -- serve --listen 127.0.0.1 --param-cache "$T/pc"
expect_out "want host:port or unix:///path" "says what an address is"
expect 1 "TLS with a certificate only" -- serve --listen 127.0.0.1:0 --tls-cert "$T/none.pem" --param-cache "$T/pc"
expect_out "all three" "TLS wants all three files"
mkdir -p "$T/notsock"
expect 1 "a unix path that is a directory" -- serve --listen "unix://$T/notsock" --param-cache "$T/pc"
expect_out "not a socket" "refuses to remove what is not a socket"

# ---- daemon A on TCP: every RPC, bad requests, load, faults (Python) ----
start A --listen 127.0.0.1:0 --status-listen 127.0.0.1:0 || { cli_finish; exit 1; }
A_PID=$PID
A_ADDR=$ADDR
client "Python: every RPC over TCP" "$A_ADDR" "$T" rpcs
verify window "$T/window.proof" "czk verify accepts the daemon's WindowPoSt proof"
verify winning "$T/winning.proof" "czk verify accepts the daemon's WinningPoSt proof"
client "Python: malformed and refused requests" "$A_ADDR" "$T" errors
expect 0 "gen-c1 2KiB (envelope)" -- gen-c1 --sector-size 2KiB --seed 1 --envelope -o "$T/c1.json" --quiet
client "Python: a bad C1 (base64, cut short), a C1 without parameters" "$A_ADDR" "$T" c1 "$T/c1.json"
# shellcheck disable=SC2086
client "Python: ${LOAD% *} concurrent clients, CRITICAL overtakes NORMAL" "$A_ADDR" "$T" load $LOAD
client "Python: cancel, timeouts, a client leaving, 300 MiB" "$A_ADDR" "$T" faults
expect 1 "a second daemon on A's port" -- serve --listen "$A_ADDR" --param-cache "$T/pc"
expect_out "cannot listen on" "names the address in use"
HTTP_PORT=$(sed -n 's/.*HTTP (\/status, \/metrics) listening on 127.0.0.1:\([0-9]*\)/\1/p' "$T/A.log")
if "$PY" - "$HTTP_PORT" <<'EOF'
import json, sys, urllib.request
port = sys.argv[1]
st = json.load(urllib.request.urlopen("http://127.0.0.1:%s/status" % port, timeout=10))
m = urllib.request.urlopen("http://127.0.0.1:%s/metrics" % port, timeout=10).read().decode()
assert st["uptime_secs"] >= 0 and st["memory"]["budget_bytes"] == 6 << 30, st["memory"]
assert "cuzk_proofs_completed_total" in m
EOF
then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: HTTP /status and /metrics of daemon A"; fi

# ---- daemon B on a unix socket: the Node client; kill -9 and restart ----
SOCK="$T/run/czk/czk.sock"
start B --listen "unix://$SOCK" || { cli_finish; exit 1; }
B_PID=$PID
mode=$(stat -c %a "$SOCK" 2>/dev/null)
check "the socket is mode 0660 (got $mode), its directory made" [ "$mode" = 660 ]
if timeout 300 node "$HERE/grpc_client.mjs" "unix://$SOCK" "$T" >"$T/node.out" 2>&1; then
    pass=$((pass + 1))
else
    fail=$((fail + 1)); echo "FAIL: Node client over the unix socket"; grep -v '^ok' "$T/node.out" | head -20
fi
verify window "$T/node-window.proof" "czk verify accepts the Node client's WindowPoSt proof"
verify winning "$T/node-winning.proof" "czk verify accepts the Node client's WinningPoSt proof"
expect 1 "a second daemon on B's live socket" -- serve --listen "unix://$SOCK" --param-cache "$T/pc"
expect_out "another daemon is listening" "refuses to take a live socket"

# kill -9 while a job runs; a client retrying on UNAVAILABLE gets its proof
# from the restarted daemon (the stale socket is removed at start)
timeout 600 "$PY" "$CLIENT" "unix://$SOCK" "$T" retry k9 120 >"$T/retry.out" 2>&1 &
RETRY=$!
i=0
while [ $i -lt 1200 ] && ! grep -q '\[k9\] queued' "$T/B.log"; do sleep 0.05; i=$((i + 1)); done
stop "$B_PID" 9
check "kill -9 mid-proof: the job was queued when it died (else: k9 never reached the daemon in 60 s)" \
    grep -q '\[k9\] queued' "$T/B.log"
check "kill -9 mid-proof: it had not completed" sh -c "! grep -q '\[k9\] completed' '$T/B.log'"
check "the killed daemon left its socket behind" [ -S "$SOCK" ]
start B2 --listen "unix://$SOCK" || { cli_finish; exit 1; }
B_PID=$PID
if wait "$RETRY"; then pass=$((pass + 1))
else fail=$((fail + 1)); echo "FAIL: the retrying client"; cat "$T/retry.out"; fi
verify window "$T/k9.proof" "czk verify accepts the proof the restarted daemon made"
ls -l "$T/pc" | awk '{print $5, $9}' >"$T/pc.after"
check "the parameter cache is as it was (no partial files)" cmp -s "$T/pc.before" "$T/pc.after"
stop "$B_PID" TERM
check "SIGTERM: czk serve exits 0 (got $STOPPED)" [ "$STOPPED" -eq 0 ]
check "SIGTERM: the socket is removed" [ ! -e "$SOCK" ]
check "SIGTERM: the log says it stopped" grep -q "czk serve: info: stopped" "$T/B2.log"

# ---- mutual TLS (gRPC's credentials; certificates made here by openssl) ----
tls_pair() { # tls_pair NAME CN SAN: NAME.key, NAME.pem signed by ca
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=$2" \
        -keyout "$T/$1.key" -out "$T/$1.csr" 2>/dev/null &&
        printf 'subjectAltName=%s\n' "$3" >"$T/$1.ext" &&
        openssl x509 -req -in "$T/$1.csr" -CA "$T/ca.pem" -CAkey "$T/ca.key" -CAcreateserial -days 2 \
            -extfile "$T/$1.ext" -out "$T/$1.pem" 2>/dev/null
}
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=czk-test-ca \
    -keyout "$T/ca.key" -out "$T/ca.pem" 2>/dev/null
check "openssl made a CA and two certificates" tls_pair server localhost "IP:127.0.0.1,DNS:localhost"
check "... the client's" tls_pair curio curio "DNS:curio"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=other-ca \
    -keyout "$T/other.key" -out "$T/other.pem" 2>/dev/null
start D --listen 127.0.0.1:0 --tls-cert "$T/server.pem" --tls-key "$T/server.key" --tls-client-ca "$T/ca.pem" ||
    { cli_finish; exit 1; }
D_PID=$PID
TLS="--tls-ca $T/ca.pem --tls-cert $T/curio.pem --tls-key $T/curio.key"
check "the TLS daemon says mutual TLS" grep -q "ProvingEngine, mutual TLS) listening" "$T/D.log"
# shellcheck disable=SC2086
expect 0 "czk client status over mutual TLS" -- client status --addr "$ADDR" $TLS
RND=$("$PY" -c 'import json, sys; print(bytes(json.load(open(sys.argv[1]))["randomness"]).hex())' "$V/post-window.json")
# shellcheck disable=SC2086
expect 0 "czk client prove (WindowPoSt) over mutual TLS" -- client prove --addr "$ADDR" $TLS --kind window-post \
    --registered-proof 10 --miner-id 1007 --randomness "$RND" --vanilla "$V/vanilla-window.bin" \
    -o "$T/tls.proof" --quiet
verify window "$T/tls.proof" "czk verify accepts the proof made over TLS"
check "... and a certificate of another CA" [ -s "$T/other.pem" ]
expect 1 "no client certificate: refused" -- client status --addr "$ADDR" --tls-ca "$T/ca.pem" --deadline 10
expect_out "GetStatus at $ADDR: UNAVAILABLE" "refused in the handshake (no client certificate)"
expect 1 "a client certificate of another CA: refused" -- client status --addr "$ADDR" --tls-ca "$T/ca.pem" \
    --tls-cert "$T/other.pem" --tls-key "$T/other.key" --deadline 10
expect_out "GetStatus at $ADDR: UNAVAILABLE" "refused in the handshake (another CA)"
expect 1 "plaintext to the TLS daemon: refused" -- client status --addr "$ADDR" --deadline 10
expect_out "GetStatus at $ADDR: UNAVAILABLE" "refused (plaintext)"
stop "$D_PID" TERM
check "SIGTERM: the TLS daemon exits 0 (got $STOPPED)" [ "$STOPPED" -eq 0 ]
start E --listen 0.0.0.0:0 || { cli_finish; exit 1; }
check "plaintext on 0.0.0.0 logs a warning" grep -q "warn: plaintext gRPC on 0.0.0.0" "$T/E.log"
stop "$PID" TERM

# ---- two daemons behind one round_robin channel; one killed mid-run ----
start C --listen 127.0.0.1:0 || { cli_finish; exit 1; }
C_PID=$PID
C_ADDR=$ADDR
client "round_robin over two daemons: $NRR Proves" "$A_ADDR,$C_ADDR" "$T" rr $NRR
na=$(grep -c '\[rr-[0-9]*\] completed' "$T/A.log")
nc=$(grep -c '\[rr-[0-9]*\] completed' "$T/C.log")
check "the jobs spread over both daemons (A $na, C $nc)" [ "$na" -ge 2 -a "$nc" -ge 2 ]
# again with new ids, and C killed once it has taken work
timeout 600 "$PY" "$CLIENT" "$A_ADDR,$C_ADDR" "$T" rr $NRR rr2 >"$T/rr2.out" 2>&1 &
RR=$!
i=0
while [ $i -lt 600 ] && ! grep -q '\[rr2-[0-9]*\] queued' "$T/C.log"; do sleep 0.05; i=$((i + 1)); done
stop "$C_PID" 9
if wait "$RR"; then pass=$((pass + 1))
else fail=$((fail + 1)); echo "FAIL: round_robin after killing C"; cat "$T/rr2.out"; fi
nk=$(grep -c '\[rr2-[0-9]*\] queued' "$T/C.log")
nkd=$(grep -c '\[rr2-[0-9]*\] completed' "$T/C.log")
na2=$(grep -c '\[rr2-[0-9]*\] completed' "$T/A.log")
check "C took rr2 work before it died ($nk queued, $nkd completed) and A finished the rest ($na2)" \
    [ "$nk" -ge 1 -a $((na2 + nkd)) -ge "$NRR" ]
# SIGTERM with work queued, then a second SIGTERM: the rest is cancelled
for n in 1 2 3 4 5 6; do
    # shellcheck disable=SC2086
    expect 0 "czk client submit $n before the shutdown" -- client submit --addr "$A_ADDR" --kind window-post \
        --registered-proof 10 --miner-id 1007 --randomness "$RND" --vanilla "$V/vanilla-window.bin" --quiet
done
kill -TERM "$A_PID"
sleep 0.3
stop "$A_PID" TERM
check "two SIGTERMs: daemon A exits 0 (got $STOPPED)" [ "$STOPPED" -eq 0 ]
check "the second signal cancelled the running jobs" grep -q "second signal: cancelling" "$T/A.log"
if grep -q "ERROR: AddressSanitizer\|ERROR: LeakSanitizer\|runtime error:" "$T"/*.log; then
    fail=$((fail + 1)); echo "FAIL: a sanitizer report in a daemon's log"
    grep -h -A20 "Sanitizer\|runtime error" "$T"/*.log | head -40
else
    pass=$((pass + 1))
fi
cli_finish
