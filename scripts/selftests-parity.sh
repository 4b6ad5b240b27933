#!/bin/bash
# The parity target: test_progs tests that pass on the non-RT kernel but
# fail or skip on the RT one, from two selftests summaries (the markdown
# that selftests-summary.sh writes).
#
# usage: selftests-parity.sh RT.md NONRT.md   prints markdown
set -euo pipefail
rt=${1:?usage: selftests-parity.sh RT.md NONRT.md}
nonrt=${2:?usage: selftests-parity.sh RT.md NONRT.md}
for f in "$rt" "$nonrt"; do
	[ -s "$f" ] || { echo "selftests-parity: no summary $f" >&2; exit 1; }
done

# rows FILE: "test result" for every row of the per-test table.
rows() { sed -n -E 's/^\| ([A-Za-z0-9_]+) \| ([A-Z]+) \|$/\1 \2/p' "$1" | sort; }
# "test RT-result non-RT-result" for the tests in both runs.
both=$(join <(rows "$rt") <(rows "$nonrt"))

echo "# RT parity target: passes on non-RT, not on RT"
echo
echo "From \`$(basename "$rt")\` (RT) and \`$(basename "$nonrt")\` (non-RT)."
echo
echo "| test | RT | non-RT |"
echo "|---|---|---|"
echo "$both" |
	awk '$3 == "OK" && $2 != "OK" { print "| " $1 " | " $2 " | " $3 " |"; n++ }
	     END { if (!n) print "| (none) | | |" }'
echo
echo "The other way round, passes on RT only:"
echo
echo "$both" |
	awk '$2 == "OK" && $3 != "OK" { printf "%s`%s` (non-RT %s)", n++ ? ", " : "", $1, $3 }
	     END { print n ? "." : "none." }'
echo
echo "Suites and splats:"
echo
echo "| | RT | non-RT |"
echo "|---|---|---|"
# suite NAME FILE: the suite's row of the summary, its non-empty cells
# joined by " / ".
suite() {
	sed -n -E "s/^\| $1 \| (.*) \|\$/\1/p" "$2" |
		awk -F'|' '{ s = ""
			for (i = 1; i <= NF; i++) {
				gsub(/^ +| +$/, "", $i)
				if ($i != "") s = s (s == "" ? "" : " / ") $i
			}
			print s }'
}
for s in test_progs test_verifier test_maps; do
	echo "| $s | $(suite "$s" "$rt") | $(suite "$s" "$nonrt") |"
done
splat_lines() { sed -n -E 's/^Kernel splat lines in the run: ([0-9]+).*/\1/p' "$1"; }
echo "| kernel splat lines | $(splat_lines "$rt") | $(splat_lines "$nonrt") |"
echo
echo "test_progs counts are passed / failed / skipped / no result; test_verifier"
echo "passed / failed / skipped."
echo
echo "Both fail or skip (not an RT gap):"
echo
echo "$both" |
	awk '$3 != "OK" && $2 != "OK" { printf "%s`%s` (RT %s, non-RT %s)", n++ ? ", " : "", $1, $2, $3 }
	     END { print n ? "." : "none." }'
only_rt=$(join -v1 <(rows "$rt") <(rows "$nonrt") | awk '{ print $1 }' | xargs)
only_nonrt=$(join -v2 <(rows "$rt") <(rows "$nonrt") | awk '{ print $1 }' | xargs)
[ -z "$only_rt$only_nonrt" ] ||
	printf '\nIn one run only: RT %s; non-RT %s.\n' "${only_rt:-none}" "${only_nonrt:-none}"
