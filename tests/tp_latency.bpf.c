// SPDX-License-Identifier: GPL-2.0
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "tp_latency.h"

#define NR_GETPGID	121

int target_tgid;
__u32 loops;

/*
 * Per program: a preemptible run of one phase may still finish after the
 * next phase has begun, and must not count there.
 */
__u64 runs[NR_PROGS];
__u64 max_run_ns[NR_PROGS];

static int step(__u32 i, void *ctx)
{
	return 0;
}

/* Every getpgid() of the load process spins through bpf_loop(). */
static __always_inline void spin(int prog)
{
	__u64 t0, d;

	if ((bpf_get_current_pid_tgid() >> 32) != target_tgid)
		return;
	t0 = bpf_ktime_get_ns();
	bpf_loop(loops, step, NULL, 0);
	d = bpf_ktime_get_ns() - t0;
	if (d > max_run_ns[prog])
		max_run_ns[prog] = d;
	__sync_fetch_and_add(&runs[prog], 1);
}

SEC("raw_tp/sys_enter")
int spin_raw_tp(struct bpf_raw_tracepoint_args *ctx)
{
	if (ctx->args[1] == NR_GETPGID)
		spin(RAW_TP);
	return 0;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(spin_tp_btf, struct pt_regs *regs, long id)
{
	if (id == NR_GETPGID)
		spin(TP_BTF);
	return 0;
}

struct sys_enter_args {
	__u64 common;
	long id;
	unsigned long args[6];
};

SEC("tp/raw_syscalls/sys_enter")
int spin_tp(struct sys_enter_args *ctx)
{
	if (ctx->id == NR_GETPGID)
		spin(TP);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
