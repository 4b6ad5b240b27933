#!/bin/bash
# make test: run the functional tests in a guest, and the latency tests
# (header line " * BOOT: latency") in a second guest under icount; check
# each guest and its console from the host, prove that the splat scanner
# fails a run, and end with a kselftest summary line.
#
# usage: test.sh PROFILE [TESTS]   TESTS: comma-separated names, default all
. "$(dirname "$0")/lib.sh"

profile=${1:?usage: test.sh PROFILE [TESTS]}
tests=${2:-}
OUT=$(out_dir "$profile")
tap=$OUT/test.tap
boot_rc=0

if [ -z "$tests" ]; then
	tests=$(cd "$RTBPF_ROOT/tests" && ls *.c | grep -v '\.bpf\.c$' | sed 's/\.c$//' | tr '\n' ,)
fi
functional= latency=
for t in ${tests//,/ }; do
	[ -f "$RTBPF_ROOT/tests/$t.c" ] || die "no such test '$t' (tests/$t.c)"
	if grep -q '^ \* BOOT: latency$' "$RTBPF_ROOT/tests/$t.c"; then
		latency+=$t,
	else
		functional+=$t,
	fi
done

# Tests of what the series adds fail on the stock RT tree, and say so in
# their header: " * XFAIL on stock PREEMPT_RT: why".  There, such a failure
# is reported "ok ... # XFAIL", a pass is a failure (the test cannot tell
# the trees apart), and console splats inside the test are its own.
xfail=$OUT/xfail.txt
: >"$xfail"
if [ "$(variant)" = stock ] && grep -q '^CONFIG_PREEMPT_RT=y' "$(build_dir "$profile")/.config"; then
	for c in "$RTBPF_ROOT"/tests/*.c; do
		sed -n "s/^ \* XFAIL on stock PREEMPT_RT: /$(basename "$c" .c) /p" "$c"
	done >"$xfail"
fi

# The whole run's TAP, numbered across the boots and the host's checks.
n=0
result() {	# result OK NAME [REASON]
	n=$((n + 1))
	if [ "$1" = 1 ]; then
		echo "ok $n $2" | tee -a "$tap"
	else
		echo "not ok $n $2${3:+ # $3}" | tee -a "$tap"
	fi
}

# run_boot NAME MODE LIST SUFFIX: one guest running the tests in LIST.
# The guest's own checks and the host's get SUFFIX, so that two boots'
# lines stay apart.
run_boot() {
	local name=$1 mode=$2 list=$3 sfx=$4 g=$OUT/$1.tap rc verdict splats run
	set +e
	"$RTBPF_ROOT/scripts/boot.sh" "$profile" "$mode" "$name" \
		rtbpf.mode=test "rtbpf.tests=${list%,}" |
		tr -d '\r' | grep -v '^TAP version' |
		awk -v base=$n '/^(not )?ok [0-9]+ / { c++; sub(/ok [0-9]+ /, "ok " base + c " ") }
				{ print; fflush() }' |
		sed -E "s/^((not )?ok [0-9]+ )(guest_splat_scan|kernel_not_tainted)/\1\3$sfx/" |
		tee "$g"
	rc=${PIPESTATUS[0]}
	set -e
	run=$OUT/runs/$name
	verdict=$(cat "$run/guest-exit" 2>/dev/null || echo none)
	splats=$run/splats.txt
	if [ -s "$xfail" ]; then
		awk 'NR == FNR { why[$1] = substr($0, length($1) + 2); next }
		     /^(not )?ok [0-9]+ / {
			t = ($1 == "ok") ? $3 : $4
			if (t in why && $0 !~ /# SKIP/) {
				k = ($1 == "ok") ? 2 : 3
				if ($1 == "ok")
					$0 = "not ok " $k " " t " # XPASS: passed on the stock tree, expected: " why[t]
				else
					$0 = "ok " $k " " t " # XFAIL " why[t]
			}
		     }
		     { print }' "$xfail" "$g" >"$g.x"
		mv "$g.x" "$g"
		# The console without the lines logged while an XFAIL test ran.
		awk 'NR == FNR { x[$1] = 1; next }
		     /rtbpf: test [^ ]+ begin/ { t = $0; sub(/.*rtbpf: test /, "", t); sub(/ begin.*/, "", t); if (t in x) skip = 1 }
		     !skip { print }
		     /rtbpf: test [^ ]+ end/ { skip = 0 }' "$xfail" "$run/console.log" |
			sh "$RTBPF_ROOT/guest/scan-splats.sh" "$RTBPF_ROOT/splat/deny.txt" \
				"$RTBPF_ROOT/splat/allow.txt" >"$run/splats-outside-xfail.txt" || true
		splats=$run/splats-outside-xfail.txt
		# A splat inside an XFAIL test sets the W taint (512).  With the
		# console clean outside those tests, W is theirs too; any other
		# taint bit still fails.
		if [ ! -s "$splats" ]; then
			sed -i -E "s/^not ok ([0-9]+) kernel_not_tainted$sfx # tainted=512\$/ok \\1 kernel_not_tainted$sfx # XFAIL W taint from the splats of XFAIL tests/" "$g"
		fi
		# The guest fails its run for the XFAIL tests; the TAP lines judge.
		case $verdict in hung|none) ;; *) rc=0 ;; esac
	fi
	cat "$g" >>"$tap"
	n=$((n + $(grep -cE '^(not )?ok [0-9]+ ' "$g" || true)))
	[ "$rc" -eq 0 ] || boot_rc=$rc

	local ok=1
	case $verdict in hung|none) ok=0 ;; esac
	result $ok "guest_finished$sfx" "guest exit: $verdict"
	ok=1
	[ ! -s "$splats" ] || ok=0
	result $ok "console_splat_scan$sfx" "$(head -n1 "$splats" 2>/dev/null)"
}

echo "TAP version 13" | tee "$tap"
[ -z "$functional" ] || run_boot tests functional "$functional" ""
[ -z "$latency" ] || run_boot tests-latency latency "$latency" _latency

# The scanners must catch a real splat: a WARNING from lkdtm fails the run,
# both in the guest and on the host.
# Runs with the full suite; with TESTS=..., only if SCANNER_CHECK=1.
scanner=${SCANNER_CHECK:-1}
[ -z "${2:-}" ] || scanner=${SCANNER_CHECK:-0}
if [ "$scanner" = 1 ]; then
	set +e
	"$RTBPF_ROOT/scripts/boot.sh" "$profile" functional scanner-check \
		rtbpf.mode=test rtbpf.tests=rt_kernel rtbpf.trigger=warn \
		>"$OUT/scanner-check.tap" 2>"$OUT/scanner-check.err"
	src=$?
	set -e
	sc=$OUT/runs/scanner-check
	ok=1
	[ $src -ne 0 ] || ok=0
	grep -q 'WARNING: .*lkdtm' "$sc/splats.txt" 2>/dev/null || ok=0
	grep -q '^not ok .* guest_splat_scan' "$OUT/scanner-check.tap" || ok=0
	grep -q '^not ok .* kernel_not_tainted' "$OUT/scanner-check.tap" || ok=0
	grep -q '^ok .* rt_kernel' "$OUT/scanner-check.tap" || ok=0
	result $ok splat_scanner_catches_warning "boot rc $src; see $sc"
fi

echo "1..$n" | tee -a "$tap"
pass=$(grep -cE '^ok ' "$tap" || true)
skip=$(grep -cE '^ok .*# SKIP' "$tap" || true)
xf=$(grep -cE '^ok .*# XFAIL' "$tap" || true)
pass=$((pass - skip - xf))
fail=$(grep -cE '^not ok ' "$tap" || true)
summary="$pass passed, $fail failed"
[ "$skip" -eq 0 ] || summary="$summary, $skip skipped"
[ "$xf" -eq 0 ] || summary="$summary, $xf expected failures (stock tree)"
echo "$summary"
echo "# $summary" >>"$tap"
[ "$fail" -eq 0 ] && [ "$boot_rc" -eq 0 ]
