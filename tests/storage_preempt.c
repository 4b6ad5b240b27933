// SPDX-License-Identifier: GPL-2.0
/*
 * Task and cgroup storage under preemption.  Two threads share CPU 0 and
 * make getpgid() calls that run an fentry program: the SCHED_OTHER "low"
 * thread loops over task and cgroup storage delete and create in each
 * call, and the SCHED_FIFO "high" thread wakes every 300 us, preempting
 * low inside those loops, and does one round on its own storage.  Nothing
 * nests inside a storage operation, so no delete may be refused with
 * -EBUSY: a refusal is caused only by the other task's preempted
 * operation, which a per-CPU busy counter mistakes for recursion.  Creates
 * that return NULL are reported, not judged: besides a busy counter, an
 * empty allocator cache makes them fail too, now and then, under this
 * churn.  The
 * test also asserts that high did preempt low inside its program, so a
 * clean result is not true by default.
 *
 * Without PREEMPT_RT the busy counters stay per CPU by design, and the
 * test is skipped there.
 *
 * XFAIL on stock PREEMPT_RT: a task preempted in a storage operation makes the others on its CPU fail (0012)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "test.h"
#include "storage_preempt.skel.h"

#define LOW_CALLS	40
#define HIGH_CALLS	150
#define LOW_LOOPS	500
#define HIGH_LOOPS	1

static struct storage_preempt__bss *bss;
static int high_calls = HIGH_CALLS;

/* Each call stays in the program long enough for several wakeups of high. */
static void *low(void *arg)
{
	int i;

	pin_to_cpu(0);
	set_fifo(0);
	bss->tids[0] = gettid();
	for (i = 0; i < LOW_CALLS; i++)
		syscall(SYS_getpgid, 0);
	return NULL;
}

static void *high(void *arg)
{
	struct timespec ts = { 0, 300 * 1000 };
	int i;

	pin_to_cpu(0);
	if (set_fifo(50))
		high_calls = 0;
	bss->tids[1] = gettid();
	for (i = 0; i < high_calls; i++) {
		nanosleep(&ts, NULL);
		syscall(SYS_getpgid, 0);
	}
	return NULL;
}

static void report(const char *who, int i)
{
	printf("%s: rounds %llu busy: task %llu cgrp %llu; no create: task %llu cgrp %llu\n",
	       who, (unsigned long long)bss->rounds[i],
	       (unsigned long long)bss->task_busy[i],
	       (unsigned long long)bss->cgrp_busy[i],
	       (unsigned long long)bss->task_nocreate[i],
	       (unsigned long long)bss->cgrp_nocreate[i]);
}

void test_main(void)
{
	struct storage_preempt *skel;
	pthread_t tl, th;

	if (!kernel_is_rt())
		test_skip("busy counters are per CPU without PREEMPT_RT");
	skel = storage_preempt__open_and_load();
	if (!ASSERT_OK_PTR(skel, "open_and_load"))
		return;
	bss = skel->bss;
	bss->target_tgid = getpid();
	bss->loops[0] = LOW_LOOPS;
	bss->loops[1] = HIGH_LOOPS;
	if (!ASSERT_OK(storage_preempt__attach(skel), "attach"))
		goto out;
	pthread_create(&tl, NULL, low, NULL);
	pthread_create(&th, NULL, high, NULL);
	pthread_join(th, NULL);
	pthread_join(tl, NULL);
	storage_preempt__detach(skel);

	report("low", 0);
	report("high", 1);
	printf("overlaps %llu\n", (unsigned long long)bss->overlaps);
	ASSERT_EQ(high_calls, HIGH_CALLS, "high_is_fifo");
	ASSERT_EQ(bss->rounds[0], LOW_CALLS * LOW_LOOPS, "low_rounds_exact");
	ASSERT_EQ(bss->rounds[1], HIGH_CALLS * HIGH_LOOPS, "high_rounds_exact");
	ASSERT_GT(bss->overlaps, 0, "high_preempted_low_inside");
	ASSERT_EQ(bss->task_busy[0] + bss->cgrp_busy[0], 0, "low_never_busy");
	ASSERT_EQ(bss->task_busy[1], 0, "high_task_storage_never_busy");
	ASSERT_EQ(bss->cgrp_busy[1], 0, "high_cgrp_storage_never_busy");
out:
	storage_preempt__destroy(skel);
}
