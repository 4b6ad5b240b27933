// SPDX-License-Identifier: GPL-2.0
/*
 * Long loops in programs that cannot be preempted: a kprobe with
 * bpf_loop(), a kprobe with an open-coded bpf_for() loop, a kprobe with a
 * may_goto loop, a cpu-clock perf_event program with bpf_loop(), an fentry
 * program on a function that runs under the runqueue lock, and a raw_tp
 * program that loops between bpf_preempt_disable() and bpf_preempt_enable().
 * A raw_tp program with the same bpf_loop() and no such section is
 * preemptible on patched RT and must never be cut.
 *
 * Every program records how many iterations its last runs did, so user
 * space can count the runs that ended early.
 */
#include "kfuncs.bpf.h"
#include <bpf/bpf_tracing.h>
#include "atomic_budget.h"

#define NR_GETPGID	121

int target_tgid;
__u32 loops;
__u32 perf_loops;

struct loop_stats kp_loop, kp_iter, kp_goto, perf, rawtp, fentry, section;

/*
 * True until the may_goto in it runs out: the verifier gives the loop
 * BPF_MAX_LOOPS turns, and the RT budget may end it sooner.
 */
#define may_goto_left() ({					\
	__label__ stop, go_on;					\
	bool left = true;					\
	asm volatile goto("may_goto %l[stop]" :::: stop);	\
	goto go_on;						\
stop:								\
	left = false;						\
go_on:								\
	left;							\
})

static int step(__u32 i, void *ctx)
{
	return 0;
}

static __always_inline void account(struct loop_stats *s, __u64 iters, __u32 want,
				    __u64 t0)
{
	__u64 d = bpf_ktime_get_ns() - t0;

	if (d > s->max_ns)
		s->max_ns = d;
	if (iters < want)
		s->short_runs++;
	if (!s->runs || iters < s->min_iters)
		s->min_iters = iters;
	s->runs++;
}

static __always_inline bool is_target(void)
{
	return (bpf_get_current_pid_tgid() >> 32) == target_tgid;
}

SEC("?kprobe/__x64_sys_getpgid")
int loop_kprobe(struct pt_regs *ctx)
{
	__u64 t0;
	long n;

	if (!is_target())
		return 0;
	t0 = bpf_ktime_get_ns();
	n = bpf_loop(loops, step, NULL, 0);
	account(&kp_loop, n < 0 ? 0 : n, loops, t0);
	return 0;
}

SEC("?kprobe/__x64_sys_getpgid")
int iter_kprobe(struct pt_regs *ctx)
{
	__u64 t0, n = 0;
	int i;

	if (!is_target())
		return 0;
	t0 = bpf_ktime_get_ns();
	bpf_for(i, 0, loops)
		n++;
	account(&kp_iter, n, loops, t0);
	return 0;
}

SEC("?kprobe/__x64_sys_getpgid")
int goto_kprobe(struct pt_regs *ctx)
{
	__u64 t0, n = 0;

	if (!is_target())
		return 0;
	t0 = bpf_ktime_get_ns();
	while (may_goto_left() && n < loops)
		n++;
	account(&kp_goto, n, loops, t0);
	return 0;
}

SEC("?perf_event")
int loop_perf(struct bpf_perf_event_data *ctx)
{
	__u64 t0 = bpf_ktime_get_ns();
	long n;

	n = bpf_loop(perf_loops, step, NULL, 0);
	account(&perf, n < 0 ? 0 : n, perf_loops, t0);
	return 0;
}

SEC("?raw_tp/sys_enter")
int loop_raw_tp(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 t0;
	long n;

	if (ctx->args[1] != NR_GETPGID || !is_target())
		return 0;
	t0 = bpf_ktime_get_ns();
	n = bpf_loop(loops, step, NULL, 0);
	account(&rawtp, n < 0 ? 0 : n, loops, t0);
	return 0;
}

/* sched_yield() calls it with the runqueue lock held and interrupts off */
SEC("?fentry/yield_task_fair")
int BPF_PROG(loop_fentry, struct rq *rq)
{
	__u64 t0;
	long n;

	if (!is_target())
		return 0;
	t0 = bpf_ktime_get_ns();
	n = bpf_loop(loops, step, NULL, 0);
	account(&fentry, n < 0 ? 0 : n, loops, t0);
	return 0;
}

SEC("?raw_tp/sys_enter")
int section_raw_tp(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 t0;
	long n;

	if (ctx->args[1] != NR_GETPGID || !is_target())
		return 0;
	t0 = bpf_ktime_get_ns();
	bpf_preempt_disable();
	n = bpf_loop(loops, step, NULL, 0);
	bpf_preempt_enable();
	account(&section, n < 0 ? 0 : n, loops, t0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
