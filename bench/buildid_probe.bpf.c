// SPDX-License-Identifier: GPL-2.0
/*
 * A cpu-clock perf_event program (hard interrupt, interrupts off) on one
 * spinning thread: the top frame of its user stack with a build ID, and
 * bpf_find_vma() on the spinning function.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

int target_tid;
__u64 spin_addr;
__u64 samples, valid, ip_fallback, find_ok, find_busy, find_other;

static long vma_cb(struct task_struct *task, struct vm_area_struct *vma, void *ctx)
{
	return 0;
}

SEC("perf_event")
int sample(struct bpf_perf_event_data *ctx)
{
	struct bpf_stack_build_id id;
	long ret;

	if ((__u32)bpf_get_current_pid_tgid() != target_tid)
		return 0;
	/* Only the top frame: the spinning loop, in this binary. */
	ret = bpf_get_stack(ctx, &id, sizeof(id),
			    BPF_F_USER_STACK | BPF_F_USER_BUILD_ID);
	if (ret != sizeof(id))
		return 0;
	samples++;
	if (id.status == BPF_STACK_BUILD_ID_VALID)
		valid++;
	else
		ip_fallback++;
	ret = bpf_find_vma(bpf_get_current_task_btf(), spin_addr, vma_cb, NULL, 0);
	if (!ret)
		find_ok++;
	else if (ret == -16 /* -EBUSY */)
		find_busy++;
	else
		find_other++;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
