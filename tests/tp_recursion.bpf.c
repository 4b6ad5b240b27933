// SPDX-License-Identifier: GPL-2.0
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define NR_GETPGID	121

int target_tgid;
__u64 triggers;
__u64 runs;

/* Each getpgid() of this process prints once ... */
SEC("raw_tp/sys_enter")
int trigger(struct bpf_raw_tracepoint_args *ctx)
{
	if ((bpf_get_current_pid_tgid() >> 32) != target_tgid ||
	    ctx->args[1] != NR_GETPGID)
		return 0;
	__sync_fetch_and_add(&triggers, 1);
	bpf_printk("rtbpf trigger");
	return 0;
}

/*
 * ... and this program, on the tracepoint that bpf_printk() fires, prints
 * again: it triggers itself.  The recursion guard must stop the inner run,
 * every time, and count it as a miss.
 */
SEC("raw_tp/bpf_trace_printk")
int recurse(void *ctx)
{
	if ((bpf_get_current_pid_tgid() >> 32) != target_tgid)
		return 0;
	__sync_fetch_and_add(&runs, 1);
	bpf_printk("rtbpf recurse");
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
