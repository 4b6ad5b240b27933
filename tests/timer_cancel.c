// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_timer_cancel() of a timer whose callback is running on the other CPU.
 *
 * From a program that can be preempted, the cancel waits for the callback
 * on every kernel.  From a program that cannot (inside
 * bpf_preempt_disable()), PREEMPT_RT must not wait: the callback runs in a
 * preemptible softirq thread and waiting means a sleeping lock.  There the
 * cancel returns -EBUSY at once, with the callback still running, and the
 * timer stays cancelled.  Without PREEMPT_RT it waits, as before.
 *
 * XFAIL on stock PREEMPT_RT: the verifier refuses bpf_timer (patch 0004)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <time.h>
#include <sys/utsname.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "test.h"
#include "timer_cancel.skel.h"

static struct timer_cancel *skel;

static int run(struct bpf_program *prog)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	return bpf_prog_test_run_opts(bpf_program__fd(prog), &opts);
}

static void *arm_on_cpu1(void *arg)
{
	if (pin_to_cpu(1) == 0)
		run(skel->progs.arm);
	return NULL;
}

/* Let the running callback finish a little after the cancel was issued. */
static void *release_later(void *arg)
{
	struct timespec ts = { 0, 500 * 1000 * 1000 };

	nanosleep(&ts, NULL);
	skel->bss->release = 1;
	return NULL;
}

/* Arm the timer on CPU 1 and wait until its callback runs there. */
static bool start_slow_callback(const char *what)
{
	volatile int *in_cb = &skel->bss->in_cb;
	struct timespec ts = { 0, 100000 };
	char name[64];
	pthread_t t;
	int i;

	skel->bss->in_cb = 0;
	pthread_create(&t, NULL, arm_on_cpu1, NULL);
	pthread_join(t, NULL);
	snprintf(name, sizeof(name), "%s_arm", what);
	if (!ASSERT_EQ(skel->bss->arm_ret, 0, name))
		return false;
	for (i = 0; i < 50000 && !*in_cb; i++)
		nanosleep(&ts, NULL);
	snprintf(name, sizeof(name), "%s_callback_started", what);
	if (!ASSERT_EQ(*in_cb, 1, name))
		return false;
	snprintf(name, sizeof(name), "%s_callback_on_cpu1", what);
	return ASSERT_EQ(skel->bss->cb_cpu, 1, name);
}

static void wait_done(int want)
{
	volatile int *done = &skel->bss->cb_done;
	struct timespec ts = { 0, 1000000 };
	int i;

	for (i = 0; i < 20000 && *done < want; i++)
		nanosleep(&ts, NULL);
	ASSERT_EQ(*done, want, "callback_finished");
	printf("# callback ran %.1f ms on cpu %d; cancel called %+.3f ms after it started, returned %+.3f ms after it ended\n",
	       skel->bss->cb_ns / 1e6, skel->bss->cb_cpu,
	       ((long long)(skel->bss->cancel_start - skel->bss->cb_start)) / 1e6,
	       ((long long)(skel->bss->cancel_end - skel->bss->cb_end)) / 1e6);
}

void test_main(void)
{
	pthread_t releaser;
	struct utsname u;
	bool rt;

	uname(&u);
	rt = strstr(u.version, "PREEMPT_RT") != NULL;
	printf("# kernel %s: %s\n", u.version, rt ? "PREEMPT_RT" : "not PREEMPT_RT");
	if (!ASSERT_OK(pin_to_cpu(0), "pin_cpu0"))
		return;
	skel = timer_cancel__open_and_load();
	if (!ASSERT_OK_PTR(skel, "open_and_load"))
		return;

	/* 1. Cancel from a program that cannot sleep. */
	if (start_slow_callback("atomic")) {
		pthread_create(&releaser, NULL, release_later, NULL);
		ASSERT_OK(run(skel->progs.cancel_atomic), "run_cancel_atomic");
		pthread_join(releaser, NULL);
		if (rt) {
			ASSERT_EQ(skel->bss->cancel_ret, -EBUSY, "rt_atomic_cancel_is_ebusy");
			ASSERT_EQ(skel->bss->done_at_cancel, 0, "rt_atomic_cancel_did_not_wait");
		} else {
			ASSERT_EQ(skel->bss->cancel_ret, 0, "atomic_cancel_ret");
			ASSERT_EQ(skel->bss->done_at_cancel, 1, "atomic_cancel_waited");
		}
		wait_done(1);
	}

	/* 2. Cancel from a program that may be preempted: it always waits. */
	if (start_slow_callback("preemptible")) {
		pthread_create(&releaser, NULL, release_later, NULL);
		ASSERT_OK(run(skel->progs.cancel_sleepable_ctx), "run_cancel_preemptible");
		pthread_join(releaser, NULL);
		ASSERT_EQ(skel->bss->cancel_ret, 0, "preemptible_cancel_ret");
		ASSERT_EQ(skel->bss->done_at_cancel, 2, "preemptible_cancel_waited");
		wait_done(2);
	}
	timer_cancel__destroy(skel);
}
