// SPDX-License-Identifier: GPL-2.0
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

int target_tgid;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 512);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

/* Count the syscalls of one process, keyed by syscall number. */
SEC("raw_tp/sys_enter")
int count_syscalls(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 nr = ctx->args[1];
	__u64 one = 1, *cnt;

	if ((bpf_get_current_pid_tgid() >> 32) != target_tgid)
		return 0;
	cnt = bpf_map_lookup_elem(&counts, &nr);
	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	else
		bpf_map_update_elem(&counts, &nr, &one, BPF_NOEXIST);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
