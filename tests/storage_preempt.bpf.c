// SPDX-License-Identifier: GPL-2.0
/*
 * Task and cgroup storage from an fentry program that two threads on one
 * CPU run at once: "low" loops over storage operations, and "high", a
 * SCHED_FIFO thread, preempts it there and does its own.
 *
 * A round deletes the thread's storage and creates it again.  A delete of
 * storage that exists fails only with -EBUSY, when the busy counter says
 * a storage operation is in progress; a create may also fail when the
 * allocator's cache is empty, so the two are counted apart.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define LOW	0
#define HIGH	1
#define EBUSY	16

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} tstore SEC(".maps");

/* One cgroup storage map per thread: both threads share the cgroup. */
struct cstore {
	__uint(type, BPF_MAP_TYPE_CGRP_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
};
struct cstore cstore_low SEC(".maps");
struct cstore cstore_high SEC(".maps");

int target_tgid;
int tids[2];
__u32 loops[2];

__u64 rounds[2];
__u64 task_busy[2];	/* task storage delete refused with -EBUSY */
__u64 cgrp_busy[2];	/* cgroup storage delete refused with -EBUSY */
__u64 task_nocreate[2];	/* task storage create returned NULL */
__u64 cgrp_nocreate[2];	/* cgroup storage create returned NULL */
__u64 overlaps;		/* high runs that began while low was inside */
int low_inside;

static __always_inline void task_round(int who)
{
	struct task_struct *t = bpf_get_current_task_btf();

	if (bpf_task_storage_delete(&tstore, t) == -EBUSY)
		__sync_fetch_and_add(&task_busy[who], 1);
	if (!bpf_task_storage_get(&tstore, t, 0, BPF_LOCAL_STORAGE_GET_F_CREATE))
		__sync_fetch_and_add(&task_nocreate[who], 1);
}

static __always_inline void cgrp_round(void *map, int who)
{
	struct cgroup *cg = bpf_get_current_task_btf()->cgroups->dfl_cgrp;

	if (bpf_cgrp_storage_delete(map, cg) == -EBUSY)
		__sync_fetch_and_add(&cgrp_busy[who], 1);
	if (!bpf_cgrp_storage_get(map, cg, 0, BPF_LOCAL_STORAGE_GET_F_CREATE))
		__sync_fetch_and_add(&cgrp_nocreate[who], 1);
}

static int step_low(__u32 i, void *ctx)
{
	task_round(LOW);
	cgrp_round(&cstore_low, LOW);
	__sync_fetch_and_add(&rounds[LOW], 1);
	return 0;
}

static int step_high(__u32 i, void *ctx)
{
	task_round(HIGH);
	cgrp_round(&cstore_high, HIGH);
	__sync_fetch_and_add(&rounds[HIGH], 1);
	return 0;
}

SEC("fentry/__x64_sys_getpgid")
int BPF_PROG(on_getpgid, struct pt_regs *regs)
{
	__u64 id = bpf_get_current_pid_tgid();
	int tid = (__u32)id;

	if ((id >> 32) != target_tgid)
		return 0;
	if (tid == tids[LOW]) {
		low_inside = 1;
		bpf_loop(loops[LOW], step_low, NULL, 0);
		low_inside = 0;
	} else if (tid == tids[HIGH]) {
		if (low_inside)
			__sync_fetch_and_add(&overlaps, 1);
		bpf_loop(loops[HIGH], step_high, NULL, 0);
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
