// SPDX-License-Identifier: GPL-2.0
/*
 * The RT atomic budget (kernel.bpf_rt_atomic_budget_us), under icount.
 *
 * A SCHED_FIFO 95 thread wakes every 1 ms on CPU 0, the cyclictest way,
 * while a SCHED_OTHER process on that CPU makes getpgid() and sched_yield()
 * calls back to back.  Programs that cannot be preempted loop on that CPU:
 * a kprobe on getpgid() with bpf_loop(8M), the same with an open-coded
 * bpf_for() loop and with a may_goto loop of 8M turns, a cpu-clock
 * perf_event program with bpf_loop(1M) every 50 ms, an fentry program with
 * bpf_loop(8M) on yield_task_fair(), which runs under the runqueue lock,
 * and a raw_tp program on sys_enter that runs bpf_loop(8M) between
 * bpf_preempt_disable() and bpf_preempt_enable().  Each
 * phase must stay within the budget plus 50 us of the no-BPF maximum, every
 * run that was cut must be counted in the program's atomic_budget_cuts,
 * exactly, and the kernel must name the program in its log.
 *
 * A raw_tp program with the same bpf_loop(8M) is preemptible on patched
 * RT: it must run all of its iterations.  The sysctl refuses bad values.
 * Without PREEMPT_RT the budget is off by default: the same kprobe runs
 * all of its iterations.
 *
 * BOOT: latency
 * XFAIL on stock PREEMPT_RT: no RT budget for programs that cannot be preempted (patches 0014-0017, 0019-0021)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "test.h"
#include <linux/types.h>
#include "atomic_budget.h"
#include "atomic_budget.skel.h"

#define LOOPS		8000000
#define PERF_LOOPS	1000000
#define PERF_PERIOD_NS	50000000ULL
#define SAMPLES		1000
#define PERIOD_NS	1000000L
#define GATE_US		50
#define RT_DEFAULT_US	100
#define SYSCTL		"/proc/sys/kernel/bpf_rt_atomic_budget_us"

static long budget_us = -1;

static long read_budget(void)
{
	char buf[32] = "";
	int fd = open(SYSCTL, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? strtol(buf, NULL, 10) : -EIO;
}

static int write_budget(const char *val)
{
	int fd = open(SYSCTL, O_WRONLY);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		err = -errno;
	close(fd);
	return err;
}

static void check_sysctl(void)
{
	static const char *const bad[] = { "-1", "1000001", "4294967296", "abc" };
	unsigned int i;
	char what[64];

	budget_us = read_budget();
	printf("%s = %ld\n", SYSCTL, budget_us);
	if (!ASSERT_GE(budget_us, 0, "sysctl_exists")) {
		budget_us = 0;
		return;
	}
	ASSERT_EQ(budget_us, kernel_is_rt() ? RT_DEFAULT_US : 0, "sysctl_default");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(what, sizeof(what), "sysctl_refuses_%s", bad[i]);
		ASSERT_EQ(write_budget(bad[i]), -EINVAL, what);
	}
	ASSERT_EQ(read_budget(), budget_us, "sysctl_unchanged_by_bad_writes");
	ASSERT_OK(write_budget("1000000"), "sysctl_takes_max");
	ASSERT_EQ(read_budget(), 1000000, "sysctl_reads_max");
	snprintf(what, sizeof(what), "%ld", budget_us);
	ASSERT_OK(write_budget(what), "sysctl_restored");
}

/* atomic_budget_cuts from the program's fdinfo; -1 if it is not there. */
static long long budget_cuts(struct bpf_program *prog)
{
	char path[64], line[128];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", bpf_program__fd(prog));
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "atomic_budget_cuts: %lld", &v) == 1)
			break;
	fclose(f);
	return v;
}

/* Whether the kernel log names @prog_name as cut by the budget. */
static bool log_names(const char *prog_name)
{
	char rec[1024], want[128];
	bool found = false;
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	ssize_t n;

	if (fd < 0)
		return false;
	snprintf(want, sizeof(want), "bpf: program %s (id ", prog_name);
	while ((n = read(fd, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		if (n <= 0)
			continue;
		rec[n] = 0;
		if (strstr(rec, want) && strstr(rec, "bpf_rt_atomic_budget_us"))
			found = true;
	}
	close(fd);
	return found;
}

static int perf_fd = -1;

static struct bpf_link *attach(struct atomic_budget *skel, struct bpf_program *prog)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = PERF_PERIOD_NS,
	};

	if (prog != skel->progs.loop_perf)
		return bpf_program__attach(prog);
	perf_fd = syscall(SYS_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (perf_fd < 0)
		return NULL;
	return bpf_program__attach_perf_event(prog, perf_fd);
}

/*
 * One phase: @prog (NULL: none) loops on CPU 0 while the FIFO thread
 * measures.  Returns the worst wakeup latency in ns, -1 on error.
 */
static long long phase(struct atomic_budget *skel, struct bpf_program *prog,
		       const char *name, struct loop_stats *st)
{
	struct timespec warm = { 0, 20 * 1000 * 1000 };
	struct timespec settle = { 0, 100 * 1000 * 1000 };
	struct bpf_link *link = NULL;
	long long worst;
	char what[64];

	if (prog) {
		link = attach(skel, prog);
		snprintf(what, sizeof(what), "%s_attach", name);
		if (!ASSERT_OK_PTR(link, what))
			return -1;
	}
	nanosleep(&warm, NULL);
	worst = cyclic_max_ns(SAMPLES, PERIOD_NS);
	bpf_link__destroy(link);
	if (perf_fd >= 0) {
		close(perf_fd);
		perf_fd = -1;
	}
	/*
	 * A run that was already in the program goes on after the detach:
	 * a preemptible one may have been preempted right after its cut was
	 * counted, before it counted the cut itself.  Let it finish.
	 */
	nanosleep(&settle, NULL);
	if (st)
		printf("%s: max latency %lld us; runs %llu, cut %llu, fewest iterations %llu, longest run %llu us\n",
		       name, worst / 1000, (unsigned long long)st->runs,
		       (unsigned long long)st->short_runs,
		       (unsigned long long)st->min_iters,
		       (unsigned long long)st->max_ns / 1000);
	else
		printf("%s: max latency %lld us\n", name, worst / 1000);
	return worst;
}

/*
 * A program that cannot be preempted: on RT every run is cut at the
 * budget, and the latency gate holds; without RT nothing is cut.
 */
static void check_atomic(struct atomic_budget *skel, struct bpf_program *prog,
			 const char *name, struct loop_stats *st, long long idle)
{
	long long worst, cuts;
	char what[64];

	/*
	 * The message is rate limited kernel-wide (10 in 5 s): let the cuts
	 * of the program before this one fall out of the window first.
	 */
	if (budget_us > 0)
		sleep(6);
	worst = phase(skel, prog, name, st);
	cuts = budget_cuts(prog);
	printf("%s: atomic_budget_cuts %lld\n", name, cuts);
	snprintf(what, sizeof(what), "%s_ran", name);
	if (!ASSERT_GE(st->runs, 3, what) || worst < 0)
		return;
	snprintf(what, sizeof(what), "%s_cuts_counted_exactly", name);
	ASSERT_EQ(cuts, st->short_runs, what);
	if (budget_us > 0) {
		snprintf(what, sizeof(what), "%s_every_run_cut", name);
		ASSERT_EQ(st->short_runs, st->runs, what);
		snprintf(what, sizeof(what), "%s_within_budget_plus_50us", name);
		ASSERT_LE(worst, idle + (budget_us + GATE_US) * 1000, what);
		snprintf(what, sizeof(what), "%s_named_in_log", name);
		ASSERT_TRUE(log_names(bpf_program__name(prog)), what);
	} else {
		snprintf(what, sizeof(what), "%s_never_cut_without_budget", name);
		ASSERT_EQ(st->short_runs, 0, what);
	}
}

void test_main(void)
{
	struct atomic_budget *skel;
	long long idle, raw;
	pid_t load;

	if (sysconf(_SC_NPROCESSORS_ONLN) != 1)
		test_skip("needs the latency boot (-smp 1, icount)");
	mlockall(MCL_CURRENT | MCL_FUTURE);
	pin_to_cpu(0);

	/* Without the sysctl (stock) the phases still run, for the numbers. */
	check_sysctl();

	skel = atomic_budget__open();
	if (!ASSERT_OK_PTR(skel, "open"))
		return;
	bpf_program__set_autoload(skel->progs.loop_kprobe, true);
	bpf_program__set_autoload(skel->progs.iter_kprobe, true);
	bpf_program__set_autoload(skel->progs.goto_kprobe, true);
	bpf_program__set_autoload(skel->progs.loop_perf, true);
	bpf_program__set_autoload(skel->progs.loop_raw_tp, true);
	bpf_program__set_autoload(skel->progs.loop_fentry, true);
	bpf_program__set_autoload(skel->progs.section_raw_tp, true);
	skel->bss->loops = LOOPS;
	skel->bss->perf_loops = PERF_LOOPS;
	if (!ASSERT_OK(atomic_budget__load(skel), "load"))
		goto out;

	load = fork();
	if (load == 0) {
		for (;;) {
			syscall(SYS_getpgid, 0);
			sched_yield();
		}
	}
	skel->bss->target_tgid = load;

	idle = phase(skel, NULL, "no_bpf", NULL);
	check_atomic(skel, skel->progs.loop_kprobe, "kprobe_bpf_loop",
		     &skel->bss->kp_loop, idle);
	check_atomic(skel, skel->progs.iter_kprobe, "kprobe_bpf_for",
		     &skel->bss->kp_iter, idle);
	check_atomic(skel, skel->progs.goto_kprobe, "kprobe_may_goto",
		     &skel->bss->kp_goto, idle);
	check_atomic(skel, skel->progs.loop_perf, "perf_event_bpf_loop",
		     &skel->bss->perf, idle);
	check_atomic(skel, skel->progs.loop_fentry, "fentry_rq_locked_bpf_loop",
		     &skel->bss->fentry, idle);
	check_atomic(skel, skel->progs.section_raw_tp, "raw_tp_preempt_off_bpf_loop",
		     &skel->bss->section, idle);
	raw = phase(skel, skel->progs.loop_raw_tp, "raw_tp_bpf_loop", &skel->bss->rawtp);
	kill(load, SIGKILL);
	waitpid(load, NULL, 0);

	printf("latency_us no_bpf=%lld\n", idle / 1000);
	ASSERT_GT(idle, 0, "no_bpf_measured");
	ASSERT_GE(skel->bss->rawtp.runs, 3, "raw_tp_ran");
	if (kernel_is_rt()) {
		/* Preemptible on RT: never cut, whatever the budget. */
		ASSERT_EQ(skel->bss->rawtp.short_runs, 0, "raw_tp_never_cut");
		ASSERT_EQ(skel->bss->rawtp.min_iters, LOOPS, "raw_tp_all_iterations");
		ASSERT_EQ(budget_cuts(skel->progs.loop_raw_tp), 0, "raw_tp_no_cuts_counted");
	}
	ASSERT_GT(raw, 0, "raw_tp_measured");
out:
	atomic_budget__destroy(skel);
}
