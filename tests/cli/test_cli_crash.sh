#!/bin/sh
# Crash safety (src/common/README.md, "Files czk writes"): czk setup, czk pce
# build, czk prove and czk serve killed with SIGKILL at named points of their
# writes (CZK_FAULT=POINT:MATCH[:BYTES], compiled into test builds: the kill
# is deterministic, never a race against a sleep), then run again: the run
# succeeds and nothing is left behind (no temporary file, no partial output,
# no half set that looks complete). A daemon started after a killed setup
# and PCE build reclaims their temporaries and logs the files and bytes;
# one in a cgroup made for it (v2 memory.max, else v1
# memory.limit_in_bytes; skipped with one line where the test cannot make
# one) reports that limit in GET /status. WindowPoSt 2KiB shapes throughout
# (setup ~2 s, prove ~1.5 s; under ASan 1.3 s and 5 s). The full-disk cases are test_cli_enospc.sh.
# Usage: test_cli_crash.sh /path/to/czk
set -u
CZK="$1"
if ! "$CZK" version --json | grep -q '"fault_hooks":true'; then
    echo "test_cli_crash: skipped: this czk has no CZK_FAULT hooks (configured with CZK_FAULT_INJECTION=OFF)"
    exit 77
fi
. "$(dirname "$0")/lib.sh"
cli_init test_cli_crash
V="$(dirname "$0")/../filecoin/vectors"
PC="$T/params"
export CZK_CACHE_DIR="$T/cache"
mkdir -p "$PC" "$CZK_CACHE_DIR"
WIN="--circuit window-post --sector-size 2KiB"
PROVE="prove --post window --vanilla $V --param-cache $PC"

# temps DIR...: the temporary files left under the directories
temps() { find "$@" -name '*.tmp.*' 2>/dev/null; }
no_temps() {
    left=$(temps "$T")
    if [ -z "$left" ]; then pass=$((pass + 1)); else
        fail=$((fail + 1))
        echo "FAIL: $1: temporaries left: $left"
    fi
}
# one_temp DIR BYTES DESC: exactly one temporary in DIR, of BYTES bytes
one_temp() {
    n=$(temps "$1" | wc -l)
    f=$(temps "$1" | head -1)
    if [ "$n" -eq 1 ] && [ "$(wc -c <"$f")" -eq "$2" ]; then pass=$((pass + 1)); else
        fail=$((fail + 1))
        echo "FAIL: $3: want one temporary of $2 bytes in $1, have: $(temps "$1" | xargs -r ls -l)"
    fi
}

# ---- czk setup (params, sidecar and vk: one set) ----
# shellcheck disable=SC2086
expect 0 "setup" -- setup $WIN --seed 1 --param-cache "$PC" --quiet
P=$(ls "$PC"/*.params)
VK=${P%.params}.vk
cp "$P" "$T/old.params"
cp "$VK" "$T/old.vk"
# killed while writing the parameters: the old set stays whole
# shellcheck disable=SC2086
CZK_FAULT=write:.params:1000000 expect 137 "setup killed mid-write" -- setup $WIN --seed 2 --param-cache "$PC" --quiet
one_temp "$PC" 1000000 "a killed setup leaves its locked temporary"
check "the old parameters are untouched" cmp -s "$P" "$T/old.params"
check "the old vk is untouched" cmp -s "$VK" "$T/old.vk"
# killed just after the new .params is renamed into place: the old vk went
# first, so the set is visibly incomplete (never a new .params beside an old
# .vk); the previous run's temporary was reclaimed on the way
# shellcheck disable=SC2086
CZK_FAULT=renamed:.params expect 137 "setup killed after the rename" -- setup $WIN --seed 2 --param-cache "$PC" --quiet
check "new parameters in place" sh -c "! cmp -s '$P' '$T/old.params'"
expect_absent "$VK" "no vk beside the new parameters"
no_temps "a setup reclaims a dead setup's temporary"
# killed at the vk's commit (its temporary complete, not renamed)
# shellcheck disable=SC2086
CZK_FAULT=commit:.vk expect 137 "setup killed at the vk's commit" -- setup $WIN --seed 3 --param-cache "$PC" --quiet
expect_absent "$VK" "no vk before its rename"
# shellcheck disable=SC2086
expect 0 "setup again" -- setup $WIN --seed 1 --param-cache "$PC" --quiet
check "the same seed: the same parameters" cmp -s "$P" "$T/old.params"
check "the same seed: the same vk" cmp -s "$VK" "$T/old.vk"
no_temps "after setup again"

# ---- czk pce build ----
# shellcheck disable=SC2086
CZK_FAULT=write:.pce:100000 expect 137 "pce build killed mid-write" -- pce build $WIN --quiet
one_temp "$CZK_CACHE_DIR" 100000 "a killed PCE build leaves its temporary"
# shellcheck disable=SC2086
CZK_FAULT=commit:.pce expect 137 "pce build killed at its commit" -- pce build $WIN --quiet
check "no PCE file before the rename" sh -c "! ls '$CZK_CACHE_DIR' | grep -q '\\.pce\$'"
# shellcheck disable=SC2086
expect 0 "pce build again" -- pce build $WIN --quiet
no_temps "after pce build again"
PCEF=$(ls "$CZK_CACHE_DIR"/*.pce | head -1)
expect 0 "pce info of the built file" -- pce info "$PCEF"
expect_out "^mapped .* GiB of the file; an evaluation holds .* GiB of it at once" \
    "pce info: the file is mapped, and what an evaluation holds of it"
expect 0 "pce info --json" -- pce info "$PCEF" --json
expect_out '"mapped_bytes":[1-9][0-9]*,"eval_bytes":[1-9]' "pce info --json: mapped and eval bytes"

# ---- czk prove ----
# (under ASan a prove takes 5 s: the kill after the proving is left to the
# Release build; the kills before it run in both)
if [ -z "${CZK_TEST_ASAN:-}" ]; then
    # shellcheck disable=SC2086
    CZK_FAULT=write:w.proof:100 expect 137 "prove killed writing the proof" -- $PROVE -o "$T/w.proof" --quiet
    expect_absent "$T/w.proof" "no proof from a killed prove"
    one_temp "$T" 100 "the killed prove's temporary"
fi
# the PCE cache written by a prove (--pce on, nothing cached)
rm -f "$CZK_CACHE_DIR"/*.pce
# shellcheck disable=SC2086
CZK_FAULT=write:.pce:4096 expect 137 "prove killed writing the PCE cache" -- $PROVE --pce on -o "$T/w.proof" --quiet
# the sidecar a full validation records (a full validation takes 4 s under
# ASan, twice here: Release only)
if [ -z "${CZK_TEST_ASAN:-}" ]; then
    rm -f "$P.czkcheck"
    # shellcheck disable=SC2086
    CZK_FAULT=write:.czkcheck:20 expect 137 "prove killed recording the sidecar" -- $PROVE -o "$T/w.proof" --quiet
fi
# shellcheck disable=SC2086
expect 0 "prove again" -- $PROVE --pce on -o "$T/w.proof" --json
expect_out '"source":"pce"' "prove again built and used the PCE"
expect_out '"verified":true' "prove again verified its proof"
check "prove again has the sidecar" test -s "$P.czkcheck"
expect 0 "verify" -- verify --post window --vanilla "$V" --param-cache "$PC" --proof "$T/w.proof"
no_temps "after prove again"

# ---- czk serve ----
SOCK="unix://$T/czk.sock"
RAND=$(window_randomness "$V")
WP="--kind window-post --registered-proof 10 --miner-id 1007 --vanilla $V/vanilla-window.bin --randomness $RAND"
# serve LOG [ARGS...]: start a daemon in the background ($srv), wait for
# its "listening on" line; 1 if it did not come
serve() {
    log="$1"
    shift
    : >"$log"
    "$CZK" serve --listen "$SOCK" --param-cache "$PC" --status-listen 127.0.0.1:0 "$@" >/dev/null 2>"$log" &
    srv=$!
    wait_listening "$log" "$srv"
}
stop() {
    kill "$1" 2>/dev/null
    wait "$1" 2>/dev/null
}
# died PID: 0 when the daemon is gone within 10 s (its status in $died_rc);
# else it is killed, and 1 (a test never hangs on a daemon that lives on)
died() {
    i=0
    while kill -0 "$1" 2>/dev/null && [ $i -lt 200 ]; do
        sleep 0.05
        i=$((i + 1))
    done
    if kill -0 "$1" 2>/dev/null; then
        kill -9 "$1" 2>/dev/null
        wait "$1" 2>/dev/null
        return 1
    fi
    wait "$1" 2>/dev/null
    died_rc=$?
    return 0
}
# A setup and a PCE build killed mid-write leave one temporary each in the
# daemon's two directories: it reclaims both at start and says so.
# shellcheck disable=SC2086
CZK_FAULT=write:.params:3000000 expect 137 "setup killed (for the daemon)" -- setup $WIN --seed 2 --param-cache "$PC" --quiet
rm -f "$CZK_CACHE_DIR"/*.pce
# shellcheck disable=SC2086
CZK_FAULT=write:.pce:500000 expect 137 "pce build killed (for the daemon)" -- pce build $WIN --quiet
if serve "$T/s1.log"; then
    pass=$((pass + 1))
    check "the daemon reclaimed the dead setup's temporary" \
        grep -q "parameter cache $PC: reclaimed 1 dead writers' temporary files (3000000 bytes)" "$T/s1.log"
    check "the daemon reclaimed the dead PCE build's temporary" \
        grep -q "cache directory $CZK_CACHE_DIR: reclaimed 1 dead writers' temporary files (500000 bytes)" "$T/s1.log"
    grep "reclaimed" "$T/s1.log" | sed 's/^/  /'
    no_temps "after the daemon's start"
    # killed just after start
    kill -9 "$srv"
    died "$srv"
else
    fail=$((fail + 1))
fi
# killed mid-job, writing the PCE it recorded for the job (--pce on, nothing cached)
if CZK_FAULT=write:.pce:65536 serve "$T/s2.log" --pce on; then
    pass=$((pass + 1))
    # shellcheck disable=SC2086
    expect 1 "the job of a daemon killed mid-job fails" -- client prove --addr "$SOCK" --deadline 120 $WP -o "$T/d.proof"
    expect_out "UNAVAILABLE" "the client names the lost connection"
    died_rc=0
    check "the daemon died by SIGKILL" died "$srv"
    check "its status is SIGKILL's" test "$died_rc" -eq 137
    expect_absent "$T/d.proof" "no proof from the dead daemon"
    one_temp "$CZK_CACHE_DIR" 65536 "the dead daemon's PCE temporary"
else
    fail=$((fail + 1))
fi
# restarted: it reclaims that temporary, proves, and leaves nothing behind
if serve "$T/s3.log" --pce on; then
    pass=$((pass + 1))
    check "the restarted daemon reclaimed the job's temporary" \
        grep -q "cache directory $CZK_CACHE_DIR: reclaimed 1 dead writers' temporary files (65536 bytes)" "$T/s3.log"
    # shellcheck disable=SC2086
    expect 0 "the job on the restarted daemon" -- client prove --addr "$SOCK" --deadline 120 $WP -o "$T/d.proof"
    expect 0 "its proof verifies" -- verify --post window --vanilla "$V" --param-cache "$PC" --proof "$T/d.proof"
    stop "$srv"
    check "the restarted daemon cached the PCE" sh -c "ls '$CZK_CACHE_DIR' | grep -q '\\.pce\$'"
    no_temps "after the restarted daemon"
else
    fail=$((fail + 1))
fi

# ---- a daemon in a memory cgroup: the budget follows its limit ----
LIMIT=805306368 # 768 MiB
CG=""
cg_self=$(sed -n 's/^0:://p' /proc/self/cgroup 2>/dev/null | head -1)
# mountinfo: ID PARENT DEV ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPEROPTIONS
mounts() { awk '{ for (i = 7; i < NF; i++) if ($i == "-") { print $(i + 1), $(i + 3), $5; break } }' /proc/self/mountinfo; }
v2=$(mounts 2>/dev/null | awk '$1 == "cgroup2" { print $3; exit }')
v1=$(mounts 2>/dev/null | awk '$1 == "cgroup" && $2 ~ /(^|,)memory(,|$)/ { print $3; exit }')
v1_self=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3; exit }' /proc/self/cgroup 2>/dev/null)
# v2: a child of this process's cgroup's parent (a cgroup with processes
# cannot have children with controllers), where memory is delegated
for d in "$v2${cg_self%/*}" "$v2"; do
    [ -n "$v2" ] && [ -w "$d/cgroup.subtree_control" ] || continue
    grep -qw memory "$d/cgroup.subtree_control" 2>/dev/null || continue
    if mkdir "$d/czk-test-$$" 2>/dev/null; then
        if echo $LIMIT >"$d/czk-test-$$/memory.max" 2>/dev/null; then CG="$d/czk-test-$$"; KIND=v2; break; fi
        rmdir "$d/czk-test-$$"
    fi
done
if [ -z "$CG" ] && [ -n "$v1" ] && mkdir "$v1$v1_self/czk-test-$$" 2>/dev/null; then
    if echo $LIMIT >"$v1$v1_self/czk-test-$$/memory.limit_in_bytes" 2>/dev/null; then
        CG="$v1$v1_self/czk-test-$$"
        KIND=v1
    else
        rmdir "$v1$v1_self/czk-test-$$"
    fi
fi
if [ -z "$CG" ]; then
    echo "test_cli_crash: the cgroup case is skipped: no memory cgroup (v2 or v1) can be made here"
else
    : >"$T/s4.log"
    # into the cgroup first, then czk serve in the same process
    # shellcheck disable=SC2016
    sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" serve --listen "$3" --param-cache "$4" --status-listen 127.0.0.1:0' \
        sh "$CG" "$CZK" "$SOCK" "$PC" >/dev/null 2>"$T/s4.log" &
    srv=$!
    wait_listening "$T/s4.log" "$srv" || fail=$((fail + 1))
    port=$(sed -n 's/.*HTTP (\/status, \/metrics) listening on 127.0.0.1:\([0-9]*\)/\1/p' "$T/s4.log")
    st=$(curl -s "http://127.0.0.1:$port/status" 2>/dev/null || wget -qO- "http://127.0.0.1:$port/status" 2>/dev/null)
    case "$st" in
    *"\"limit_bytes\":$LIMIT,\"limit_source\":\"cgroup $KIND "*) pass=$((pass + 1)) ;;
    *)
        fail=$((fail + 1))
        echo "FAIL: GET /status of a daemon in $CG: no limit $LIMIT from cgroup $KIND in: $st"
        ;;
    esac
    budget=$(echo "$st" | sed -n 's/.*"budget_bytes":\([0-9]*\).*/\1/p')
    check "the budget ($budget) is within the cgroup's limit" test "${budget:-0}" -gt 0 -a "${budget:-0}" -lt $LIMIT
    check "the log names the cgroup limit" grep -q "limit from cgroup $KIND $(echo "$CG" | sed 's/[][\.*^$]/\\&/g')" "$T/s4.log"
    sed -n 's/.*\(memory budget.*limit from [^,]*\).*/  \1/p' "$T/s4.log"
    # a job larger than the cgroup's budget (a 2KiB PoRep sector: its
    # witness and streamed prover alone exceed 768 MiB) is refused while
    # the daemon goes on proving what fits
    "$CZK" gen-c1 --sector-size 2KiB --seed 3 --envelope -o "$T/c1.json" --quiet
    expect 1 "a job above the cgroup's budget is refused" -- client prove --addr "$SOCK" --c1 "$T/c1.json" \
        --deadline 60 -o "$T/big.proof"
    expect_out "RESOURCE_EXHAUSTED" "with RESOURCE_EXHAUSTED"
    expect_out "raise \[memory\] total_budget" "saying what budget would do"
    # shellcheck disable=SC2086
    expect 0 "a job within it, beside, completes" -- client prove --addr "$SOCK" --deadline 120 $WP -o "$T/cg.proof"
    expect 0 "its proof verifies" -- verify --post window --vanilla "$V" --param-cache "$PC" --proof "$T/cg.proof"
    check "the daemon in the cgroup still runs" kill -0 "$srv"
    stop "$srv"
    rmdir "$CG" 2>/dev/null
fi

cli_finish
