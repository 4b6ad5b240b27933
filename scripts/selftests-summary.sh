#!/bin/bash
# Summarize the boots of one selftests run (OUT/runs/selftests-*) as
# markdown: the boots, totals per suite, the splats, one row per test_progs
# test.  A test that a boot was given but that has no result line (its boot
# hung, panicked or was never started) is NORESULT.
#
# usage: selftests-summary.sh TITLE RUNDIR...
set -euo pipefail
title=${1:?usage: selftests-summary.sh TITLE RUNDIR...}
shift
[ $# -gt 0 ] || { echo "usage: selftests-summary.sh TITLE RUNDIR..." >&2; exit 1; }

files() { local d; for d in "$@"; do compgen -G "$d" || true; done; }
mapfile -t logs < <(for r in "$@"; do files "$r/out/test_progs-*.log"; done)
mapfile -t lists < <(for r in "$@"; do files "$r/out/test_progs-*.list"; done)

# "test RESULT", one per test; a test seen twice keeps its worst result.
results=$(
	{
		[ ${#logs[@]} -eq 0 ] || cat "${logs[@]}" |
			sed -n 's/^#[0-9-]* *\([^/:]*\):\([A-Z]*\).*/\1 \2/p'
		[ ${#lists[@]} -eq 0 ] || cat "${lists[@]}" | sed 's/$/ NORESULT/'
	} | tr -d '\r' | awk '
		BEGIN { rank["OK"] = 1; rank["SKIP"] = 2; rank["FAIL"] = 3
			rank["TIMEOUT"] = 4; rank["ABORT"] = 5; rank["NORESULT"] = 0 }
		!($1 in r) || rank[$2] > rank[r[$1]] { r[$1] = $2 }
		END { for (t in r) print t, r[t] }' | sort
)
count() { echo "$results" | grep -c " $1\$" || true; }

echo "# BPF selftests: $title"
echo
echo "| boot | seconds | guest exit | splat lines |"
echo "|---|---|---|---|"
for r in "$@"; do
	printf '| %s | %s | %s | %s |\n' "$(basename "$r")" \
		"$(cat "$r/seconds" 2>/dev/null || echo -)" \
		"$(cat "$r/guest-exit" 2>/dev/null || echo 'not booted')" \
		"$( [ -s "$r/splats.txt" ] && wc -l <"$r/splats.txt" || echo 0)"
done
echo
echo "| suite | passed | failed | skipped | no result |"
echo "|---|---|---|---|---|"
echo "| test_progs | $(count OK) | $(count FAIL) | $(count SKIP) | $(( $(count NORESULT) + $(count TIMEOUT) + $(count ABORT) )) |"
for s in test_verifier test_maps; do
	l=$(files "${@/%//out/$s.log}" | head -n1)
	if [ -z "$l" ]; then
		echo "| $s | not run | | | |"
	elif [ $s = test_verifier ] && line=$(grep -m1 '^Summary:' "$l"); then
		# Summary: 790 PASSED, 0 SKIPPED, 2 FAILED
		read -r p sk f < <(sed -E 's/^Summary: ([0-9]+) PASSED, ([0-9]+) SKIPPED, ([0-9]+) FAILED.*/\1 \2 \3/' <<<"$line")
		echo "| $s | $p | $f | $sk | |"
	elif line=$(grep -m1 '^test_maps: OK' "$l"); then
		# test_maps: OK, 0 SKIPPED (it stops at the first failure)
		echo "| $s | all | 0 | $(sed -E 's/.*OK, ([0-9]+) SKIPPED.*/\1/' <<<"$line") | |"
	else
		# No verdict: an assertion stopped it, or its boot was cut.
		r=${l%/out/*}
		echo "| $s | | | | no verdict (boot: $(cat "$r/guest-exit" 2>/dev/null || echo '?')" \
			"after $(cat "$r/seconds" 2>/dev/null || echo '?') s); last line:" \
			"$(tr -d '\r|' <"$l" | grep -v '^$' | tail -n1) |"
	fi
done
echo
splats=$(for r in "$@"; do cat "$r/splats.txt" 2>/dev/null || true; done | tr -d '\r')
n=$(grep -c . <<<"$splats" || true)
if [ "$n" -eq 0 ]; then
	echo "Kernel splat lines in the run: 0."
else
	echo "Kernel splat lines in the run: $n, distinct:"
	echo
	sed -e 's/^\[ *[0-9.]*\] //' -e 's/: [a-z_/0-9:-]*\/[0-9]*$//' <<<"$splats" |
		sort | uniq -c | sed 's/^/    /'
fi
echo
echo "| test_progs test | result |"
echo "|---|---|"
echo "$results" | awk 'NF == 2 { print "| " $1 " | " $2 " |" }'
