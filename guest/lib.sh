# Guest-side test runner; sourced by init.sh (busybox sh).
# Prints kselftest TAP on fd 3.  Each test binary exits 0 (pass), 4 (skip)
# or anything else (fail); its output becomes TAP comments.  Kernel log
# lines that appear while a test runs are scanned for splats and charged
# to that test.

scan() {
	sh $P/guest/scan-splats.sh $P/splat/deny.txt $P/splat/allow.txt
}

# run_tests LIST TRIGGER: LIST is comma separated, empty for all.
run_tests() {
	local list=$1 trigger=$2 n=0 pass=0 fail=0 skip=0 t rc
	[ -n "$list" ] || list=$(ls $P/tests | sort | tr '\n' ,)
	res "TAP version 13"
	res "# kernel: $(uname -r) $(uname -v)"
	dmesg -c >/tmp/boot.dmesg
	for t in $(echo "$list" | tr , ' '); do
		n=$((n + 1))
		if [ ! -x "$P/tests/$t" ]; then
			res "not ok $n $t # no such test"
			fail=$((fail + 1))
			continue
		fi
		cd /tmp
		# Markers in the kernel log, so that the host can tell which
		# test a console line belongs to.
		echo "rtbpf: test $t begin" >/dev/kmsg
		timeout 900 "$P/tests/$t" >/tmp/out 2>&1
		rc=$?
		echo "rtbpf: test $t end" >/dev/kmsg
		sed 's/^/# /' /tmp/out >&3
		if dmesg -c | scan >/tmp/splat; then :; else
			sed 's/^/# splat: /' /tmp/splat >&3
			rc=99
		fi
		case $rc in
		0)	res "ok $n $t"; pass=$((pass + 1)) ;;
		4)	res "ok $n $t # SKIP $(tail -n1 /tmp/out)"; skip=$((skip + 1)) ;;
		99)	res "not ok $n $t # kernel splat"; fail=$((fail + 1)) ;;
		143)	res "not ok $n $t # timed out"; fail=$((fail + 1)) ;;
		*)	res "not ok $n $t # exit $rc"; fail=$((fail + 1)) ;;
		esac
	done

	if [ "$trigger" = warn ]; then
		# Test-only: a real WARNING from lkdtm, to prove the scanners catch it.
		echo WARNING >/sys/kernel/debug/provoke-crash/DIRECT
	fi

	# Whatever the kernel logged since boot, including during boot itself.
	n=$((n + 1))
	if { cat /tmp/boot.dmesg; dmesg -c; } | scan >/tmp/splat; then
		res "ok $n guest_splat_scan"; pass=$((pass + 1))
	else
		sed 's/^/# splat: /' /tmp/splat >&3
		res "not ok $n guest_splat_scan"; fail=$((fail + 1))
	fi
	n=$((n + 1))
	local taint
	# Bit 12 (O, 4096) only says an out-of-tree module was loaded: the
	# tree's own bpf_testmod.ko, which the selftests need.  Any other
	# taint fails the run.
	taint=$(( $(cat /proc/sys/kernel/tainted) & ~4096 ))
	if [ "$taint" = 0 ]; then
		res "ok $n kernel_not_tainted"; pass=$((pass + 1))
	else
		res "not ok $n kernel_not_tainted # tainted=$taint"; fail=$((fail + 1))
	fi
	res "# guest: $pass passed, $fail failed, $skip skipped"
	[ "$fail" -eq 0 ]
}
