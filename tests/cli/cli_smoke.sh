#!/bin/sh
# The czk command's contract: exit codes, --help, usage errors.
# Usage: cli_smoke.sh /path/to/czk
set -u
CZK="$1"
. "$(dirname "$0")/lib.sh"
cli_init smoke

expect 2 "no command" --
expect 0 "top-level help" -- --help
expect_out "commands:" "help lists commands"
expect 2 "unknown command" -- frobnicate
expect_out "unknown command 'frobnicate'" "unknown command named"
expect 0 "version" -- version
expect_out "ADX" "version shows CPU features"
expect_out "threads:" "version shows threads"
expect 0 "version json" -- version --json
expect_out '"field_impl"' "version json has the field implementation"
expect 2 "unknown flag" -- version --bogus
expect_out "unknown option '--bogus'" "unknown flag named"
expect 2 "bad thread count" -- version --threads zero
expect 2 "missing flag value" -- version --threads
expect 2 "stray argument" -- version extra
expect 0 "version help" -- version --help
expect_out "usage: czk version" "version usage"
# czk params: every v28 name, and what a cache holds
mkdir -p "$T/pc"
W32=v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc
printf 'x' >"$T/pc/$W32.params"
printf 'yz' >"$T/pc/$W32.vk"
expect 0 "params" -- params --param-cache "$T/pc"
expect_out "window-post 34359738368 $W32 1 2" "params sees a cached file pair and its sizes"
expect_out "winning-post 68719476736 v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-b620" \
    "params names the 64GiB WinningPoSt file"
expect_out "porep 2048 v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138" \
    "params names the 2KiB PoRep file"
expect_out "snap 34359738368 v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-3b7f44a9" \
    "params names the 32GiB SnapDeals file"
expect_out "1 of 20 circuits have both files" "params counts what is present"
expect 0 "params json" -- params --param-cache "$T/pc" --json
expect_out '"present":1,"total":20' "params json counts"
expect 2 "params with a stray argument" -- params extra
expect 2 "bench without name" -- bench
expect 0 "bench help" -- bench --help
expect 2 "unknown bench" -- bench nosuch

# Every registered command and benchmark answers --help with exit 0.
for c in $("$CZK" --help | sed -n 's/^  \([a-z][a-z0-9-]*\) .*/\1/p'); do
    [ "$c" = bench ] && continue
    expect 0 "$c --help" -- "$c" --help
    expect_out "usage: czk $c" "$c usage text"
    expect 2 "$c with an unknown flag" -- "$c" --no-such-flag
done
for b in $("$CZK" bench --help | sed -n 's/^  \([a-z][a-z0-9-]*\) .*/\1/p'); do
    expect 0 "bench $b --help" -- bench "$b" --help
    expect_out "usage: czk bench $b" "bench $b usage text"
    expect 2 "bench $b with an unknown flag" -- bench "$b" --no-such-flag
done

expect 2 "bench pipeline --pce with a bad mode" -- bench pipeline --pce sometimes
expect_out "--pce wants up to 3 of off, on, auto" "bad --pce mode named"
expect 2 "bench pipeline --pce with too many runs" -- bench pipeline --pce off,on --batch 1,2,3,4,5
expect 2 "prove --pce with a bad mode" -- prove --c1 x.json -o y.bin --pce sometimes
expect_out "--pce wants on, off or auto" "prove names the bad --pce mode"
# prove / verify --post, setup of the PoSt circuits (tests/cli/test_cli_post.sh runs them)
expect 2 "prove --post with a bad kind" -- prove --post daily --vanilla d -o y.bin
expect_out "--post wants window or winning, got 'daily'" "prove names the bad --post kind"
expect 2 "prove --post without -o" -- prove --post window --vanilla d
expect_out "--post, --vanilla and -o are required together" "prove --post names what is missing"
expect 2 "prove --vanilla without --post" -- prove --vanilla d -o y.bin
expect_out "--vanilla needs its kind: --post window|winning or --snap" "prove --vanilla names the options that pick a kind"
expect 2 "prove --c1 with --vanilla" -- prove --c1 c.json --vanilla d -o y.bin
expect_out "--c1 and --vanilla exclude each other" "prove refuses a vanilla directory beside a C1"
expect 2 "prove --post with --partition" -- prove --post window --vanilla d -o y.bin --partition 1
expect_out "are PoRep's, not --post's" "prove --post refuses PoRep options"
expect 2 "verify --post with a bad kind" -- verify --post daily --vanilla d --proof p.bin
expect 2 "verify --post with --c1" -- verify --post window --vanilla d --proof p.bin --c1 c.json
expect_out "--c1 and --partition are PoRep's, not --post's" "verify --post refuses PoRep options"
expect 2 "setup with an unknown circuit" -- setup --circuit daily --sector-size 2KiB -o p --vk v
expect_out "--circuit wants porep, window-post, winning-post or snap, got 'daily'" "setup names the bad circuit"
expect 2 "setup snap with a PoSt option" -- setup --circuit snap --sector-size 2KiB --sectors 2 -o p --vk v
expect_out "do not apply to snap" "setup snap refuses --sectors"
expect 2 "setup snap with a size of no update proof" -- setup --circuit snap --sector-size 4KiB -o p --vk v
expect 2 "prove --snap without --vanilla" -- prove --snap -o y.bin
expect_out "--snap, --vanilla and -o are required together" "prove --snap names what is missing"
expect 2 "prove --snap with --post" -- prove --snap --post window --vanilla d -o y.bin
expect_out "--snap and --post exclude each other" "prove names the two options that pick a kind"
expect 2 "prove --snap with --c1" -- prove --snap --vanilla d -o y.bin --c1 c.json
expect_out "--c1 and --partition are PoRep's, not --snap's" "prove --snap refuses PoRep options"
expect 2 "verify --snap without --proof" -- verify --snap --vanilla d
expect_out "--snap, --vanilla and --proof are required together" "verify --snap names what is missing"
expect 2 "gen-snap without -o" -- gen-snap --sector-size 2KiB
expect 2 "gen-snap with a size of no update proof" -- gen-snap --sector-size 4KiB -o d
expect_out "--sector-size" "gen-snap names the bad size"
expect 2 "gen-snap with more challenges than the size has" -- gen-snap --sector-size 2KiB --challenges 11 -o d
expect_out "1 .. 10" "gen-snap names the allowed counts"
expect 2 "setup window-post with a PoRep option" -- setup --circuit window-post --sector-size 2KiB --layers 2 -o p --vk v
expect 2 "setup porep with --sectors" -- setup --circuit porep --sector-size 2KiB --sectors 2 -o p --vk v

# bench synth-only --circuit window-post|winning-post: one generated PoSt
# partition, checked; exact counts (2KiB Window: 2 x (313 + 10 x 1,062)
# constraints + 23 input constraints; a custom Winning shape, tree 8,8,2 of 128
# leaves: 4 x (313 + 530 + 530 + 314 + 2)
# + 9 inputs); bad --circuit / --sectors values are usage errors.
expect 0 "synth-only window-post 2KiB" -- bench synth-only --circuit window-post --sector-size 2KiB -i 1 --json
expect_out '"inputs":23,"aux":22128,"constraints":21889,"circuit_constraints":21866' "window-post 2KiB counts"
expect_out '"ok":true' "window-post 2KiB checks pass"
expect 0 "synth-only winning-post custom" -- bench synth-only --circuit winning-post --nodes 128 --tree 8,8,2 \
    --sectors 4 --challenges 1 -i 1 --backend witness
expect_out "per partition: 9 inputs, 6816 aux, 6765 constraints (6756 + 9 input constraints)" "winning-post custom counts"
expect_out "public inputs = czk_post_public_inputs" "winning-post checks its public inputs"
expect 0 "synth-only window-post 32GiB resized" -- bench synth-only --circuit window-post --sector-size 32GiB \
    --sectors 2 -i 1 --backend shape
expect_out "106666 + 23 input constraints" "window-post 32GiB with 2 sectors: 2 x (313 + 10 x 5,302)"
expect 2 "synth-only bad --circuit" -- bench synth-only --circuit daily --sector-size 2KiB
expect_out "--circuit wants porep, window-post, winning-post or snap, got 'daily'" "bad --circuit named"
# bench synth-only --circuit snap: a generated 2KiB update (1,705,039
# constraints + 5 input rows) and a custom 8KiB shape (tree 8,4: 1 partition,
# 10 challenges, 8 apex leaves) from the closed form and the counting pass
expect 0 "synth-only snap 2KiB" -- bench synth-only --circuit snap --sector-size 2KiB -i 1 --json
expect_out '"inputs":5,"aux":1703569,"constraints":1705044,"circuit_constraints":1705039' "snap 2KiB counts"
expect_out '"ok":true' "snap 2KiB checks pass"
expect 0 "synth-only snap custom" -- bench synth-only --circuit snap --nodes 256 --tree 8,4 -i 1 --backend witness
expect_out "public inputs = czk_snap_public_inputs" "snap custom checks its public inputs"
expect 2 "synth-only snap --partition out of range" -- bench synth-only --circuit snap --sector-size 2KiB --partition 1
expect_out "--partition 1: the update has 1 partitions" "snap --partition out of range named"
expect 2 "synth-only snap with --challenges" -- bench synth-only --circuit snap --sector-size 2KiB --challenges 3
expect_out "do not apply to snap" "snap refuses --challenges"
expect 2 "synth-only snap custom, a node count too small" -- bench synth-only --circuit snap --nodes 2048 --tree 8,4
expect_out "cannot hold" "snap custom shape that cannot hold its constants named"
expect 2 "synth-only bad --sectors" -- bench synth-only --circuit window-post --sector-size 2KiB --sectors 0
expect_out "--sectors wants 1..100000, got '0'" "bad --sectors named"
expect 2 "synth-only --sectors for porep" -- bench synth-only --sector-size 2KiB --sectors 2
expect_out "--sectors is for the PoSt circuits" "--sectors without a PoSt circuit named"
expect 2 "synth-only --layers for window-post" -- bench synth-only --circuit window-post --sector-size 2KiB --layers 2
expect_out "--layers and --partitions are PoRep options" "a PoRep shape option with PoSt named"
expect 2 "synth-only custom window-post incomplete" -- bench synth-only --circuit window-post --nodes 64 --tree 8
expect_out "needs --nodes, --tree, --sectors and --challenges" "incomplete custom PoSt shape named"

# every benchmark reports the whole process beside its timed region: a
# "# process:" line in text, a "process" member of its (one) JSON object
expect 0 "bench field text" -- bench field --impl api -i 1
expect_out "^# process: wall [0-9.]* s, user [0-9.]* s, sys [0-9.]* s, minor faults [1-9][0-9]*, major faults [0-9]*, peak RSS" \
    "bench prints the whole-process line"
expect 0 "bench field json" -- bench field --impl api -i 1 --json
check "bench --json: one object with process figures" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
p = d["process"]
assert p["wall_s"] > 0 and p["user_s"] + p["sys_s"] > 0 and p["minor_faults"] > 0 and p["peak_rss_bytes"] > 0, p
assert "config" in d, list(d)
' "$T/out"

# czk demo: any kind's synthetic 2KiB job through the registry alone (the
# PoSt kinds: seconds; PoRep's, what make demo runs, takes a minute)
CZK_CACHE_DIR="$T/demo-cache"
export CZK_CACHE_DIR
expect 0 "demo window-post" -- demo --kind window-post --seed 3 --json
check "demo window-post: made its parameters, proved, verified" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["kind"] == "window-post" and d["sector"] == "window-post 2048B", d
assert d["verified"] is True and d["params_generated"] is True and d["constraints"] == 21889, d
assert d["params"].endswith("/window-post-2048B-czk0.1.0.params"), d
' "$T/out"
# under the sanitizers (a minute more) the first demo alone
if [ -z "${CZK_TEST_ASAN:-}" ]; then
    expect 0 "demo window-post again" -- demo --kind window-post
    expect_out "load cached params" "demo reuses the cached parameters"
    expect_out "verify .* -> VALID" "demo verifies"
    expect 0 "demo winning-post" -- demo --kind winning-post --quiet
fi
expect 2 "demo of an unknown kind" -- demo --kind daily
expect_out "--kind wants porep, window-post, winning-post or snap, got 'daily'" "demo names the kinds"

cli_finish
