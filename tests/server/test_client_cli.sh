#!/bin/sh
# czk client's contract without a proving daemon: usage errors (exit 2, each
# naming the argument), calls to nothing (exit 1, the gRPC code named: a
# closed TCP port, a missing unix socket, a round-robin list of closed ports,
# a listener that never answers with --deadline), unreadable TLS files. When
# this czk has `czk serve`, also against a real daemon on a unix socket, with
# WindowPoSt 2KiB parameters made here (czk setup, under a second): prove and
# submit + await of the real vanilla proof of tests/filecoin/vectors, each
# proof accepted by czk verify; status, metrics, preload / evict; refused
# requests (INVALID_ARGUMENT, no -o file left), NOT_FOUND jobs.
# Usage: test_client_cli.sh /path/to/czk
set -u
CZK="$1"
. "$(dirname "$0")/../cli/lib.sh"
cli_init test_client_cli
unset CZK_ADDR

# A TCP port nothing listens on: one the kernel just handed out and took
# back (python3), else port 1 (privileged; nothing serves it here).
closed_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()' \
        2>/dev/null || echo 1
}
P1=$(closed_port)
P2=$(closed_port)
SOCK="unix://$T/none.sock"
printf '{}' >"$T/c1.json"
printf 'x' >"$T/v.bin"
R=0000000000000000000000000000000000000000000000000000000000000000

# ---- usage errors ----
expect 0 "help" -- client --help
expect_out "usage: czk client" "help shows the usage"
expect 2 "no sub-command" -- client
expect_out "give a sub-command" "no sub-command named"
expect 2 "unknown sub-command" -- client frobnicate --addr "$SOCK"
expect_out "unknown sub-command 'frobnicate'" "unknown sub-command named"
expect 2 "unknown option" -- client status --addr "$SOCK" --bogus
expect_out "unknown option '--bogus'" "unknown option named"
expect 2 "missing --addr" -- client status
expect_out "addr is required (or set \$CZK_ADDR)" "missing --addr named"
expect 2 "empty --addr" -- client status --addr ''
expect_out "--addr wants an address" "empty --addr named"
expect 2 "--addr without its value" -- client status --addr
expect_out "option '--addr' needs a value" "missing value named"
expect 2 "bad --priority" -- client prove --addr "$SOCK" --c1 "$T/c1.json" --priority urgent
expect_out "--priority wants low, normal, high or critical, got 'urgent'" "bad --priority named"
expect 2 "bad --kind" -- client submit --addr "$SOCK" --vanilla "$T/v.bin" --kind daily
expect_out "--kind wants porep, window-post, winning-post or snap, got 'daily'" "bad --kind named"
expect 2 "short --randomness" -- client prove --addr "$SOCK" --kind window-post --vanilla "$T/v.bin" --randomness abcd
expect_out "--randomness wants 32 bytes as 64 hex digits, got 'abcd'" "bad hex named"
expect 2 "non-hex --randomness" -- client prove --addr "$SOCK" --kind window-post --vanilla "$T/v.bin" \
    --randomness "$(echo $R | sed 's/^00/zz/')"
expect_out "--randomness wants 32 bytes" "non-hex digits named"
expect 2 "bad --comm-r-new" -- client prove --addr "$SOCK" --kind snap --vanilla "$T/v.bin" --comm-r-new 12
expect_out "--comm-r-new wants 32 bytes" "bad commitment named"
expect 2 "bad --sector-size" -- client prove --addr "$SOCK" --c1 "$T/c1.json" --sector-size big
expect_out "--sector-size wants a size" "bad size named"
expect 2 "bad --miner-id" -- client prove --addr "$SOCK" --c1 "$T/c1.json" --miner-id -3
expect_out "--miner-id wants a number" "bad number named"
expect 2 "bad --partition" -- client prove --addr "$SOCK" --c1 "$T/c1.json" --partition 4294967296
expect 2 "bad --deadline" -- client status --addr "$SOCK" --deadline 0
expect_out "--deadline wants a number of seconds above 0, got '0'" "bad deadline named"
expect 2 "bad --timeout-ms" -- client await --addr "$SOCK" job-1 --timeout-ms soon
expect_out "--timeout-ms wants a number" "bad timeout named"
expect 2 "prove without a payload" -- client prove --addr "$SOCK"
expect_out "prove wants a payload: --c1 FILE or --vanilla FILE" "missing payload named"
expect 2 "--c1 and --vanilla" -- client prove --addr "$SOCK" --c1 "$T/c1.json" --vanilla "$T/v.bin"
expect_out "--c1 and --vanilla exclude each other" "payload conflict named"
expect 2 "--c1 with a PoSt kind" -- client prove --addr "$SOCK" --c1 "$T/c1.json" --kind window-post
expect_out "--kind window-post sends its payload with --vanilla, not --c1" "--c1 with another kind named"
expect 2 "--vanilla without --kind" -- client submit --addr "$SOCK" --vanilla "$T/v.bin"
expect_out "--vanilla wants --kind window-post, winning-post or snap" "missing kind named"
expect 2 "--vanilla with --kind porep" -- client submit --addr "$SOCK" --vanilla "$T/v.bin" --kind porep
expect_out "--kind porep sends its payload with --c1, not --vanilla" "porep with --vanilla named"
expect 2 "request option on status" -- client status --addr "$SOCK" --priority high
expect_out "--priority is for prove and submit, not status" "misplaced request option named"
expect 2 "-o on submit" -- client submit --addr "$SOCK" --c1 "$T/c1.json" -o "$T/p.bin"
expect_out "--output is for prove and await, not submit" "misplaced -o named"
expect 2 "--timeout-ms on prove" -- client prove --addr "$SOCK" --c1 "$T/c1.json" --timeout-ms 5
expect_out "--timeout-ms is for await, not prove" "misplaced --timeout-ms named"
expect 2 "await without a job id" -- client await --addr "$SOCK"
expect_out "await wants one JOB_ID" "missing job id named"
expect 2 "cancel with two job ids" -- client cancel --addr "$SOCK" a b
expect 2 "preload without a circuit id" -- client preload --addr "$SOCK"
expect_out "preload wants one CIRCUIT_ID" "missing circuit id named"
expect 2 "status with an argument" -- client status --addr "$SOCK" extra
expect_out "status takes no argument ('extra')" "stray argument named"
expect 2 "--tls-cert without --tls-key" -- client status --addr "$SOCK" --tls-cert "$T/c.pem"
expect_out "--tls-cert and --tls-key go together" "half a client certificate named"
expect 2 "a list with a name in it" -- client status --addr "127.0.0.1:$P1,localhost:$P2"
expect_out "entry 2 ('localhost:$P2') is not an IPv4" "bad list entry named"
expect 2 "a list with a port out of range" -- client status --addr "127.0.0.1:$P1,127.0.0.1:70000"

# ---- nothing to talk to ----
expect 1 "closed TCP port" -- client status --addr "127.0.0.1:$P1"
expect_out "czk client: GetStatus at 127.0.0.1:$P1: UNAVAILABLE: " "closed port names UNAVAILABLE"
expect 1 "missing unix socket" -- client metrics --addr "$SOCK"
expect_out "GetMetrics at $SOCK: UNAVAILABLE" "missing socket names UNAVAILABLE"
expect 1 "round-robin list of closed ports" -- client await --addr "127.0.0.1:$P1,127.0.0.1:$P2" job-1
expect_out "AwaitProof at 127.0.0.1:$P1,127.0.0.1:$P2: UNAVAILABLE" "list names UNAVAILABLE"
CZK_ADDR="127.0.0.1:$P1" expect 1 "\$CZK_ADDR stands in for --addr" -- client cancel job-1
expect_out "CancelProof at 127.0.0.1:$P1: UNAVAILABLE" "\$CZK_ADDR used"
expect 1 "prove to a closed port" -- client prove --addr "127.0.0.1:$P1" --c1 "$T/c1.json" -o "$T/p.bin" \
    --priority critical --request-id porep-1-2 --json
expect_out "Prove at 127.0.0.1:$P1: UNAVAILABLE" "prove names UNAVAILABLE"
expect_absent "$T/p.bin" "a failed prove writes no proof"
check "a failed prove leaves no temporary file" sh -c "! ls '$T' | grep -q 'p.bin.tmp'"
expect 1 "unreadable --c1" -- client prove --addr "127.0.0.1:$P1" --c1 "$T/none.json"
expect_out "--c1 $T/none.json: No such file" "unreadable payload named"
expect 1 "-o in a missing directory" -- client prove --addr "127.0.0.1:$P1" --c1 "$T/c1.json" -o "$T/no/p.bin"
expect_out "cannot write to $T/no" "unwritable -o named before the call"
expect 1 "unreadable --tls-ca" -- client status --addr "127.0.0.1:$P1" --tls-ca "$T/none.pem"
expect_out "--tls-ca $T/none.pem: No such file" "unreadable CA named"

# A listener that accepts and never speaks HTTP/2: only --deadline ends the call.
if command -v python3 >/dev/null 2>&1; then
    python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
print(s.getsockname()[1], flush=True)
time.sleep(60)' >"$T/mute.port" &
mute=$!
i=0
while [ ! -s "$T/mute.port" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
MP=$(cat "$T/mute.port")
expect 1 "--deadline against a mute listener" -- client status --addr "127.0.0.1:$MP" --deadline 1
expect_out "GetStatus at 127.0.0.1:$MP: DEADLINE_EXCEEDED" "the deadline names DEADLINE_EXCEEDED"
kill "$mute" 2>/dev/null
wait "$mute" 2>/dev/null
else
    echo "test_client_cli: no python3: the --deadline case is skipped"
fi

# ---- a real czk serve, when this czk has one ----
if "$CZK" serve --help >/dev/null 2>&1; then
    V="$(dirname "$0")/../filecoin/vectors"
    expect 0 "setup window-post 2KiB into the cache" -- setup --circuit window-post --sector-size 2KiB --seed 1 \
        --param-cache "$T/params" --quiet
    # the vectors' randomness: 32 decimal bytes in post-window.json
    # shellcheck disable=SC2046
    RAND=$(printf '%02x' $(tr -d ' \n' <"$V/post-window.json" | sed 's/.*"randomness":\[\([0-9,]*\)\].*/\1/' | tr ',' ' '))
    cat >"$T/czk.toml" <<EOF
[daemon]
listen = "unix://$T/czk.sock"
[srs]
param_cache = "$T/params"
[memory]
total_budget = "2GiB"
[synthesis]
threads = 1
EOF
    "$CZK" serve -c "$T/czk.toml" >"$T/serve.out" 2>"$T/serve.err" &
    srv=$!
    i=0
    while ! grep -q "listening on" "$T/serve.err" && [ $i -lt 300 ] && kill -0 "$srv" 2>/dev/null; do
        sleep 0.1
        i=$((i + 1))
    done
    if grep -q "listening on" "$T/serve.err"; then
        A="unix://$T/czk.sock"
        WP="--kind window-post --registered-proof 10 --miner-id 1007 --vanilla $V/vanilla-window.bin"
        # shellcheck disable=SC2086
        expect 0 "prove a WindowPoSt partition" -- client prove --addr "$A" $WP --randomness "$RAND" \
            --request-id wp-1 --priority high -o "$T/w1.proof"
        expect_out "job wp-1 COMPLETED: 192 proof bytes -> $T/w1.proof; queue_wait" "prove's summary line"
        check "the daemon's defaults: critical lane, regular workers at nice +10" \
            grep -q "service up: .*critical lane (regular workers at nice +10)" "$T/serve.err"
        expect 0 "czk verify accepts prove's proof" -- verify --post window --vanilla "$V" --param-cache "$T/params" \
            --proof "$T/w1.proof"
        # shellcheck disable=SC2086
        expect 0 "submit" -- client submit --addr "$A" $WP --randomness "$RAND" --priority low --quiet
        id=$(cat "$T/out")
        check "submit prints the job id alone" test -n "$id" -a "$(wc -l <"$T/out")" -eq 1
        expect 0 "await the submitted job" -- client await --addr "$A" "$id" -o "$T/w2.proof" --json
        expect_out "\"job_id\":\"$id\",\"status\":\"COMPLETED\",\"proof_bytes\":192" "await's JSON"
        expect 0 "czk verify accepts await's proof" -- verify --post window --vanilla "$V" --param-cache "$T/params" \
            --proof "$T/w2.proof"
        expect 0 "cancel a finished job" -- client cancel --addr "$A" "$id"
        expect_out "was_running false" "a finished job was not running"
        expect 0 "status" -- client status --addr "$A"
        expect_out "proofs completed 2, failed 0" "status counts the proofs"
        expect_out "wpost-2k       hot" "status shows the loaded parameters"
        expect_out "porep_c2" "status lists the PoRep queue"
        expect 0 "status --json" -- client status --addr "$A" --json
        expect_out '"uptime_seconds"' "status json has the uptime"
        expect 0 "metrics" -- client metrics --addr "$A"
        expect_out "cuzk_proofs_completed_total 2" "metrics are cuzk's text"
        expect 0 "evict" -- client evict --addr "$A" wpost-2k
        expect_out "wpost-2k: evicted" "evict says what it dropped"
        expect 0 "preload" -- client preload --addr "$A" wpost-2k --json
        expect_out '"already_loaded":false' "preload loaded it again"
        # shellcheck disable=SC2086
        expect 1 "prove with another randomness" -- client prove --addr "$A" $WP --randomness "$R" -o "$T/bad.proof"
        expect_out "Prove at $A: INVALID_ARGUMENT: vanilla_proofs" "a refused vanilla proof is INVALID_ARGUMENT"
        expect_absent "$T/bad.proof" "a refused prove writes no proof"
        expect 1 "await an unknown job" -- client await --addr "$A" no-such-job
        expect_out "NOT_FOUND" "unknown job is NOT_FOUND"
        expect 1 "cancel an unknown job" -- client cancel --addr "$A" no-such-job
        expect_out "NOT_FOUND" "unknown job to cancel is NOT_FOUND"
        expect 1 "a C1 that is not one" -- client submit --addr "$A" --c1 "$T/c1.json"
        expect_out "SubmitProof at $A: INVALID_ARGUMENT: " "a refused payload is INVALID_ARGUMENT"
        expect 1 "evict an unknown circuit" -- client evict --addr "$A" porep-3t
        expect_out "INVALID_ARGUMENT" "an unknown circuit id is INVALID_ARGUMENT"
    else
        fail=$((fail + 1))
        echo "FAIL: czk serve did not start"
        sed 's/^/  serve: /' "$T/serve.err" | tail -5
    fi
    kill "$srv" 2>/dev/null
    wait "$srv" 2>/dev/null
else
    echo "test_client_cli: this czk has no 'czk serve': the daemon cases are skipped"
fi

cli_finish
