// SPDX-License-Identifier: GPL-2.0
/* A syscall program run through test_run returns what it computed. */
#include <bpf/bpf.h>
#include "test.h"
#include "syscall_prog.skel.h"

struct sum_args {
	__u64 a;
	__u64 b;
	__u64 sum;
};

void test_main(void)
{
	struct sum_args args = { .a = 40, .b = 2 };
	/* Syscall programs write their context back into ctx_in. */
	LIBBPF_OPTS(bpf_test_run_opts, opts,
		    .ctx_in = &args, .ctx_size_in = sizeof(args));
	struct syscall_prog *skel;
	int fd, i;

	skel = syscall_prog__open_and_load();
	if (!ASSERT_OK_PTR(skel, "open_and_load"))
		return;
	fd = bpf_program__fd(skel->progs.sum);
	for (i = 0; i < 3; i++) {
		if (!ASSERT_OK(bpf_prog_test_run_opts(fd, &opts), "test_run"))
			goto out;
	}
	ASSERT_EQ(opts.retval, 42, "retval");
	ASSERT_EQ(args.sum, 42, "ctx_sum");
	ASSERT_EQ(skel->bss->calls, 3, "calls");
out:
	syscall_prog__destroy(skel);
}
