// SPDX-License-Identifier: GPL-2.0
/*
 * One bpf_timer per program context.  User space posts a request for one
 * context in req[], triggers that context, and the program there serves
 * it: arm the timer to fire at once, arm it far in the future, or cancel
 * it.  The callback counts what fired, per timer.
 */
#include "kfuncs.bpf.h"
#include <bpf/bpf_tracing.h>
#include "timer_contexts.h"

struct elem {
	struct bpf_timer t;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, NR_CTX);
	__type(key, int);
	__type(value, struct elem);
} timers SEC(".maps");

int target_tgid;
int req[NR_CTX];
int served[NR_CTX];
long ret[NR_CTX];
int fired[NR_CTX];

static __always_inline int arm(int k, __u64 nsecs);

static int timer_cb(void *map, int *key, struct elem *e)
{
	int k = *key;

	if (k < 0 || k >= NR_CTX)
		return 0;
	__sync_fetch_and_add(&fired[k], 1);
	/* The chained context: a timer armed from a timer callback. */
	if (k == CTX_SYSCALL &&
	    __sync_bool_compare_and_swap(&req[CTX_CALLBACK], REQ_FIRE, 0)) {
		ret[CTX_CALLBACK] = arm(CTX_CALLBACK, 1000);
		__sync_fetch_and_add(&served[CTX_CALLBACK], 1);
	}
	return 0;
}

static __always_inline int arm(int k, __u64 nsecs)
{
	int key = k;	/* k itself never has its address taken */
	struct elem *e = bpf_map_lookup_elem(&timers, &key);
	int err;

	if (!e)
		return -1;
	err = bpf_timer_init(&e->t, &timers, CLOCK_MONOTONIC);
	if (err && err != -EBUSY)
		return err;
	err = bpf_timer_set_callback(&e->t, timer_cb);
	if (err)
		return err;
	return bpf_timer_start(&e->t, nsecs, 0);
}

/* Inlined, so that k stays a constant that indexes the arrays. */
static __always_inline void serve(int k)
{
	int r = req[k], key = k;
	struct elem *e;

	if (!r || !__sync_bool_compare_and_swap(&req[k], r, 0))
		return;
	switch (r) {
	case REQ_FIRE:
		ret[k] = arm(k, 1000);
		break;
	case REQ_ARM_LONG:
		ret[k] = arm(k, 60ULL * 1000 * 1000 * 1000);
		break;
	case REQ_CANCEL:
		e = bpf_map_lookup_elem(&timers, &key);
		ret[k] = e ? bpf_timer_cancel(&e->t) : -1;
		break;
	}
	__sync_fetch_and_add(&served[k], 1);
}

static bool mine(void)
{
	return (bpf_get_current_pid_tgid() >> 32) == target_tgid;
}

SEC("syscall")
int on_syscall(void *ctx)
{
	serve(CTX_SYSCALL);
	return 0;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(on_tp_btf, struct pt_regs *regs, long id)
{
	if (id == TRIGGER_SYSCALL && mine())
		serve(CTX_TP_BTF);
	return 0;
}

SEC("fentry/" FENTRY_FUNC)
int BPF_PROG(on_fentry)
{
	if (mine())
		serve(CTX_FENTRY);
	return 0;
}

SEC("xdp")
int on_xdp(struct xdp_md *ctx)
{
	serve(CTX_XDP);
	return XDP_PASS;
}

SEC("tc")
int on_tc(struct __sk_buff *skb)
{
	serve(CTX_TC);
	return 0;	/* TC_ACT_OK */
}

/*
 * Tracing programs of the kprobe, tracepoint, raw_tp and perf_event types
 * may not use a map with a bpf_timer at all, on any kernel configuration:
 * the verifier says "tracing progs cannot use bpf_timer yet".  User space
 * loads each of these on its own and checks that message.
 */
SEC("?raw_tp/sys_enter")
int refused_raw_tp(void *ctx)
{
	serve(CTX_SYSCALL);
	return 0;
}

SEC("?kprobe/" FENTRY_FUNC)
int refused_kprobe(void *ctx)
{
	serve(CTX_SYSCALL);
	return 0;
}

SEC("?perf_event")
int refused_perf_event(void *ctx)
{
	serve(CTX_SYSCALL);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
