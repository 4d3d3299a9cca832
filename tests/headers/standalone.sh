#!/bin/sh
# Every public header compiles on its own, as C (gnu11) and as C++17, with warnings
# as errors: include/czk/ is the API only (nothing of src/ leaks into it).
#   standalone.sh INCLUDE_DIR CC [CXX]     exit 0, 1 (a header failed), 77 (skipped)
set -u
inc=$1 cc=$2 cxx=${3:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/czk-headers.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
for h in "$inc"/czk/*.h; do
    name=czk/$(basename "$h")
    n=$((n + 1))
    printf '#include "%s"\n#include "%s"\nint czk_header_test_%d;\n' "$name" "$name" "$n" > "$tmp/t.c"
    if ! "$cc" -std=gnu11 -Wall -Wextra -Werror -fsyntax-only -I "$inc" "$tmp/t.c" > "$tmp/log" 2>&1; then
        echo "FAIL (C) $name"; cat "$tmp/log"; fail=1
    fi
    if [ -n "$cxx" ]; then
        cp "$tmp/t.c" "$tmp/t.cc"
        if ! "$cxx" -std=c++17 -Wall -Wextra -Werror -fsyntax-only -I "$inc" "$tmp/t.cc" > "$tmp/log" 2>&1; then
            echo "FAIL (C++) $name"; cat "$tmp/log"; fail=1
        fi
    fi
done
[ "$n" -gt 0 ] || { echo "no headers under $inc/czk"; exit 1; }
[ -n "$cxx" ] || echo "note: no C++ compiler given: C only"
[ "$fail" = 0 ] && echo "$n public headers compile standalone (C${cxx:+ and C++})"
exit $fail
