// SPDX-License-Identifier: GPL-2.0
/*
 * A raw_tp/sys_enter program counts this process's syscalls in a hash map;
 * the count for a syscall nothing else here makes is exact.
 */
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include "test.h"
#include "rawtp_hash.skel.h"

#define CALLS 1000

void test_main(void)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	struct rawtp_hash *skel;
	__u32 nr = SYS_getpgid;
	__u64 count = 0;
	int i;

	skel = rawtp_hash__open_and_load();
	if (!ASSERT_OK_PTR(skel, "open_and_load"))
		return;
	skel->bss->target_tgid = getpid();
	if (!ASSERT_OK(rawtp_hash__attach(skel), "attach"))
		goto out;
	for (i = 0; i < CALLS; i++)
		syscall(SYS_getpgid, 0);
	rawtp_hash__detach(skel);

	ASSERT_OK(bpf_map_lookup_elem(bpf_map__fd(skel->maps.counts), &nr, &count),
		  "lookup_getpgid");
	ASSERT_EQ(count, CALLS, "getpgid_count");
	if (ASSERT_OK(bpf_prog_get_info_by_fd(bpf_program__fd(skel->progs.count_syscalls),
					      &info, &len), "prog_info"))
		ASSERT_EQ(info.recursion_misses, 0, "recursion_misses");
out:
	rawtp_hash__destroy(skel);
}
