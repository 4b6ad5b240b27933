// SPDX-License-Identifier: GPL-2.0
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

__u64 hits;

/* Trivial programs: what remains is the cost of the hook itself. */
SEC("raw_tp/sys_enter")
int raw_tp(void *ctx)
{
	hits++;
	return 0;
}

SEC("tp_btf/sys_enter")
int tp_btf(void *ctx)
{
	hits++;
	return 0;
}

SEC("tp/raw_syscalls/sys_enter")
int tp(void *ctx)
{
	hits++;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
