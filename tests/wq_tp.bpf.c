// SPDX-License-Identifier: GPL-2.0
/* bpf_wq_init() and bpf_wq_start() from a raw tracepoint (tp_btf). */
#include "kfuncs.bpf.h"
#include <bpf/bpf_tracing.h>

#define TRIGGER_SYSCALL	121		/* __NR_getpgid on x86_64 */

struct elem {
	struct bpf_wq w;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct elem);
} wqs SEC(".maps");

int target_tgid, req, served, ran;
long ret;

static int wq_cb(void *map, int *key, void *value)
{
	__sync_fetch_and_add(&ran, 1);
	return 0;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(start_wq, struct pt_regs *regs, long id)
{
	struct elem *e;
	int k = 0;
	long err;

	if (id != TRIGGER_SYSCALL || (bpf_get_current_pid_tgid() >> 32) != target_tgid)
		return 0;
	if (!__sync_bool_compare_and_swap(&req, 1, 0))
		return 0;
	e = bpf_map_lookup_elem(&wqs, &k);
	if (!e)
		return 0;
	err = bpf_wq_init(&e->w, &wqs, 0);
	if (err && err != -EBUSY) {
		ret = err;
	} else {
		err = bpf_wq_set_callback(&e->w, wq_cb, 0);
		ret = err ?: bpf_wq_start(&e->w, 0);
	}
	__sync_fetch_and_add(&served, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
