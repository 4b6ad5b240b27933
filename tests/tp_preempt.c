// SPDX-License-Identifier: GPL-2.0
/*
 * Tracing programs preempted on their CPU: a SCHED_OTHER thread and a
 * SCHED_FIFO thread of this process share CPU 0 and both make getpgid()
 * calls, each of which runs a long program (raw_tp, tp_btf and fentry in
 * turn).  On PREEMPT_RT the FIFO thread preempts the other one inside its
 * program, and then:
 *  - both runs happen: the run count equals the calls, with no recursion
 *    misses (a per-CPU recursion guard would skip the second run);
 *  - the CPU is stable: no run ends on another CPU or per-CPU slot than it
 *    began on, and every per-CPU slot was written by its own CPU;
 *  - preemption really happened inside a program (overlaps > 0), so the
 *    above is not true by default.
 * Without PREEMPT_RT raw_tp and tp_btf programs are not preemptible, and
 * the test asserts that nothing overlaps there instead.
 *
 * XFAIL on stock PREEMPT_RT: raw_tp/tp_btf are not preemptible, fentry misses runs (patches 0005-0008)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include "test.h"
#include "tp_preempt.skel.h"

#define LOW_CALLS	40
#define HIGH_CALLS	150
#define LOOPS		100000

static int high_calls = HIGH_CALLS;

/* The value of the per-CPU map, as the program writes it. */
struct pcpu_slot {
	__u64 runs;
	__u32 cpu;
};

static void *low(void *arg)
{
	int i;

	pin_to_cpu(0);
	set_fifo(0);
	for (i = 0; i < LOW_CALLS; i++)
		syscall(SYS_getpgid, 0);
	return NULL;
}

/* Wakes up every 300 us; each wakeup lands inside a run of the other. */
static void *high(void *arg)
{
	struct timespec ts = { 0, 300 * 1000 };
	int i;

	pin_to_cpu(0);
	if (set_fifo(50))
		high_calls = 0;
	for (i = 0; i < high_calls; i++) {
		nanosleep(&ts, NULL);
		syscall(SYS_getpgid, 0);
	}
	return NULL;
}

static void check(struct tp_preempt *skel, struct bpf_program *prog,
		  const char *name, bool preemptible)
{
	int ncpus = libbpf_num_possible_cpus();
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info), zero = 0;
	struct tp_preempt__bss *bss = skel->bss;
	struct bpf_link *link;
	struct pcpu_slot slots[ncpus];
	pthread_t tl, th;
	char what[64];
	int cpu;

	memset(bss, 0, sizeof(*bss));
	bss->target_tgid = getpid();
	bss->loops = LOOPS;
	high_calls = HIGH_CALLS;
	memset(slots, 0, sizeof(slots));
	bpf_map_update_elem(bpf_map__fd(skel->maps.pcpu), &zero, slots, 0);

	link = bpf_program__attach(prog);
	snprintf(what, sizeof(what), "%s_attach", name);
	if (!ASSERT_OK_PTR(link, what))
		return;
	pthread_create(&tl, NULL, low, NULL);
	pthread_create(&th, NULL, high, NULL);
	pthread_join(th, NULL);
	pthread_join(tl, NULL);
	bpf_link__destroy(link);

	snprintf(what, sizeof(what), "%s_high_is_fifo", name);
	ASSERT_EQ(high_calls, HIGH_CALLS, what);
	if (!ASSERT_OK(bpf_prog_get_info_by_fd(bpf_program__fd(prog), &info, &len),
		       "prog_info"))
		return;
	printf("%s: runs %llu overlaps %llu misses %llu cpu_moved %llu\n", name,
	       (unsigned long long)bss->runs, (unsigned long long)bss->overlaps,
	       (unsigned long long)info.recursion_misses,
	       (unsigned long long)bss->cpu_moved);
	snprintf(what, sizeof(what), "%s_cpu_stable", name);
	ASSERT_EQ(bss->cpu_moved, 0, what);
	snprintf(what, sizeof(what), "%s_slot_stable", name);
	ASSERT_EQ(bss->slot_moved, 0, what);

	if (ASSERT_OK(bpf_map_lookup_elem(bpf_map__fd(skel->maps.pcpu), &zero, slots),
		      "pcpu_lookup")) {
		__u64 sum = 0;
		int wrong = 0;

		for (cpu = 0; cpu < ncpus; cpu++) {
			sum += slots[cpu].runs;
			if (slots[cpu].runs && slots[cpu].cpu != cpu + 1)
				wrong++;
		}
		snprintf(what, sizeof(what), "%s_pcpu_sum", name);
		ASSERT_EQ(sum, bss->runs, what);
		snprintf(what, sizeof(what), "%s_pcpu_own_cpu", name);
		ASSERT_EQ(wrong, 0, what);
	}

	if (preemptible) {
		snprintf(what, sizeof(what), "%s_runs_exact", name);
		ASSERT_EQ(bss->runs, LOW_CALLS + HIGH_CALLS, what);
		snprintf(what, sizeof(what), "%s_recursion_misses", name);
		ASSERT_EQ(info.recursion_misses, 0, what);
		snprintf(what, sizeof(what), "%s_preempted_inside", name);
		ASSERT_GT(bss->overlaps, 0, what);
	} else {
		/* Not preemptible: every call still runs, none overlaps. */
		snprintf(what, sizeof(what), "%s_runs_exact", name);
		ASSERT_EQ(bss->runs + info.recursion_misses, LOW_CALLS + HIGH_CALLS, what);
		snprintf(what, sizeof(what), "%s_no_overlap", name);
		ASSERT_EQ(bss->overlaps, 0, what);
	}
}

void test_main(void)
{
	bool rt = kernel_is_rt();
	struct tp_preempt *skel;

	skel = tp_preempt__open_and_load();
	if (!ASSERT_OK_PTR(skel, "open_and_load"))
		return;
	check(skel, skel->progs.on_raw_tp, "raw_tp", rt);
	check(skel, skel->progs.on_tp_btf, "tp_btf", rt);
	/*
	 * fentry runs preemptible on every preemptible kernel; only RT
	 * guards its recursion per task.
	 */
	if (rt)
		check(skel, skel->progs.on_fentry, "fentry", true);
	tp_preempt__destroy(skel);
}
