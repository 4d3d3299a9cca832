#!/usr/bin/env bash
# tests/timings.sh [RELEASE_TIMES [ASAN_TIMES]]: the per-test table of
# tests/README.md from the files `make test` leaves (build/test-times.txt,
# build-asan/test-times.txt; lines "NAME WALL USER SYS EXIT" from tests/timed.sh),
# longest Release wall first, with each build's totals.
set -eu
rel=${1:-build/test-times.txt}
asan=${2:-build-asan/test-times.txt}
[ -f "$rel" ] || { echo "timings.sh: no $rel (run make test first)" >&2; exit 1; }
[ -f "$asan" ] || asan=/dev/null
awk -v asanfile="$asan" '
  FNR == NR && FILENAME != asanfile { hr[$1] = 1; rw[$1] = $2; rc[$1] = $3 + $4; rx[$1] = $5; names[$1] = 1; next }
  { ha[$1] = 1; aw[$1] = $2; ac[$1] = $3 + $4; ax[$1] = $5; names[$1] = 1 }
  END {
    print "| test | Release wall s | Release CPU s | ASan wall s | ASan CPU s |"
    print "|---|---:|---:|---:|---:|"
    n = 0
    for (t in names) order[++n] = t
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
      if (rw[order[j]] + 0 > rw[order[i]] + 0) { x = order[i]; order[i] = order[j]; order[j] = x }
    for (i = 1; i <= n; i++) {
      t = order[i]
      printf "| %s | %s | %s | %s | %s |\n", t,
        (t in hr) ? rw[t] (rx[t] == 0 ? "" : rx[t] == 77 ? " (skip)" : " (exit " rx[t] ")") : "-",
        (t in hr) ? sprintf("%.1f", rc[t]) : "-",
        (t in ha) ? aw[t] (ax[t] == 0 ? "" : ax[t] == 77 ? " (skip)" : " (exit " ax[t] ")") : "-",
        (t in ha) ? sprintf("%.1f", ac[t]) : "-"
      sw += rw[t]; sc += rc[t]; tw += aw[t]; tc += ac[t]
    }
    printf "| **sum** | %.0f | %.0f | %.0f | %.0f |\n", sw, sc, tw, tc
  }' "$rel" "$asan"
