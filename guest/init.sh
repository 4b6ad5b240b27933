#!/bin/sh
# Guest side of the bench, run by the initramfs /init from the 9p payload.
# Kernel command line:
#   rtbpf.mode=test|run|bench|selftests|shell   what to do (default test)
#   rtbpf.tests=a,b                   tests to run (default: all)
#   rtbpf.profile=NAME                kernel profile, for the tests
#   rtbpf.trigger=warn                provoke a WARNING after the tests
#   rtbpf.part=P rtbpf.batch=N        selftests mode: see selftests.sh
# TAP and results go to the second serial port; the exit status leaves
# through isa-debug-exit.
P=/payload
export PATH=/bin:/sbin:$P/bin
export LD_LIBRARY_PATH=$P/lib

mkdir -p /tmp /run /lib /lib64 /usr/lib /sys/fs/bpf /sys/fs/cgroup /sys/kernel/debug
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mkdir -p /dev/shm && mount -t tmpfs tmpfs /dev/shm
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t bpf bpf /sys/fs/bpf
mount -t cgroup2 cgroup2 /sys/fs/cgroup
ln -sf $P/lib /lib/x86_64-linux-gnu
ln -sf $P/lib /usr/lib/x86_64-linux-gnu
ln -sf $P/lib/ld-linux-x86-64.so.2 /lib64/ld-linux-x86-64.so.2
ip link set lo up 2>/dev/null
ulimit -l unlimited

arg() {
	for w in $(cat /proc/cmdline); do
		case "$w" in "rtbpf.$1="*) echo "${w#*=}"; return ;; esac
	done
}
MODE=$(arg mode)
export RTBPF_PROFILE=$(arg profile)
export RTBPF_OUT=$P/out
mkdir -p "$RTBPF_OUT"

# Results channel: the second serial port.
exec 3>/dev/ttyS1
res() { echo "$*" >&3; }

finish() {
	res "# guest exit $1"
	sync
	printf "\\$(printf '%03o' "$1")" | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
	poweroff -f
}

. $P/guest/lib.sh

case "${MODE:-test}" in
test)	run_tests "$(arg tests)" "$(arg trigger)"; finish $? ;;
run)	sh $P/bench/demo.sh >&3 2>&1; finish $? ;;
bench)	sh $P/bench/bench.sh >&3 2>&1; finish $? ;;
selftests)
	sh $P/guest/selftests.sh "$(arg part)" "$(arg tests)" "$(arg batch)" >&3 2>&1
	finish $? ;;
shell)	echo "rt-bpf guest shell: bpftool, cyclictest and the tests are in \$PATH ($P)."
	echo "Leave with 'exit' or Ctrl-D."
	setsid cttyhack sh -l
	finish 0 ;;
*)	res "not ok 1 unknown rtbpf.mode=$MODE"; finish 2 ;;
esac
