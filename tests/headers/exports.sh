#!/bin/sh
# libczk.so exports the API of include/czk/ and nothing else: every dynamic
# symbol it defines is named in a public header. Internal headers under src/
# declare theirs with hidden visibility; cmake/libczk.map keeps czk__* local.
#   exports.sh LIBCZK_SO INCLUDE_DIR NM     exit 0, 1 (a symbol is not public), 77 (skipped)
set -u
so=$1 inc=$2 nm=${3:-nm}
command -v "$nm" > /dev/null 2>&1 || { echo "no nm ($nm): skipped"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/czk-exports.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
"$nm" -D --defined-only "$so" > "$tmp/nm" || { echo "$nm -D failed on $so"; exit 1; }
awk 'NF >= 3 { sub(/@.*/, "", $3); print $3 }' "$tmp/nm" | sort -u > "$tmp/exports"
cat "$inc"/czk/*.h | grep -oE '[A-Za-z_][A-Za-z0-9_]*' | sort -u > "$tmp/names"
n=$(wc -l < "$tmp/exports")
grep -qx czk_init "$tmp/exports" || { echo "czk_init is not exported by $so ($n symbols): wrong file?"; exit 1; }
comm -23 "$tmp/exports" "$tmp/names" > "$tmp/leaks"
if [ -s "$tmp/leaks" ]; then
    echo "$so exports symbols that no header in $inc/czk declares:"
    sed 's/^/  /' "$tmp/leaks"
    echo "(declare them in a public header, or in a src/ header between"
    echo " #pragma GCC visibility push(hidden) and pop)"
    exit 1
fi
echo "$n exported symbols, each named in include/czk/"
