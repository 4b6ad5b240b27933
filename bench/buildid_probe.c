// SPDX-License-Identifier: GPL-2.0
/*
 * buildid_probe: problem 3 of 2019 (up_read_non_owner()) as a profiler
 * sees it.  Stock PREEMPT_RT refuses the mmap lock with interrupts off,
 * so user stacks taken from a perf event lose their build IDs and
 * bpf_find_vma() fails.  A cpu-clock perf_event program samples a thread
 * spinning in this binary (run from a tmpfs copy, so that its pages are in
 * the page cache) for a second and prints
 *   build_id_valid=V of N valid
 *   find_vma=F of N found, B -EBUSY, O other
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>
#include "file.h"
#include "buildid_probe.skel.h"

#define SELF_COPY	"/tmp/buildid_probe.exe"
#define REEXEC_ENV	"RTBPF_BUILDID_PROBE_REEXEC"
#define SAMPLE_S	1

static volatile int stop;
static volatile pid_t spin_tid;

static void __attribute__((noinline)) spin(void)
{
	while (!stop)
		asm volatile("pause" ::: "memory");
}

static void *spinner(void *arg)
{
	spin_tid = gettid();
	spin();
	return NULL;
}

int main(void)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 1000000,	/* 1 ms */
	};
	struct buildid_probe *skel;
	struct bpf_link *link;
	pthread_t t;
	int pfd;

	exec_from_copy(SELF_COPY, REEXEC_ENV);
	if (!getenv(REEXEC_ENV)) {
		printf("build_id_valid=error: cannot run from tmpfs\n");
		return 1;
	}
	skel = buildid_probe__open_and_load();
	if (!skel) {
		printf("build_id_valid=error: the program does not load (%s)\n", strerror(errno));
		return 1;
	}
	pthread_create(&t, NULL, spinner, NULL);
	while (!spin_tid)
		sched_yield();
	skel->bss->target_tid = spin_tid;
	skel->bss->spin_addr = (unsigned long)spin;
	pfd = syscall(SYS_perf_event_open, &attr, spin_tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	link = pfd < 0 ? NULL : bpf_program__attach_perf_event(skel->progs.sample, pfd);
	if (link)
		sleep(SAMPLE_S);
	stop = 1;
	pthread_join(t, NULL);
	bpf_link__destroy(link);
	if (pfd >= 0)
		close(pfd);
	if (!link) {
		printf("build_id_valid=error: no perf event (%s)\n", strerror(errno));
		buildid_probe__destroy(skel);
		return 1;
	}
	printf("build_id_valid=%llu of %llu valid\n",
	       (unsigned long long)skel->bss->valid, (unsigned long long)skel->bss->samples);
	printf("find_vma=%llu of %llu found, %llu -EBUSY, %llu other\n",
	       (unsigned long long)skel->bss->find_ok, (unsigned long long)skel->bss->samples,
	       (unsigned long long)skel->bss->find_busy,
	       (unsigned long long)skel->bss->find_other);
	buildid_probe__destroy(skel);
	return 0;
}
