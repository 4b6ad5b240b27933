// SPDX-License-Identifier: GPL-2.0
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

struct sum_args {
	__u64 a;
	__u64 b;
	__u64 sum;
};

__u64 calls;

/* Runs through BPF_PROG_TEST_RUN: reads and writes its context. */
SEC("syscall")
int sum(struct sum_args *args)
{
	args->sum = args->a + args->b;
	calls++;
	return 42;
}

char LICENSE[] SEC("license") = "GPL";
