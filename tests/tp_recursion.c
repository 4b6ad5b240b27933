// SPDX-License-Identifier: GPL-2.0
/*
 * Real recursion is still caught: a raw_tp program on the bpf_trace_printk
 * tracepoint that itself calls bpf_printk() runs once for each outside
 * trigger, and its recursive run is refused and counted, once each time.
 * On PREEMPT_RT, with the series, this is the per-task guard at work.
 */
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include "test.h"
#include "tp_recursion.skel.h"

#define CALLS 200

void test_main(void)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	struct tp_recursion *skel;
	int i;

	skel = tp_recursion__open_and_load();
	if (!ASSERT_OK_PTR(skel, "open_and_load"))
		return;
	skel->bss->target_tgid = getpid();
	if (!ASSERT_OK(tp_recursion__attach(skel), "attach"))
		goto out;
	for (i = 0; i < CALLS; i++)
		syscall(SYS_getpgid, 0);
	tp_recursion__detach(skel);

	printf("triggers %llu runs %llu\n", (unsigned long long)skel->bss->triggers,
	       (unsigned long long)skel->bss->runs);
	ASSERT_EQ(skel->bss->triggers, CALLS, "triggers");
	ASSERT_EQ(skel->bss->runs, CALLS, "runs_once_per_trigger");
	if (ASSERT_OK(bpf_prog_get_info_by_fd(bpf_program__fd(skel->progs.recurse),
					      &info, &len), "recurse_info"))
		ASSERT_EQ(info.recursion_misses, CALLS, "recursion_caught");
	memset(&info, 0, sizeof(info));
	len = sizeof(info);
	if (ASSERT_OK(bpf_prog_get_info_by_fd(bpf_program__fd(skel->progs.trigger),
					      &info, &len), "trigger_info"))
		ASSERT_EQ(info.recursion_misses, 0, "trigger_not_missed");
out:
	tp_recursion__destroy(skel);
}
