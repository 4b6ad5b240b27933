// SPDX-License-Identifier: GPL-2.0
/*
 * Attach and detach in a loop while programs are preempted: on each CPU a
 * SCHED_OTHER and a SCHED_FIFO worker make getpgid() calls that run a long
 * raw_tp or tp_btf program, and the main thread creates and destroys the
 * links (and at the end the programs) under them.  Links must not be
 * freed while a preempted run still uses them: every run sees its link's
 * cookie, and the kernel log stays clean under lockdep.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include "test.h"
#include "tp_attach_stress.skel.h"

#define CYCLES	150
#define LOOPS	20000
#define NCPU	2

static volatile int stop;

struct worker {
	int cpu, prio;
	long calls;
};

static void *work(void *arg)
{
	struct timespec ts = { 0, 200 * 1000 };
	struct worker *w = arg;

	pin_to_cpu(w->cpu);
	set_fifo(w->prio);
	while (!stop) {
		if (w->prio)
			nanosleep(&ts, NULL);
		syscall(SYS_getpgid, 0);
		w->calls++;
	}
	return NULL;
}

void test_main(void)
{
	LIBBPF_OPTS(bpf_raw_tracepoint_opts, ropts, .cookie = 0x5eed);
	LIBBPF_OPTS(bpf_trace_opts, topts, .cookie = 0x5eed);
	struct worker w[2 * NCPU];
	struct tp_attach_stress *skel;
	pthread_t th[2 * NCPU];
	int i, attached = 0;
	__u64 runs;

	skel = tp_attach_stress__open_and_load();
	if (!ASSERT_OK_PTR(skel, "open_and_load"))
		return;
	skel->bss->target_tgid = getpid();
	skel->bss->loops = LOOPS;
	for (i = 0; i < 2 * NCPU; i++) {
		w[i] = (struct worker){ .cpu = i / 2, .prio = i % 2 ? 20 : 0 };
		pthread_create(&th[i], NULL, work, &w[i]);
	}
	for (i = 0; i < CYCLES; i++) {
		struct bpf_link *raw, *btf;

		raw = bpf_program__attach_raw_tracepoint_opts(skel->progs.on_raw_tp,
							      "sys_enter", &ropts);
		btf = bpf_program__attach_trace_opts(skel->progs.on_tp_btf, &topts);
		attached += !!raw + !!btf;
		usleep(500 + (i % 5) * 300);
		bpf_link__destroy(raw);
		usleep(i % 3 * 200);
		bpf_link__destroy(btf);
	}
	stop = 1;
	for (i = 0; i < 2 * NCPU; i++)
		pthread_join(th[i], NULL);
	runs = skel->bss->runs;
	printf("cycles %d, runs %llu, worker calls %ld %ld %ld %ld\n", CYCLES,
	       (unsigned long long)runs, w[0].calls, w[1].calls, w[2].calls, w[3].calls);
	ASSERT_EQ(attached, 2 * CYCLES, "all_attached");
	ASSERT_GT(runs, CYCLES, "programs_ran");
	ASSERT_EQ(skel->bss->cookie_bad, 0, "cookie_of_own_link");
	tp_attach_stress__destroy(skel);
	/* Let the deferred frees run while this test still owns the log. */
	sleep(2);
}
