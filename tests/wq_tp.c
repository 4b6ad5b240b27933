// SPDX-License-Identifier: GPL-2.0
/*
 * A bpf_wq initialised and started from a raw tracepoint, where the
 * program runs with preemption disabled: the work runs, exactly once per
 * start.  Stock PREEMPT_RT allocates the wq with kmalloc() under an
 * irqs-off lock here, and the splat scan fails the test.
 *
 * XFAIL on stock PREEMPT_RT: bpf_wq_init() kmallocs under an irqs-off lock (0001)
 */
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "test.h"
#include "wq_tp.skel.h"

#define ROUNDS		20
#define TRIGGER_SYSCALL	121

void test_main(void)
{
	struct timespec ms = { 0, 1000000 };
	volatile int *served, *ran;
	struct wq_tp *skel;
	int i, j;

	skel = wq_tp__open_and_load();
	if (!ASSERT_OK_PTR(skel, "open_and_load"))
		return;
	skel->bss->target_tgid = getpid();
	if (!ASSERT_OK(wq_tp__attach(skel), "attach"))
		goto out;
	served = &skel->bss->served;
	ran = &skel->bss->ran;
	for (i = 1; i <= ROUNDS; i++) {
		skel->bss->req = 1;
		syscall(TRIGGER_SYSCALL, 0);
		if (!ASSERT_EQ(*served, i, "served") ||
		    !ASSERT_EQ(skel->bss->ret, 0, "init_and_start"))
			break;
		for (j = 0; j < 5000 && *ran < i; j++)
			nanosleep(&ms, NULL);
		if (!ASSERT_EQ(*ran, i, "work_ran"))
			break;
	}
	ASSERT_EQ(*ran, ROUNDS, "work_ran_exactly");
out:
	wq_tp__destroy(skel);
}
