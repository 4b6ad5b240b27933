// SPDX-License-Identifier: GPL-2.0
/*
 * A timer whose callback runs for a long time, and two ways to cancel it
 * while it runs: from a program that cannot sleep (inside
 * bpf_preempt_disable()) and from one that can.
 */
#include "kfuncs.bpf.h"

/*
 * Late enough for the arming task to be back in user space: on RT the
 * callback runs in a SCHED_FIFO softirq thread that would otherwise keep
 * that task off its CPU until the callback ends.
 */
#define ARM_DELAY_NS	(50ULL * 1000 * 1000)

/* The callback spins until user space releases it, or for at most this. */
#define SPIN_MAX_NS	(3ULL * 1000 * 1000 * 1000)

struct elem {
	struct bpf_timer t;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct elem);
} slow SEC(".maps");

int in_cb;		/* the callback has started */
int release;		/* user space lets the callback finish */
int cb_done;		/* callbacks that have finished */
long arm_ret;
long cancel_ret;
int done_at_cancel;	/* cb_done when bpf_timer_cancel() returned */
__u64 cb_ns;		/* how long the last callback ran */
/* Diagnostics: where and when the callback ran, and when cancel was called. */
int cb_cpu;
__u64 cb_start, cb_end, cancel_start, cancel_end;

static long spin(__u64 i, __u64 *start)
{
	return release || bpf_ktime_get_ns() - *start > SPIN_MAX_NS;
}

static int slow_cb(void *map, int *key, struct elem *e)
{
	__u64 start = bpf_ktime_get_ns();

	cb_start = start;
	cb_cpu = bpf_get_smp_processor_id();
	in_cb = 1;
	/* 8M calls of bpf_ktime_get_ns() take well over a second here. */
	bpf_loop(8 * 1024 * 1024, spin, &start, 0);
	cb_end = bpf_ktime_get_ns();
	cb_ns = cb_end - start;
	__sync_fetch_and_add(&cb_done, 1);
	return 0;
}

static struct elem *timer(void)
{
	int k = 0;

	return bpf_map_lookup_elem(&slow, &k);
}

/* Run on the CPU the callback should run on: the timer is pinned there. */
SEC("syscall")
int arm(void *ctx)
{
	struct elem *e = timer();
	int err;

	if (!e)
		return 0;
	in_cb = 0;
	release = 0;
	err = bpf_timer_init(&e->t, &slow, CLOCK_MONOTONIC);
	if (err && err != -EBUSY) {
		arm_ret = err;
		return 0;
	}
	arm_ret = bpf_timer_set_callback(&e->t, slow_cb) ?:
		  bpf_timer_start(&e->t, ARM_DELAY_NS, BPF_F_TIMER_CPU_PIN);
	return 0;
}

SEC("syscall")
int cancel_atomic(void *ctx)
{
	struct elem *e = timer();

	if (!e)
		return 0;
	cancel_start = bpf_ktime_get_ns();
	bpf_preempt_disable();
	cancel_ret = bpf_timer_cancel(&e->t);
	done_at_cancel = cb_done;
	bpf_preempt_enable();
	cancel_end = bpf_ktime_get_ns();
	return 0;
}

SEC("syscall")
int cancel_sleepable_ctx(void *ctx)
{
	struct elem *e = timer();

	if (!e)
		return 0;
	cancel_start = bpf_ktime_get_ns();
	cancel_ret = bpf_timer_cancel(&e->t);
	done_at_cancel = cb_done;
	cancel_end = bpf_ktime_get_ns();
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
