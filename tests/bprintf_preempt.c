// SPDX-License-Identifier: GPL-2.0
/*
 * The bprintf buffers under preemption, under icount.  An fentry program
 * on getpgid() formats with bpf_snprintf() and a 256 KiB format, which
 * takes milliseconds; fentry programs are preemptible on PREEMPT_RT, but
 * the bprintf buffers are held with preemption off on the stock tree.
 *
 * Gate: a SCHED_FIFO 95 thread wakes every 1 ms on CPU 0 and records how
 * late it is while another process on that CPU makes getpgid() calls
 * back to back, first with no BPF, then with the program attached.  On
 * PREEMPT_RT the maximum stays within 50 us of the no-BPF run.  Without
 * PREEMPT_RT the buffers stay preempt-off by design, and the test asserts
 * that the program does hold the CPU there.
 *
 * Sharing: a SCHED_OTHER "low" thread formats in a loop and a SCHED_FIFO
 * "high" thread wakes every 10 ms and formats once.  Every result is
 * exact, no call is refused, and on PREEMPT_RT high does format while
 * low holds a buffer (it gets a different buffer), so the check is not
 * true by default, and no call of high is lost to the recursion guard.
 * Without PREEMPT_RT the guard stays per CPU: a call of high that
 * preempts low inside the program is skipped and counted as a recursion
 * miss, so there runs plus misses add up to the calls.
 *
 * BOOT: latency
 * XFAIL on stock PREEMPT_RT: bprintf buffers are held with preemption off (patch 0013)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include "test.h"
#include "bprintf_preempt.h"
#include "bprintf_preempt.skel.h"

#define SAMPLES		1000
#define PERIOD_NS	1000000L
#define GATE_US		50
#define HIGH_CALLS	50
#define HIGH_SLEEP_NS	(10 * 1000 * 1000L)

static struct bprintf_preempt *skel;
static struct bprintf_preempt__bss *bss;
static volatile int high_done;
static long long low_calls;
static int high_calls;

/* "%u" and then 'x' up to the NUL that ends the map value; frozen. */
static int make_format(void)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_RDONLY_PROG);
	__u32 zero = 0;
	char *fmt;
	int fd, err;

	fmt = malloc(FMT_SIZE);
	if (!fmt)
		return -ENOMEM;
	memset(fmt, 'x', FMT_SIZE - 1);
	memcpy(fmt, "%u", 2);
	fmt[FMT_SIZE - 1] = 0;
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "fmt_map", sizeof(zero),
			    FMT_SIZE, 1, &opts);
	err = fd < 0 ? fd : bpf_map_update_elem(fd, &zero, fmt, 0);
	if (!err)
		err = bpf_map_freeze(fd);
	if (!err)
		err = bpf_map__reuse_fd(skel->maps.fmt_map, fd);
	if (fd >= 0)
		close(fd);
	free(fmt);
	return err;
}

static void reset(void)
{
	memset(bss->runs, 0, sizeof(bss->runs));
	memset(bss->busy, 0, sizeof(bss->busy));
	memset(bss->errors, 0, sizeof(bss->errors));
	memset(bss->bad_text, 0, sizeof(bss->bad_text));
	memset(bss->bad_len, 0, sizeof(bss->bad_len));
	bss->max_run_ns = 0;
	bss->low_buf = 0;
	bss->low_other_buf = 0;
	bss->high_same_buf = 0;
	bss->high_other_buf = 0;
}

static void check_exact(int w, long long runs, const char *who)
{
	char what[64];

	snprintf(what, sizeof(what), "%s_runs_exact", who);
	ASSERT_EQ(bss->runs[w], runs, what);
	snprintf(what, sizeof(what), "%s_never_busy", who);
	ASSERT_EQ(bss->busy[w], 0, what);
	snprintf(what, sizeof(what), "%s_no_errors", who);
	ASSERT_EQ(bss->errors[w], 0, what);
	snprintf(what, sizeof(what), "%s_text_exact", who);
	ASSERT_EQ(bss->bad_text[w], 0, what);
	snprintf(what, sizeof(what), "%s_length_exact", who);
	ASSERT_EQ(bss->bad_len[w], 0, what);
}

static void gate(void)
{
	long long idle, worst;
	pid_t load;

	load = fork();
	if (load == 0) {
		for (;;)
			syscall(SYS_getpgid, 0);
	}
	bss->target_tgid = load;
	bss->tids[HIGH] = 0;
	reset();

	idle = cyclic_max_ns(SAMPLES, PERIOD_NS);
	if (!ASSERT_OK(bprintf_preempt__attach(skel), "attach"))
		goto out;
	worst = cyclic_max_ns(SAMPLES, PERIOD_NS);
	bprintf_preempt__detach(skel);
	printf("no_bpf: max latency %lld us\n", idle / 1000);
	printf("bpf_snprintf: max latency %lld us, program runs %llu, longest bpf_snprintf %llu us\n",
	       worst / 1000, (unsigned long long)bss->runs[LOW],
	       (unsigned long long)bss->max_run_ns / 1000);
	printf("latency_us no_bpf=%lld bpf_snprintf=%lld\n", idle / 1000, worst / 1000);

	ASSERT_GT(idle, 0, "no_bpf_measured");
	ASSERT_GE(bss->runs[LOW], 10, "program_ran");
	ASSERT_GT(bss->max_run_ns, 20 * GATE_US * 1000, "format_longer_than_gate");
	ASSERT_EQ(bss->busy[LOW] + bss->errors[LOW] + bss->bad_text[LOW] +
		  bss->bad_len[LOW], 0, "every_format_exact");
	if (kernel_is_rt())
		ASSERT_LE(worst, idle + GATE_US * 1000, "within_50us_of_no_bpf");
	else
		ASSERT_GT(worst, idle + 20 * GATE_US * 1000,
			  "preempt_off_without_rt");
out:
	kill(load, SIGKILL);
	waitpid(load, NULL, 0);
}

static void *low(void *arg)
{
	pin_to_cpu(0);
	set_fifo(0);
	bss->tids[LOW] = gettid();
	while (!high_done) {
		syscall(SYS_getpgid, 0);
		low_calls++;
	}
	return NULL;
}

static void *high(void *arg)
{
	struct timespec ts = { 0, HIGH_SLEEP_NS };
	struct timespec poll = { 0, 1000 * 1000 };
	int i;

	pin_to_cpu(0);
	bss->tids[HIGH] = gettid();
	if (set_fifo(50))
		goto out;
	/* Start once low has a buffer of its own to compare with. */
	for (i = 0; !bss->low_buf && i < 5000; i++)
		nanosleep(&poll, NULL);
	for (i = 0; i < HIGH_CALLS; i++) {
		nanosleep(&ts, NULL);
		syscall(SYS_getpgid, 0);
		high_calls++;
	}
out:
	high_done = 1;
	return NULL;
}

static long long recursion_misses(void)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	int err;

	err = bpf_prog_get_info_by_fd(bpf_program__fd(skel->progs.format_it),
				      &info, &len);
	if (!ASSERT_OK(err, "prog_info"))
		return -1;
	return info.recursion_misses;
}

static void sharing(void)
{
	long long misses;
	pthread_t tl, th;

	misses = recursion_misses();
	bss->target_tgid = getpid();
	bss->tids[HIGH] = -1;
	reset();
	if (!ASSERT_OK(bprintf_preempt__attach(skel), "attach_sharing"))
		return;
	pthread_create(&th, NULL, high, NULL);
	/* high's tid first, so that no call of it is counted as low's */
	while (bss->tids[HIGH] == -1)
		sched_yield();
	pthread_create(&tl, NULL, low, NULL);
	pthread_join(th, NULL);
	pthread_join(tl, NULL);
	bprintf_preempt__detach(skel);
	misses = recursion_misses() - misses;

	printf("low: calls %lld runs %llu; high: calls %d runs %llu, formatted in low's buffer %llu, in another %llu; recursion misses %lld\n",
	       low_calls, (unsigned long long)bss->runs[LOW], high_calls,
	       (unsigned long long)bss->runs[HIGH],
	       (unsigned long long)bss->high_same_buf,
	       (unsigned long long)bss->high_other_buf, misses);
	ASSERT_EQ(high_calls, HIGH_CALLS, "high_is_fifo");
	ASSERT_GT(low_calls, 0, "low_ran");
	/* low never preempts high, so low never misses */
	check_exact(LOW, low_calls, "low");
	if (kernel_is_rt()) {
		ASSERT_EQ(misses, 0, "no_recursion_misses");
		check_exact(HIGH, high_calls, "high");
		ASSERT_GT(bss->high_other_buf, 0, "high_formatted_while_low_held_a_buffer");
	} else {
		check_exact(HIGH, high_calls - misses, "high");
	}
	ASSERT_EQ(bss->low_other_buf, 0, "low_always_first_buffer");
	ASSERT_EQ(bss->high_same_buf + bss->high_other_buf, bss->runs[HIGH],
		  "high_buffer_seen_each_run");
}

void test_main(void)
{
	if (sysconf(_SC_NPROCESSORS_ONLN) != 1)
		test_skip("needs the latency boot (-smp 1, icount)");
	mlockall(MCL_CURRENT | MCL_FUTURE);
	pin_to_cpu(0);
	skel = bprintf_preempt__open();
	if (!ASSERT_OK_PTR(skel, "open"))
		return;
	if (!ASSERT_OK(make_format(), "frozen_format_map"))
		goto out;
	if (!ASSERT_OK(bprintf_preempt__load(skel), "load"))
		goto out;
	bss = skel->bss;
	bss->tail_len = FMT_SIZE - 3;
	gate();
	sharing();
out:
	bprintf_preempt__destroy(skel);
}
