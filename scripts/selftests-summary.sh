#!/bin/bash
# Summarize a selftests run directory (OUT/runs/selftests) as markdown:
# totals, then one row per test_progs test.
# usage: selftests-summary.sh RUNDIR
set -euo pipefail
run=${1:?usage: selftests-summary.sh RUNDIR}
logs=("$run"/out/test_progs-*.log)
results=$(cat "${logs[@]}" 2>/dev/null |
	sed -n 's/^#[0-9]* *\([^/:]*\):\(OK\|SKIP\|FAIL\).*/\1 \2/p' | sort -u)
count() { echo "$results" | grep -c " $1\$" || true; }
echo "# BPF selftests: $(basename "$(dirname "$(dirname "$run")")")"
echo
echo "| suite | passed | failed | skipped |"
echo "|---|---|---|---|"
echo "| test_progs | $(count OK) | $(count FAIL) | $(count SKIP) |"
for s in test_verifier test_maps; do
	l=$run/out/$s.log
	if [ -f "$l" ]; then
		line=$(grep -E '^Summary|SUMMARY' "$l" | tail -n1 || true)
		echo "| $s | ${line:-no summary: $(tail -n1 "$l")} | | |"
	else
		echo "| $s | not run | | |"
	fi
done
echo
echo "Kernel splat lines in the run: $( [ -s "$run/splats.txt" ] && wc -l <"$run/splats.txt" || echo 0), distinct:"
echo
tr -d '\r' <"$run/splats.txt" 2>/dev/null | sed 's/^\[ *[0-9.]*\] //' | sed 's/: [a-z_/0-9:-]*\/[0-9]*$//' |
	sort | uniq -c | sed 's/^/    /'
echo
echo "| test_progs test | result |"
echo "|---|---|"
echo "$results" | awk 'NF == 2 { print "| " $1 " | " $2 " |" }'
