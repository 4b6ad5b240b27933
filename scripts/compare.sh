#!/bin/bash
# Put the last `make test` runs of the stock and the patched tree side by
# side: one row per test, with the first failed assertion (and a verifier
# refusal, if there was one) for each test that did not pass.
#
# usage: compare.sh PROFILE        writes results/tests-PROFILE.md
. "$(dirname "$0")/lib.sh"

profile=${1:?usage: compare.sh PROFILE}
check_profile "$profile"
stock=$(SERIES=none out_dir "$profile")/test.tap
patched=$(SERIES= out_dir "$profile")/test.tap
for f in "$stock" "$patched"; do
	[ -s "$f" ] || die "no test run recorded in $f; run 'make test${f/*stock*/ SERIES=none}' first"
done
# Serial consoles may leave CRs in the TAP; compare the text only.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tr -d '\r' <"$stock" >"$tmp/stock.tap"
tr -d '\r' <"$patched" >"$tmp/patched.tap"
stock=$tmp/stock.tap patched=$tmp/patched.tap
dest=$RTBPF_ROOT/results/tests-$profile.md

# cell TAP TEST: what happened to TEST in the run TAP.
cell() {
	awk -v t="$2" '
		function out(s) { gsub(/\|/, "\\|", s); print s; done = 1; exit }
		/^# FAIL / && !fail { fail = substr($0, 3) }
		/^# .*(PREEMPT_RT|cannot be used|cannot use)/ && !/kernel #[0-9]/ && !why { why = substr($0, 3) }
		/^# splat: / && !splat { splat = substr($0, 11) }
		/^(not )?ok [0-9]+ / {
			name = $0
			sub(/^(not )?ok [0-9]+ /, "", name)
			res = name
			sub(/ #.*/, "", name)
			if (name == t) {
				if (res ~ /# XPASS/)
					out("ok (but marked XFAIL)")
				if ($1 == "ok" && res !~ /# XFAIL/)
					out(res ~ /# SKIP/ ? "SKIP" : "ok")
				s = "**FAIL**"
				x = res
				if (sub(/.*# XFAIL /, "", x) && !fail && !splat && !why)
					why = x
				if (splat) s = s " splat: `" splat "`"
				else if (fail) s = s " `" fail "`"
				if (why) s = s " (`" why "`)"
				out(s)
			}
			fail = why = splat = ""
		}
		END { if (!done) print "not run" }' "$1"
}

summary() { sed -nE 's/^# ([0-9]+ passed, .*)/\1/p' "$1" | tail -n1; }

tests=$(sed -nE 's/^(not )?ok [0-9]+ ([^ #]+).*/\2/p' "$stock" "$patched" | awk '!seen[$0]++')
{
	echo "# make test, stock and patched: profile $profile"
	echo
	echo "Kernels: stock \`$(sed -n 's/^# kernel: //p' "$stock" | head -n1)\`,"
	echo "patched \`$(sed -n 's/^# kernel: //p' "$patched" | head -n1)\`."
	echo "Series: $(grep -vc '^#' "$RTBPF_ROOT/patches/series") patches."
	echo "Written by \`scripts/compare.sh $profile\` from the two runs' TAP files."
	echo
	echo "| test | stock | patched |"
	echo "|---|---|---|"
	for t in $tests; do
		echo "| $t | $(cell "$stock" "$t") | $(cell "$patched" "$t") |"
	done
	echo
	echo "Stock: $(summary "$stock"). Patched: $(summary "$patched")."
} >"$dest"
log "wrote $dest"
