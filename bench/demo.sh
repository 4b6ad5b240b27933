#!/bin/sh
# Guest side of 'make run': probe the three 2019 problems on the running
# kernel.  Prints key=value lines; the cyclictest histograms go to $RTBPF_OUT.
#
# Boot it under icount (-smp 1), so that the latencies are deterministic.
B=/payload/bin/bench
LOOPS=${DEMO_LOOPS:-2000000}
CT_LOOPS=${DEMO_CT_LOOPS:-2000}

echo "kernel=$(uname -r) $(uname -v)"
echo "realtime=$(cat /sys/kernel/realtime 2>/dev/null || echo 0)"

# Problem 2 (allocation in atomic context) is why stock RT refuses bpf_timer.
$B/timer_probe

# cyclictest NAME: one SCHED_FIFO 95 thread on CPU 0, 1 ms period.
cyclictest_max() {
	cyclictest -m -q -p95 -t1 -a0 -i1000 -l "$CT_LOOPS" -h 100000 \
		--histfile="$RTBPF_OUT/hist-$1.txt" >"$RTBPF_OUT/cyclictest-$1.txt" 2>&1
	sed -n 's/^# Max Latencies: *0*\([0-9][0-9]*\).*/\1/p' "$RTBPF_OUT/hist-$1.txt"
}

# Problem 3 (up_read_non_owner()) is why stock RT gives up on the mmap
# lock with interrupts off: build-ID stacks and bpf_find_vma() from a
# perf event.
$B/buildid_probe

# Problem 1: a raw_tp program with a long bpf_loop, on the same CPU.
echo "latency_idle_us=$(cyclictest_max idle)"
# The load runs from before cyclictest starts until after it ends.
flag=/tmp/loop_load.stop
rm -f $flag $flag.ready
$B/loop_load "$LOOPS" $flag >"$RTBPF_OUT/loop_load.txt" 2>&1 &
while [ ! -e $flag.ready ] && kill -0 $! 2>/dev/null; do sleep 0.1; done
echo "latency_bpf_us=$(cyclictest_max bpf)"
touch $flag
wait
echo "bpf_loop_iterations=$LOOPS"
sed 's/^/loop_/' "$RTBPF_OUT/loop_load.txt"
