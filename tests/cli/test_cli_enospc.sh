#!/bin/sh
# A full disk, for every file czk writes: small tmpfs mounts in a mount
# namespace of the test's own (unshare -m as root, unshare -rm otherwise;
# where neither works the test is skipped with one line, exit 77). A writer
# whose size is known checks the free space first and says, naming the
# file, the bytes needed and the bytes free (czk setup before its work);
# one whose size is not known (the R1CS dump) meets ENOSPC mid-write: exit
# 1, "No space left on device", nothing left. No output, temporary or
# half directory is left in either case. A daemon whose cache disk is full
# proves without caching its PCE and says why.
# Usage: test_cli_enospc.sh /path/to/czk
set -u
CZK="$1"
if [ -z "${CZK_ENOSPC_NS:-}" ]; then
    export CZK_ENOSPC_NS=1
    if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then exec unshare -m sh "$0" "$@"; fi
    if unshare -rm true 2>/dev/null; then exec unshare -rm sh "$0" "$@"; fi
    echo "test_cli_enospc: skipped: no mount namespace for a small tmpfs here (unshare -m and -rm refused)"
    exit 77
fi
. "$(dirname "$0")/lib.sh"
cli_init test_cli_enospc
trap 'umount "$T/small" "$T/mid" "$T/full" "$T/dump" 2>/dev/null; rm -rf "$T"' EXIT
V="$(dirname "$0")/../filecoin/vectors"
mkdir -p "$T/small" "$T/mid" "$T/full" "$T/dump" "$T/params" "$T/cache"
# small: 1 MiB; mid: 400 MiB (a limit: nothing is written there); dump: 256
# KiB; full: 256 KiB, filled up (a cache directory made first)
if ! mount -t tmpfs -o size=1m tmpfs "$T/small" 2>/dev/null || ! mount -t tmpfs -o size=400m tmpfs "$T/mid" ||
    ! mount -t tmpfs -o size=256k tmpfs "$T/dump" || ! mount -t tmpfs -o size=256k tmpfs "$T/full"; then
    echo "test_cli_enospc: skipped: cannot mount a tmpfs in this namespace"
    exit 77
fi
mkdir "$T/full/cache"
dd if=/dev/zero of="$T/full/filler" bs=4096 2>/dev/null
export CZK_CACHE_DIR="$T/cache"
WIN="--circuit window-post --sector-size 2KiB"
PORE="--circuit porep --layers 2 --challenges 1 --tree 8 --nodes 64"

# empty DIR DESC: nothing in DIR but what the test put there
empty() {
    left=$(ls -A "$1" | grep -v -x -e filler -e cache -e lost+found)
    if [ -z "$left" ]; then pass=$((pass + 1)); else
        fail=$((fail + 1))
        echo "FAIL: $2: left in $1: $left"
    fi
}
# nospace FILE DESC: the last command named FILE and the free space
nospace() {
    expect_out "$1: not enough free space: [0-9]* bytes ([0-9.]* GB) needed, [0-9]* bytes ([0-9.]* GB) free in" "$2"
}

# czk setup, the parameters in memory: they (11.5 MB) do not fit 1 MiB
# shellcheck disable=SC2086
expect 1 "setup on a small disk" -- setup $WIN --seed 1 -o "$T/small/w.params" --vk "$T/small/w.vk" --quiet
nospace "$T/small/w.params" "setup names the parameters and the space"
empty "$T/small" "setup"
# czk setup --stream: first (before the PCE) at least the h and l sections
# (330 MB for this shape), then, with the PCE built, the file's exact size
# before any other work (557476152 bytes: tests/cli/test_cli_groth16.sh
# writes this shape's file and compares it with the in-memory setup's)
# shellcheck disable=SC2086
expect 1 "setup --stream on a small disk" -- setup $PORE --seed 1 --stream -o "$T/small/s.params" --vk "$T/small/s.vk" --quiet
nospace "$T/small/s.params" "setup --stream names the parameters and the space"
empty "$T/small" "setup --stream"
# shellcheck disable=SC2086
expect 1 "setup --stream on a 400 MiB disk" -- setup $PORE --seed 1 --stream -o "$T/mid/s.params" --vk "$T/mid/s.vk" --quiet
nospace "$T/mid/s.params" "setup --stream names the parameters and the space"
expect_out "557476152 bytes (0.56 GB) needed" "setup --stream needs the file's exact size"
empty "$T/mid" "setup --stream"
# the in-memory PoRep setup: at least the h and l sections, said before the work
# shellcheck disable=SC2086
expect 1 "porep setup on a small disk" -- setup $PORE --seed 1 -o "$T/small/p.params" --vk "$T/small/p.vk" --quiet
expect_out "the parameters would not fit: $T/small/p.params: not enough free space" "porep setup says it first"
empty "$T/small" "porep setup"
# a missing directory, before the work too
# shellcheck disable=SC2086
expect 1 "porep setup into a missing directory" -- setup $PORE -o "$T/none/p.params" --vk "$T/none/p.vk" --quiet
expect_out "$T/none/p.params: cannot create: $T/none: No such file or directory" "the missing directory named"

# czk pce build (1.4 MB)
# shellcheck disable=SC2086
expect 1 "pce build on a small disk" -- pce build $WIN -o "$T/small/w.pce" --quiet
nospace "$T/small/w.pce" "pce build names the file and the space"
empty "$T/small" "pce build"

# the generators: a C1, a PoSt and a SnapDeals vanilla directory
expect 1 "gen-c1 on a full disk" -- gen-c1 --sector-size 2KiB -o "$T/full/c1.json" --quiet
nospace "$T/full/c1.json" "gen-c1 names the file and the space"
expect 1 "gen-post on a full disk" -- gen-post --kind window -o "$T/full/post" --quiet
nospace "$T/full/post/vanilla-window.bin" "gen-post names the file and the space"
expect 1 "gen-snap on a full disk" -- gen-snap --sector-size 2KiB -o "$T/full/snap" --quiet
nospace "$T/full/snap/snap-partition-0.bin" "gen-snap names the file and the space"
empty "$T/full" "the generators (no half directory)"

# czk prove: the proof (192 bytes) on a full disk, after the proving
# shellcheck disable=SC2086
expect 0 "setup" -- setup $WIN --seed 1 --param-cache "$T/params" --quiet
PROVE="prove --post window --vanilla $V --param-cache $T/params"
# (under ASan a prove takes 5 s: this one and the client's below are left
# to the Release build)
if [ -z "${CZK_TEST_ASAN:-}" ]; then
    # shellcheck disable=SC2086
    expect 1 "prove on a full disk" -- $PROVE -o "$T/full/w.proof" --quiet
    nospace "$T/full/w.proof" "prove names the proof and the space"
    empty "$T/full" "prove"
fi

# the R1CS dump (its size unknown until the end: 700 KB into 256 KiB):
# ENOSPC mid-write, as the kernel says it
expect 1 "r1cs dump on a small disk" -- bench synth-only --circuit window-post --vanilla "$V" --pce off -i 1 \
    --r1cs-dump "$T/dump/w.dump" --quiet
expect_out "$T/dump/w.dump: write: No space left on device" "ENOSPC named with the file"
empty "$T/dump" "the r1cs dump"

# czk serve with its cache directory on the full disk: the job proves
# without caching its PCE; the client's -o on the full disk fails clearly
SOCK="unix://$T/czk.sock"
RAND=$(window_randomness "$V")
WP="--kind window-post --registered-proof 10 --miner-id 1007 --vanilla $V/vanilla-window.bin --randomness $RAND"
: >"$T/serve.log"
CZK_CACHE_DIR="$T/full/cache" "$CZK" serve --listen "$SOCK" --param-cache "$T/params" --pce on >/dev/null \
    2>"$T/serve.log" &
srv=$!
if wait_listening "$T/serve.log" "$srv"; then
    # shellcheck disable=SC2086
    expect 0 "a job with the cache disk full" -- client prove --addr "$SOCK" --deadline 120 $WP -o "$T/d.proof"
    expect 0 "its proof verifies" -- verify --post window --vanilla "$V" --param-cache "$T/params" --proof "$T/d.proof"
    check "the daemon says why the PCE is not cached" \
        grep -q "could not cache the PCE: $T/full/cache/.*: not enough free space" "$T/serve.log"
    if [ -z "${CZK_TEST_ASAN:-}" ]; then
        # shellcheck disable=SC2086
        expect 1 "client -o on a full disk" -- client prove --addr "$SOCK" --deadline 120 $WP -o "$T/full/d.proof"
        nospace "$T/full/d.proof" "the client names the proof file and the space"
    fi
    empty "$T/full" "the daemon and the client"
    empty "$T/full/cache" "the daemon's cache"
else
    fail=$((fail + 1))
fi
kill "$srv" 2>/dev/null
wait "$srv" 2>/dev/null

cli_finish
