// SPDX-License-Identifier: GPL-2.0
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

int target_tgid;
__u32 loops;
__u64 runs;
__u64 iterations;

static int step(__u32 i, void *ctx)
{
	return 0;
}

/*
 * A long-running program on a hot tracepoint: every syscall of the load
 * process spins through bpf_loop().  On a stock PREEMPT_RT kernel the whole
 * run is non-preemptible, because __DO_TRACE disables preemption.
 */
SEC("raw_tp/sys_enter")
int spin(void *ctx)
{
	if ((bpf_get_current_pid_tgid() >> 32) != target_tgid)
		return 0;
	iterations += bpf_loop(loops, step, NULL, 0);
	runs++;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
