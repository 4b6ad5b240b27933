// SPDX-License-Identifier: GPL-2.0
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define NR_GETPGID	121

int target_tgid;
__u32 loops;
__u64 runs;
__u64 cookie_bad;

static int step(__u32 i, void *ctx)
{
	return 0;
}

/*
 * Long enough that the links are often destroyed while a worker is
 * preempted inside.  The cookie comes from the link: a link freed under
 * a run would show up here as a wrong cookie, if not as a crash.
 */
static __always_inline void run(void *ctx)
{
	if ((bpf_get_current_pid_tgid() >> 32) != target_tgid)
		return;
	bpf_loop(loops, step, NULL, 0);
	if (bpf_get_attach_cookie(ctx) != 0x5eed)
		__sync_fetch_and_add(&cookie_bad, 1);
	__sync_fetch_and_add(&runs, 1);
}

SEC("raw_tp/sys_enter")
int on_raw_tp(struct bpf_raw_tracepoint_args *ctx)
{
	if (ctx->args[1] == NR_GETPGID)
		run(ctx);
	return 0;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(on_tp_btf, struct pt_regs *regs, long id)
{
	if (id == NR_GETPGID)
		run(ctx);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
