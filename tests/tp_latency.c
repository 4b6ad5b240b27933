// SPDX-License-Identifier: GPL-2.0
/*
 * Latency gate for tracepoint programs, under icount (1 insn = 1 ns, so
 * the numbers repeat).  A SCHED_FIFO 95 thread wakes every 1 ms on CPU 0
 * and records how late it is, the cyclictest way, while a SCHED_OTHER
 * process on the same CPU makes getpgid() calls back to back.  First with
 * no BPF, then with a raw_tp, a tp_btf and a classic tp program on
 * sys_enter that loop bpf_loop() 8M times on each of those calls.
 *
 * raw_tp and tp_btf must stay within 50 us of the no-BPF maximum.  The
 * classic tp program runs from the perf probe, which keeps preemption
 * disabled.  Where the RT atomic budget is set (patch 0014,
 * kernel.bpf_rt_atomic_budget_us) its loop is cut at the budget, and it
 * must stay within the budget plus 50 us; with no budget its number is
 * printed, not gated, and its runs must be long.  Without PREEMPT_RT the
 * series leaves tracepoints preempt-off, so there the test asserts the
 * opposite: each of them holds the CPU for far longer than the gate.
 *
 * BOOT: latency
 * XFAIL on stock PREEMPT_RT: tracepoint programs run with preemption disabled (patches 0005-0008)
 */
#define _GNU_SOURCE
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "test.h"
#include "tp_latency.h"
#include "tp_latency.skel.h"

#define LOOPS		8000000
#define SAMPLES		1000
#define PERIOD_NS	1000000L
#define GATE_US		50

/* kernel.bpf_rt_atomic_budget_us, 0 where the kernel has no such sysctl */
static long atomic_budget_us(void)
{
	long us = 0;
	FILE *f;

	f = fopen("/proc/sys/kernel/bpf_rt_atomic_budget_us", "r");
	if (!f)
		return 0;
	if (fscanf(f, "%ld", &us) != 1)
		us = 0;
	fclose(f);
	return us;
}

/* @cut: the program runs non-preemptibly under a budget, so its runs are short. */
static long long phase(struct tp_latency *skel, struct bpf_program *prog,
		       int id, const char *name, bool cut)
{
	struct bpf_link *link = NULL;
	struct timespec warm = { 0, 20 * 1000 * 1000 };
	long long worst;
	char what[64];

	if (prog) {
		skel->bss->runs[id] = 0;
		skel->bss->max_run_ns[id] = 0;
		link = bpf_program__attach(prog);
		snprintf(what, sizeof(what), "%s_attach", name);
		if (!ASSERT_OK_PTR(link, what))
			return -1;
	}
	nanosleep(&warm, NULL);
	worst = cyclic_max_ns(SAMPLES, PERIOD_NS);
	if (worst < 0)
		return -1;
	bpf_link__destroy(link);
	if (!prog) {
		printf("%s: max latency %lld us\n", name, worst / 1000);
		return worst;
	}
	printf("%s: max latency %lld us, program runs %llu, longest run %llu us\n",
	       name, worst / 1000, (unsigned long long)skel->bss->runs[id],
	       (unsigned long long)skel->bss->max_run_ns[id] / 1000);
	/* The gate means something only if long runs were there to stop it. */
	snprintf(what, sizeof(what), "%s_program_ran", name);
	ASSERT_GE(skel->bss->runs[id], 3, what);
	if (cut) {
		snprintf(what, sizeof(what), "%s_runs_cut_at_budget", name);
		ASSERT_LT(skel->bss->max_run_ns[id], 20 * GATE_US * 1000, what);
	} else {
		snprintf(what, sizeof(what), "%s_run_longer_than_gate", name);
		ASSERT_GT(skel->bss->max_run_ns[id], 20 * GATE_US * 1000, what);
	}
	return worst;
}

void test_main(void)
{
	long long idle, raw, btf, tp;
	struct tp_latency *skel;
	long budget;
	pid_t load;

	if (sysconf(_SC_NPROCESSORS_ONLN) != 1)
		test_skip("needs the latency boot (-smp 1, icount)");
	mlockall(MCL_CURRENT | MCL_FUTURE);
	pin_to_cpu(0);
	skel = tp_latency__open_and_load();
	if (!ASSERT_OK_PTR(skel, "open_and_load"))
		return;
	skel->bss->loops = LOOPS;
	budget = kernel_is_rt() ? atomic_budget_us() : 0;
	printf("atomic budget: %ld us\n", budget);

	load = fork();
	if (load == 0) {
		for (;;)
			syscall(SYS_getpgid, 0);
	}
	skel->bss->target_tgid = load;

	idle = phase(skel, NULL, 0, "no_bpf", false);
	raw = phase(skel, skel->progs.spin_raw_tp, RAW_TP, "raw_tp", false);
	btf = phase(skel, skel->progs.spin_tp_btf, TP_BTF, "tp_btf", false);
	tp = phase(skel, skel->progs.spin_tp, TP, "tp", budget > 0);
	kill(load, SIGKILL);
	waitpid(load, NULL, 0);

	printf("latency_us no_bpf=%lld raw_tp=%lld tp_btf=%lld tp=%lld\n",
	       idle / 1000, raw / 1000, btf / 1000, tp / 1000);
	if (!ASSERT_GT(idle, 0, "no_bpf_measured"))
		goto out;
	if (kernel_is_rt()) {
		ASSERT_LE(raw, idle + GATE_US * 1000, "raw_tp_within_50us_of_no_bpf");
		ASSERT_LE(btf, idle + GATE_US * 1000, "tp_btf_within_50us_of_no_bpf");
		if (budget > 0)
			ASSERT_LE(tp, idle + (budget + GATE_US) * 1000,
				  "tp_within_budget_plus_50us_of_no_bpf");
	} else {
		ASSERT_GT(raw, idle + 20 * GATE_US * 1000, "raw_tp_preempt_off_without_rt");
		ASSERT_GT(btf, idle + 20 * GATE_US * 1000, "tp_btf_preempt_off_without_rt");
	}
out:
	tp_latency__destroy(skel);
}
