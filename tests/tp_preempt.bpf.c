// SPDX-License-Identifier: GPL-2.0
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define NR_GETPGID	121
#define MAX_CPUS	64

int target_tgid;
__u32 loops;

__u64 runs;		/* complete runs */
__u64 overlaps;		/* runs that began while another was inside, same CPU */
__u64 cpu_moved;	/* runs that ended on another CPU than they began */
__u64 slot_moved;	/* runs whose per-CPU slot changed under them */
int running[MAX_CPUS];

struct slot {
	__u64 runs;
	__u32 cpu;	/* CPU + 1 of the last run that wrote here */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct slot);
} pcpu SEC(".maps");

static int step(__u32 i, void *ctx)
{
	return 0;
}

/*
 * One run: long enough (bpf_loop) that a SCHED_FIFO thread of the same
 * process, woken by its timer, lands inside it.  If the program can be
 * preempted, that thread's own run begins while this one is still inside
 * on the same CPU: an overlap.  Both must run, on a CPU that stays put.
 */
static __always_inline void run(void)
{
	struct slot *s, *s2;
	__u32 zero = 0, cpu;

	if ((bpf_get_current_pid_tgid() >> 32) != target_tgid)
		return;
	cpu = bpf_get_smp_processor_id();
	if (cpu >= MAX_CPUS)
		return;
	if (__sync_fetch_and_add(&running[cpu], 1) > 0)
		__sync_fetch_and_add(&overlaps, 1);
	s = bpf_map_lookup_elem(&pcpu, &zero);
	if (s) {
		__sync_fetch_and_add(&s->runs, 1);
		s->cpu = cpu + 1;
	}
	bpf_loop(loops, step, NULL, 0);
	if (bpf_get_smp_processor_id() != cpu)
		__sync_fetch_and_add(&cpu_moved, 1);
	s2 = bpf_map_lookup_elem(&pcpu, &zero);
	if (s2 != s)
		__sync_fetch_and_add(&slot_moved, 1);
	__sync_fetch_and_sub(&running[cpu], 1);
	__sync_fetch_and_add(&runs, 1);
}

SEC("raw_tp/sys_enter")
int on_raw_tp(struct bpf_raw_tracepoint_args *ctx)
{
	if (ctx->args[1] == NR_GETPGID)
		run();
	return 0;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(on_tp_btf, struct pt_regs *regs, long id)
{
	if (id == NR_GETPGID)
		run();
	return 0;
}

SEC("fentry/__x64_sys_getpgid")
int BPF_PROG(on_fentry, struct pt_regs *regs)
{
	run();
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
