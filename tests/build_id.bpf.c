// SPDX-License-Identifier: GPL-2.0
/*
 * A cpu-clock perf_event program, which runs in hard interrupt context,
 * on one thread: it takes the thread's user stack as plain IPs and again
 * with build IDs (BPF_F_USER_BUILD_ID), and looks up the VMA at
 * probe_addr with bpf_find_vma().  Everything goes to user space, which
 * checks each entry against /proc/self/maps and the files' build IDs.
 *
 * A kprobe counts up_read_non_owner() calls: the irq_work unlock of the
 * stock kernel, which PREEMPT_RT must never reach.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "build_id.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4 << 20);
} samples SEC(".maps");

int target_tid;
__u64 probe_addr;
__u64 drops;
__u64 non_owner_unlocks;

static long vma_cb(struct task_struct *task, struct vm_area_struct *vma,
		   struct vma_info *vi)
{
	struct file *file = BPF_CORE_READ(vma, vm_file);

	vi->start = BPF_CORE_READ(vma, vm_start);
	vi->end = BPF_CORE_READ(vma, vm_end);
	vi->pgoff = BPF_CORE_READ(vma, vm_pgoff);
	vi->flags = BPF_CORE_READ(vma, vm_flags);
	vi->ino = file ? BPF_CORE_READ(file, f_inode, i_ino) : 0;
	return 0;
}

SEC("perf_event")
int sample_stack(struct bpf_perf_event_data *ctx)
{
	struct vma_info vi = {};
	struct bid_sample *s;
	__u64 t;
	long n;

	if ((__u32)bpf_get_current_pid_tgid() != target_tid)
		return 0;
	s = bpf_ringbuf_reserve(&samples, sizeof(*s), 0);
	if (!s) {
		__sync_fetch_and_add(&drops, 1);
		return 0;
	}
	n = bpf_get_stack(ctx, s->ips, sizeof(s->ips), BPF_F_USER_STACK);
	s->nr_ips = n > 0 ? n / sizeof(s->ips[0]) : 0;
	t = bpf_ktime_get_ns();
	n = bpf_get_stack(ctx, s->ids, sizeof(s->ids),
			  BPF_F_USER_STACK | BPF_F_USER_BUILD_ID);
	s->id_ns = bpf_ktime_get_ns() - t;
	s->nr_ids = n > 0 ? n / sizeof(s->ids[0]) : 0;
	s->probe = probe_addr;
	t = bpf_ktime_get_ns();
	s->find_ret = bpf_find_vma(bpf_get_current_task_btf(), s->probe,
				   vma_cb, &vi, 0);
	s->find_ns = bpf_ktime_get_ns() - t;
	s->vma = vi;
	bpf_ringbuf_submit(s, 0);
	return 0;
}

SEC("kprobe/up_read_non_owner")
int count_non_owner(void *ctx)
{
	__sync_fetch_and_add(&non_owner_unlocks, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
