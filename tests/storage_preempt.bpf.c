// SPDX-License-Identifier: GPL-2.0
/*
 * Task and cgroup storage from an fentry program that two threads on one
 * CPU run at once: "low" loops over storage operations, and "high", a
 * SCHED_FIFO thread, preempts it there and does its own.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define LOW	0
#define HIGH	1

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

__u64 ops[2];		/* storage rounds done */
__u64 task_fail[2];	/* task storage get or delete refused */
__u64 cgrp_fail[2];	/* cgroup storage get or delete refused */
__u64 overlaps;		/* high runs that began while low was inside */
int low_inside;

static __always_inline void task_round(int who)
{
	struct task_struct *t = bpf_get_current_task_btf();
	__u64 *v;

	v = bpf_task_storage_get(&tstore, t, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!v || bpf_task_storage_delete(&tstore, t))
		__sync_fetch_and_add(&task_fail[who], 1);
}

static __always_inline void cgrp_round(void *map, int who)
{
	struct cgroup *cg = bpf_get_current_task_btf()->cgroups->dfl_cgrp;
	__u64 *v;

	v = bpf_cgrp_storage_get(map, cg, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!v || bpf_cgrp_storage_delete(map, cg))
		__sync_fetch_and_add(&cgrp_fail[who], 1);
}

static int step_low(__u32 i, void *ctx)
{
	task_round(LOW);
	cgrp_round(&cstore_low, LOW);
	__sync_fetch_and_add(&ops[LOW], 1);
	return 0;
}

static int step_high(__u32 i, void *ctx)
{
	task_round(HIGH);
	cgrp_round(&cstore_high, HIGH);
	__sync_fetch_and_add(&ops[HIGH], 1);
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
