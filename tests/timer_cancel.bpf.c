// SPDX-License-Identifier: GPL-2.0
/*
 * A timer whose callback runs for a long time, and two ways to cancel it
 * while it runs: from a program that cannot sleep (inside
 * bpf_preempt_disable()) and from one that can.
 */
#include "kfuncs.bpf.h"

#define SPIN_LOOPS	(8 * 1024 * 1024)

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
int cb_done;		/* callbacks that have finished */
long arm_ret;
long cancel_ret;
int done_at_cancel;	/* cb_done when bpf_timer_cancel() returned */

static long spin(__u64 i, void *ctx)
{
	return 0;
}

static int slow_cb(void *map, int *key, struct elem *e)
{
	in_cb = 1;
	bpf_loop(SPIN_LOOPS, spin, NULL, 0);
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
	err = bpf_timer_init(&e->t, &slow, CLOCK_MONOTONIC);
	if (err && err != -EBUSY) {
		arm_ret = err;
		return 0;
	}
	arm_ret = bpf_timer_set_callback(&e->t, slow_cb) ?:
		  bpf_timer_start(&e->t, 1000, BPF_F_TIMER_CPU_PIN);
	return 0;
}

SEC("syscall")
int cancel_atomic(void *ctx)
{
	struct elem *e = timer();

	if (!e)
		return 0;
	bpf_preempt_disable();
	cancel_ret = bpf_timer_cancel(&e->t);
	done_at_cancel = cb_done;
	bpf_preempt_enable();
	return 0;
}

SEC("syscall")
int cancel_sleepable_ctx(void *ctx)
{
	struct elem *e = timer();

	if (!e)
		return 0;
	cancel_ret = bpf_timer_cancel(&e->t);
	done_at_cancel = cb_done;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
