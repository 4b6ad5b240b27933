// SPDX-License-Identifier: GPL-2.0
/*
 * Task and cgroup storage under preemption.  Two threads share CPU 0 and
 * make getpgid() calls that run an fentry program: the SCHED_OTHER "low"
 * thread loops over task and cgroup storage get (with create) and delete
 * in each call, and the SCHED_FIFO "high" thread wakes every 300 us,
 * preempting low inside those loops, and does the same on its own
 * storage.  Nothing nests inside a storage operation, so every one of them
 * must succeed: a refusal is caused only by the other task's preempted
 * operation, which a per-CPU busy counter mistakes for recursion.  The
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

#define HIGH_CALLS	150
#define LOW_LOOPS	200
#define HIGH_LOOPS	20

static struct storage_preempt__bss *bss;
static volatile int high_done;
static int high_calls = HIGH_CALLS;
static int low_calls;

/* Keeps calling until high is done, so that every wakeup finds it inside. */
static void *low(void *arg)
{
	pin_to_cpu(0);
	set_fifo(0);
	bss->tids[0] = gettid();
	while (!high_done && low_calls < 100000) {
		syscall(SYS_getpgid, 0);
		low_calls++;
	}
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
	high_done = 1;
	return NULL;
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

	printf("low: calls %d rounds %llu task_fail %llu cgrp_fail %llu\n",
	       low_calls, (unsigned long long)bss->ops[0],
	       (unsigned long long)bss->task_fail[0],
	       (unsigned long long)bss->cgrp_fail[0]);
	printf("high: calls %d rounds %llu task_fail %llu cgrp_fail %llu overlaps %llu\n",
	       high_calls, (unsigned long long)bss->ops[1],
	       (unsigned long long)bss->task_fail[1],
	       (unsigned long long)bss->cgrp_fail[1],
	       (unsigned long long)bss->overlaps);
	ASSERT_EQ(high_calls, HIGH_CALLS, "high_is_fifo");
	ASSERT_EQ(bss->ops[0], (__u64)low_calls * LOW_LOOPS, "low_rounds_exact");
	ASSERT_EQ(bss->ops[1], (__u64)HIGH_CALLS * HIGH_LOOPS, "high_rounds_exact");
	ASSERT_GT(bss->overlaps, 0, "high_preempted_low_inside");
	ASSERT_EQ(bss->task_fail[0], 0, "low_task_storage_never_refused");
	ASSERT_EQ(bss->cgrp_fail[0], 0, "low_cgrp_storage_never_refused");
	ASSERT_EQ(bss->task_fail[1], 0, "high_task_storage_never_refused");
	ASSERT_EQ(bss->cgrp_fail[1], 0, "high_cgrp_storage_never_refused");
out:
	storage_preempt__destroy(skel);
}
