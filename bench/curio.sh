#!/bin/sh
# czk serve as Curio drives it, at production size, on this machine: every
# proof kind through the daemon with Curio's own requests (bench/curio_client.py
# builds them as Curio's lib/ffi/cuzk_funcs.go does), parameters streamed from
# disk where they do not fit the memory budget beside a partition.
#
#   bench/curio.sh [-s SIZE] [-k KINDS] [-p PARAMDIR] [-m MEMORY] [-w DIR] [--keep-params] [--second]
#
# SIZE: 2KiB (a quick run of the script itself) .. 32GiB (default). KINDS: a
# comma list of winning, window, porep, snap (default all four, in that
# order). Per kind: the parameters (czk setup --param-cache PARAMDIR, made
# when missing, streamed section by section for 32GiB; the time it took),
# the PCE matrices (czk pce build, when missing; the time), the inputs (czk
# gen-post / gen-c1 / gen-snap), then a fresh daemon (czk serve --pce on
# --status-listen, MEMORY its budget, default "auto": MemTotal - 5GiB) and
# Curio's request for one proof: a WinningPoSt, a whole WindowPoSt partition,
# a PoRep sector (every partition), a SnapDeals update (every partition).
# Reported per request: the wall time of Curio's Prove call, the daemon's
# stage times, its peak RSS (VmHWM) and the bytes it read from storage and
# in all (/proc/PID/io), and whether czk verify accepts the proof (the
# script fails if one does not). With window, porep and snap: two
# WinningPoSts (its parameters are made first when missing) sent while the
# first request's first partition is in its prover pass, the first loading
# its parameters, the second with them resident. With window: a second
# partition of the same deadline (Curio's same request_id, other sectors).
# --second: a second request of the same kind for porep and snap too
# (another sector). While a daemon runs, $W/monitor-KIND.jsonl gets a line
# every 30 s: its memory, bytes read and the partitions' states and times
# (a long run that is cut off still tells how far it got). Without --keep-params the
# parameters of a kind (tens of GB at 32GiB) are deleted after its run if
# this script made them.
set -eu
SIZE=32GiB
KINDS=winning,window,porep,snap
MEMORY=""
KEEP=0
SECOND=0
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CZK="${CZK:-$ROOT/build/czk}"
CACHE="${CZK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/czk}"
P="$CACHE/bench-curio-params"
W=""
while [ $# -gt 0 ]; do
    case "$1" in
    -s) SIZE="$2"; shift 2 ;;
    -k) KINDS="$2"; shift 2 ;;
    -p) P="$2"; shift 2 ;;
    -m) MEMORY="$2"; shift 2 ;;
    -w) W="$2"; shift 2 ;;
    --keep-params) KEEP=1; shift ;;
    --second) SECOND=1; shift ;;
    -h|--help) sed -n '2,31p' "$0"; exit 0 ;;
    *) echo "bench/curio.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
[ -x "$CZK" ] || { echo "bench/curio.sh: no czk at $CZK (make build, or CZK=...)" >&2; exit 1; }
PY=/usr/bin/python3
CLIENT="$ROOT/bench/curio_client.py"
mkdir -p "$P"
[ -n "$W" ] || W=$(mktemp -d "${TMPDIR:-/tmp}/czk-bench-curio.XXXXXX")
mkdir -p "$W"
SPID=""
MPID=""
trap '[ -n "$MPID" ] && kill "$MPID" 2>/dev/null; [ -n "$SPID" ] && kill -9 "$SPID" 2>/dev/null; true' EXIT
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
say() { echo "$*" | tee -a "$W/report.txt"; }

say "# bench/curio.sh -s $SIZE -k $KINDS ($(date -u +%Y-%m-%dT%H:%MZ))"
"$CZK" version | sed 's/^/# /' | tee -a "$W/report.txt"
say "# machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo), disk free $(df -h "$P" | awk 'NR == 2 { print $4 }')"

circuit_of() { case "$1" in winning) echo winning-post ;; window) echo window-post ;; *) echo "$1" ;; esac; }
made=""
has_params() { # has_params KIND: 0 when $P holds its parameters, key and sidecar
    "$CZK" params --param-cache "$P" --json 2>/dev/null | "$PY" -c '
import json, sys
sizes = {"2KiB": 2048, "8MiB": 8 << 20, "512MiB": 512 << 20, "32GiB": 32 << 30, "64GiB": 64 << 30}
ok = any(f["kind"] == sys.argv[1] and f["sector_size"] == sizes[sys.argv[2]] and f["params_bytes"] > 0
         and f["vk_bytes"] > 0 and f["sidecar"] for f in json.load(sys.stdin)["files"])
sys.exit(0 if ok else 1)' "$(circuit_of "$1")" "$SIZE"
}

params() { # params KIND: czk setup into $P when missing (timed)
    c=$(circuit_of "$1")
    if has_params "$1"; then
        say "params $1: present in $P"
        return 0
    fi
    t0=$(now)
    /usr/bin/time -f "%M" -o "$W/setup-$1.rss" "$CZK" setup --circuit "$c" --sector-size "$SIZE" --param-cache "$P" \
        --quiet
    say "params $1: czk setup $(since "$t0") s, peak RSS $(awk '{ printf "%.2f GiB", $1 / 1048576 }' "$W/setup-$1.rss")," \
        "$(du -sh "$P" | cut -f1) in $P"
    made="$made $1"
}

pce() { # pce KIND: the PCE matrices in czk's cache when missing (timed)
    c=$(circuit_of "$1")
    t0=$(now)
    if "$CZK" pce build --circuit "$c" --sector-size "$SIZE" --if-missing --quiet >"$W/pce-$1.out" 2>&1; then
        say "pce $1: ready in $(since "$t0") s ($(grep -o '[0-9.]* [MG]B' "$W/pce-$1.out" | head -1))"
    else
        say "pce $1: failed"; cat "$W/pce-$1.out"; exit 1
    fi
}

inputs() { # inputs KIND [SEED]: $W/in-KIND-SEED
    seed=${2:-1}
    d="$W/in-$1-$seed"
    [ -e "$d" ] && return 0
    mkdir -p "$d"
    case "$1" in
    porep) "$CZK" gen-c1 --sector-size "$SIZE" --seed "$seed" --envelope -o "$d/c1.json" --quiet ;;
    snap) "$CZK" gen-snap --sector-size "$SIZE" --seed "$seed" -o "$d" --quiet ;;
    window) # partitions of one deadline: one randomness and miner, other sectors
        if [ "$seed" = 1 ]; then "$CZK" gen-post --kind window --sector-size "$SIZE" --seed 1 -o "$d" --quiet
        else
            rnd=$("$PY" -c 'import json, sys; print(bytes(json.load(open(sys.argv[1]))["randomness"]).hex())' \
                "$W/in-window-1/post-window.json")
            mid=$("$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["miner_id"])' "$W/in-window-1/post-window.json")
            "$CZK" gen-post --kind window --sector-size "$SIZE" --seed "$seed" --randomness "$rnd" --miner-id "$mid" \
                -o "$d" --quiet
        fi ;;
    winning) "$CZK" gen-post --kind winning --sector-size "$SIZE" --seed "$seed" -o "$d" --quiet ;;
    esac
}

start() { # a fresh daemon for one kind's requests
    rm -f "$W/czk.sock"
    # shellcheck disable=SC2086
    "$CZK" serve --listen "unix://$W/czk.sock" --status-listen 127.0.0.1:0 --param-cache "$P" --pce on \
        ${MEMORY:+--memory "$MEMORY"} 2>"$W/serve-$1.log" &
    SPID=$!
    i=0
    until grep -q "listening on unix" "$W/serve-$1.log" 2>/dev/null; do
        sleep 0.2; i=$((i + 1))
        if [ $i -gt 600 ] || ! kill -0 "$SPID" 2>/dev/null; then echo "czk serve did not start:" >&2; cat "$W/serve-$1.log" >&2; exit 1; fi
    done
    HTTP=$(sed -n 's/.*HTTP (\/status, \/metrics) listening on \([0-9.:]*\).*/\1/p' "$W/serve-$1.log")
}

monitor() { # monitor KIND: every 30 s while the daemon runs, a line of $W/monitor-KIND.jsonl
    # (its VmHWM, VmRSS, bytes read, and each running job's partitions with
    # their state and times from /status), so that a run cut off before its
    # end still tells how far it got
    while kill -0 "$SPID" 2>/dev/null; do
        "$PY" - "$HTTP" "$SPID" >>"$W/monitor-$1.jsonl" 2>/dev/null <<'PYEOF' || true
import json, sys, time, urllib.request
def field(path, key):
    for line in open(path):
        if line.startswith(key):
            return int(line.split()[1])
    return 0
pid = sys.argv[2]
line = {"t": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "vm_hwm_gib": round(field("/proc/%s/status" % pid, "VmHWM") / 1048576, 2),
        "vm_rss_gib": round(field("/proc/%s/status" % pid, "VmRSS") / 1048576, 2),
        "read_gb": round(field("/proc/%s/io" % pid, "read_bytes") / 1e9, 1)}
t0 = time.time()
try:  # a /status that fails or is slow is itself worth a line
    st = json.load(urllib.request.urlopen("http://%s/status" % sys.argv[1], timeout=10))
    line["jobs"] = [{"job_id": j["job_id"], "kind": j["proof_kind"], "done": j["partitions_done"],
                     "of": j["total_partitions"],
                     "partitions": [[p["index"], p["state"], p["synth_ms"], p["gpu_ms"]] for p in j["partitions"]]}
                    for j in st.get("pipelines", [])]
except Exception as e:
    line["status_error"] = "%s: %s" % (type(e).__name__, e)
line["status_s"] = round(time.time() - t0, 2)
print(json.dumps(line))
PYEOF
        sleep 30
    done
}

stop() { # stop KIND: the daemon's peak RSS and reads, then SIGTERM
    rss=$(awk '/VmHWM/ { printf "%.2f", $2 / 1048576 }' "/proc/$SPID/status")
    rb=$(awk '/^read_bytes/ { printf "%.1f", $2 / 1e9 }' "/proc/$SPID/io")
    rc=$(awk '/^rchar/ { printf "%.1f", $2 / 1e9 }' "/proc/$SPID/io")
    say "daemon ($1): peak RSS $rss GiB; read $rb GB from storage, $rc GB in all"
    grep -h "parameters streamed from\|loaded .* from" "$W/serve-$1.log" | sed 's/^/  log: /' | tee -a "$W/report.txt" || true
    kill "$MPID" 2>/dev/null || true
    wait "$MPID" 2>/dev/null || true
    MPID=""
    kill -TERM "$SPID"
    wait "$SPID" || true
    SPID=""
}

verify() { # verify KIND DIR PROOF
    case "$1" in
    porep) "$CZK" verify --param-cache "$P" --c1 "$2/c1.json" --proof "$3" --quiet ;;
    snap) "$CZK" verify --snap --vanilla "$2" --param-cache "$P" --proof "$3" --quiet ;;
    *) "$CZK" verify --post "$1" --vanilla "$2" --param-cache "$P" --proof "$3" --quiet ;;
    esac
}

report_line() { # one request's figures from the client's JSON on stdin
    "$PY" -c 'import json, sys
r = json.loads(sys.stdin.read())
print("wall %.1f s (queue %.1f, params %.1f, synthesis %.1f, prove %.1f s), %d-byte proof, %s, job %s" % (r["wall_s"],
      r["queue_wait_ms"] / 1e3, r["srs_load_ms"] / 1e3, r["synthesis_ms"] / 1e3, r["prove_ms"] / 1e3,
      r["proof_bytes"], r["request_id"], r["job_id"]))'
}

prove() { # prove KIND SEED LABEL: Curio's request, verified
    d="$W/in-$1-$2"
    out=$("$PY" "$CLIENT" "unix://$W/czk.sock" "$1" "$d" "$W/$1-$2.proof" --sector "$2") || {
        say "$3: FAILED: $out"; exit 1; }
    if verify "$1" "$d" "$W/$1-$2.proof"; then v=verified; else say "$3: the proof does NOT verify"; exit 1; fi
    echo "$out" >>"$W/results.jsonl"
    say "$3: $(echo "$out" | report_line), $v"
}

proving() { # proving: 0 once some partition of the running job is in its prover pass
    "$PY" - "$HTTP" <<'PYEOF'
import json, sys, urllib.request
st = json.load(urllib.request.urlopen("http://%s/status" % sys.argv[1], timeout=10))
sys.exit(0 if any(p.get("state") == "gpu" for j in st.get("pipelines", []) for p in j.get("partitions", [])) else 1)
PYEOF
}

drop() { # drop KIND: delete its parameter files if this run made them
    case " $made " in *" $1 "*) ;; *) return 0 ;; esac
    name=$("$CZK" params --param-cache "$P" --json | "$PY" -c '
import json, sys
sizes = {"2KiB": 2048, "8MiB": 8 << 20, "512MiB": 512 << 20, "32GiB": 32 << 30, "64GiB": 64 << 30}
print([f["name"] for f in json.load(sys.stdin)["files"] if f["kind"] == sys.argv[1] and f["sector_size"] == sizes[sys.argv[2]]][0])' \
        "$(circuit_of "$1")" "$SIZE")
    [ -n "$name" ] && rm -f "$P/$name".* && say "deleted the $1 parameters this run made"
}

IFS_SAVE=$IFS
IFS=,
for k in $KINDS; do
    IFS=$IFS_SAVE
    say ""
    say "## $k $SIZE"
    params "$k"
    [ "$k" != winning ] && { params winning; pce winning; }
    pce "$k"
    inputs "$k" 1
    start "$k"
    monitor "$k" &
    MPID=$!
    if [ "$k" = winning ] || ! has_params winning; then
        prove "$k" 1 "$k (first)"
    else
        # a WinningPoSt sent while the first partition of this job is proven
        inputs winning 1
        "$PY" "$CLIENT" "unix://$W/czk.sock" "$k" "$W/in-$k-1" "$W/$k-1.proof" --sector 1 >"$W/$k-1.out" &
        bg=$!
        i=0
        # (or until the request is over: a 2KiB partition may be proven between two polls)
        until proving; do kill -0 "$bg" 2>/dev/null || break; sleep 1; i=$((i + 1)); [ $i -lt 3600 ] || break; done
        prove winning 1 "winning beside a proving $k partition"
        inputs winning 2
        prove winning 2 "winning beside it again (parameters resident)"
        wait "$bg" || { say "$k (first): FAILED $(cat "$W/$k-1.out")"; exit 1; }
        verify "$k" "$W/in-$k-1" "$W/$k-1.proof" || { say "$k (first): the proof does NOT verify"; exit 1; }
        cat "$W/$k-1.out" >>"$W/results.jsonl"
        say "$k (first): $(report_line <"$W/$k-1.out"), verified"
    fi
    case "$k" in
    window)
        inputs window 2
        # the deadline's second partition
        prove window 2 "window (second partition, same request_id)"
        ;;
    winning) inputs winning 2; prove winning 2 "winning (second)" ;;
    *) [ "$SECOND" = 1 ] && { inputs "$k" 2; prove "$k" 2 "$k (second)"; } ;;
    esac
    stop "$k"
    # the large parameter sets go as soon as their kind is done (the next
    # one may need the disk); WinningPoSt's (small) serve window's run too
    [ "$KEEP" = 0 ] && [ "$k" != winning ] && drop "$k"
    IFS=,
done
IFS=$IFS_SAVE
[ "$KEEP" = 0 ] && drop winning
say ""
say "# report: $W/report.txt, per request: $W/results.jsonl"
