#!/bin/bash
# make matrix: the RT-safety matrix (tests/rt_matrix) with every cell
# shown, across as many boots as it takes.  Lockdep reports only the first
# problem of a boot, and on the stock tree some cells kill the kernel.  So
# the guest stops after a cell that splats (rtbpf.matrix_isolate=1), and
# the next boot starts after the last cell the guest announced on its
# console
# (rtbpf.matrix_after=MAP/CTX); a cell that killed the kernel is a FAIL
# with the first splat of that boot.
#
# Writes OUT/matrix.md: the table, and every cell that is not OK with its
# reason.  Exits 1 if a cell failed.
#
# usage: matrix.sh PROFILE
. "$(dirname "$0")/lib.sh"

profile=${1:?usage: matrix.sh PROFILE}
OUT=$(out_dir "$profile")
MAX_BOOTS=${MAX_BOOTS:-40}
cells=$OUT/matrix-cells.txt
md=$OUT/matrix.md
: >"$cells"

after= boot=0
while :; do
	boot=$((boot + 1))
	[ "$boot" -le "$MAX_BOOTS" ] ||
		die "matrix: not done after $MAX_BOOTS boots (MAX_BOOTS); cells so far in $cells"
	name=matrix-$boot
	tap=$OUT/$name.tap
	log "matrix: boot $boot${after:+, starting after $after}"
	set +e
	"$RTBPF_ROOT/scripts/boot.sh" "$profile" functional "$name" \
		rtbpf.mode=test rtbpf.tests=rt_matrix rtbpf.matrix_isolate=1 \
		${after:+rtbpf.matrix_after=$after} | tr -d '\r' >"$tap"
	set -e
	run=$OUT/runs/$name
	# The guest prints "# cell MAP/CTX: VERDICT reason" after each cell.
	sed -n 's/^# cell \([^ ]*\): /\1 /p' "$tap" | tee -a "$cells" |
		awk '{ printf "    %-32s %s\n", $1, $2 }' >&2
	last=$(tr -d '\r' <"$run/console.log" |
		sed -n 's/.*rt_matrix: console: cell \([^ ]*\)$/\1/p' | tail -n1)
	[ -n "$last" ] || die "matrix: boot $boot ran no cell; see $run"
	if ! grep -q "^$last " "$cells"; then
		why=$(head -n1 "$run/splats.txt" 2>/dev/null || true)
		echo "$last FAIL the kernel died in this cell: ${why:-nothing on the console}" |
			tee -a "$cells" >&2
	fi
	# A boot that ran nothing new would be booted again forever.
	[ "$last" != "$after" ] || die "matrix: boot $boot made no progress after $after; see $run"
	# The guest printed its table and did not stop early: all cells ran.
	if grep -q '^# matrix: | map |' "$tap" && ! grep -q '^# matrix: stopped after' "$tap"; then
		break
	fi
	after=$last
done

awk -v boots="$boot" -v variant="$(variant)" -v profile="$profile" '
{
	split($1, mc, "/"); m = mc[1]; c = mc[2]
	if (!(m in mi)) { mi[m] = ++nm; mn[nm] = m }
	if (!(c in ci)) { ci[c] = ++nc; cn[nc] = c }
	v[m, c] = $2; n[$2]++
	why = $0; sub(/^[^ ]+ [^ ]+ ?/, "", why); w[m, c] = why
}
END {
	printf "# RT-safety matrix: %s profile, %s tree, %d boot(s)\n\n", profile, variant, boots
	for (k in n) s = s sprintf("%s%d %s", s ? ", " : "", n[k], k)
	printf "%s.\n\n| map |", s
	for (j = 1; j <= nc; j++) printf " %s |", cn[j]
	printf "\n|---|"
	for (j = 1; j <= nc; j++) printf "---|"
	printf "\n"
	for (i = 1; i <= nm; i++) {
		printf "| %s |", mn[i]
		for (j = 1; j <= nc; j++) printf " %s |", ((mn[i], cn[j]) in v) ? v[mn[i], cn[j]] : "-"
		printf "\n"
	}
	printf "\n## Cells that are not OK\n\n"
	for (i = 1; i <= nm; i++)
		for (j = 1; j <= nc; j++)
			if (((mn[i], cn[j]) in v) && v[mn[i], cn[j]] != "OK")
				printf "- %s/%s: %s %s\n", mn[i], cn[j], v[mn[i], cn[j]], w[mn[i], cn[j]]
}' "$cells" >"$md"
sed -n '3,/^$/p;/^| /p' "$md"
log "matrix: $md"
! grep -q '^[^ ]* FAIL ' "$cells"
