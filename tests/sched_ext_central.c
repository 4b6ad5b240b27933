// SPDX-License-Identifier: GPL-2.0
/*
 * The tree's sched_ext example scx_central, which drives its dispatching
 * from a bpf_timer pinned to the central CPU: it loads, schedules a
 * workload to completion with its timer firing, and unloads cleanly on
 * SIGINT.  Stock PREEMPT_RT refuses its BPF program ("bpf_timer cannot be
 * used for PREEMPT_RT.").
 *
 * In this tree ops.init() runs on the "scx_ops_enable_helper" kthread, which
 * is not bound to a CPU, while scx_central's init insists on running on the
 * central CPU (0): a boot where the helper sat on CPU 1 failed with "init
 * from non-central CPU".  The helper exists from the first enable on, so
 * that one failure is answered by pinning it to CPU 0 and starting again.
 *
 * XFAIL on stock PREEMPT_RT: the verifier refuses scx_central's bpf_timer (patch 0004)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "test.h"

#define WORKERS	4
#define STATE	"/sys/kernel/sched_ext/state"
#define OPS	"/sys/kernel/sched_ext/root/ops"

static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	if (!f)
		return;
	if (fgets(buf, len, f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

/* Wait up to @secs for @path to read @want. */
static bool wait_state(const char *path, const char *want, int secs)
{
	char buf[64];
	int i;

	for (i = 0; i < secs * 10; i++) {
		read_line(path, buf, sizeof(buf));
		if (!strcmp(buf, want))
			return true;
		usleep(100000);
	}
	return false;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Each worker spins for a while and sleeps a little, ten times. */
static void worker(void)
{
	volatile unsigned long n;
	int i;

	for (i = 0; i < 10; i++) {
		for (n = 0; n < 2000000; n++)
			;
		usleep(1000);
	}
	_exit(0);
}

/* The last value after @key in scx_central's statistics output. */
static long long last_stat(const char *log, const char *key)
{
	char line[256];
	long long v = -1;
	FILE *f = fopen(log, "r");
	char *p;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		p = strstr(line, key);
		if (p)
			sscanf(p + strlen(key), " :%lld", &v);
	}
	fclose(f);
	return v;
}

static bool log_has(const char *log, const char *what)
{
	char line[256];
	bool found = false;
	FILE *f = fopen(log, "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, what);
	fclose(f);
	return found;
}

/* Pin the kthread that runs ops.init() to CPU 0; true if it was found. */
static bool pin_enable_helper(void)
{
	char path[300], comm[64];
	struct dirent *d;
	bool pinned = false;
	cpu_set_t set;
	DIR *dir;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	dir = opendir("/proc");
	if (!dir)
		return false;
	while ((d = readdir(dir))) {
		snprintf(path, sizeof(path), "/proc/%s/comm", d->d_name);
		read_line(path, comm, sizeof(comm));
		if (!strcmp(comm, "scx_ops_enable_helper"))
			pinned = !sched_setaffinity(atoi(d->d_name), sizeof(set), &set);
	}
	closedir(dir);
	return pinned;
}

/* Fork scx_central, logging to @log; true once sched_ext is enabled. */
static bool start_central(const char *bin, const char *log, pid_t *sched)
{
	int fd, status;

	*sched = fork();
	if (*sched == 0) {
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 1);
		dup2(fd, 2);
		execl(bin, "scx_central", NULL);
		_exit(127);
	}
	if (wait_state(STATE, "enabled", 60))
		return true;
	kill(*sched, SIGKILL);
	waitpid(*sched, &status, 0);
	wait_state(STATE, "disabled", 10);
	return false;
}

void test_main(void)
{
	char exe[PATH_MAX], bin[PATH_MAX + 32], buf[64];
	const char *log = "/tmp/scx_central.log";
	pid_t sched, pids[WORKERS];
	int i, status, done = 0;
	double t0;
	bool ok;
	ssize_t n;

	if (access(STATE, R_OK))
		test_skip("no %s: kernel without sched_ext", STATE);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (!ASSERT_GT(n, 0, "readlink_self"))
		return;
	exe[n] = 0;
	snprintf(bin, sizeof(bin), "%s/../bin/scx_central", dirname(exe));
	if (!ASSERT_OK(access(bin, X_OK), "scx_central_in_payload"))
		return;
	ASSERT_TRUE(wait_state(STATE, "disabled", 1), "sched_ext_initially_disabled");

	ok = start_central(bin, log, &sched);
	if (!ok && log_has(log, "init from non-central CPU") && pin_enable_helper()) {
		printf("# ops.init ran off CPU 0; helper kthread pinned, starting again\n");
		ok = start_central(bin, log, &sched);
	}
	if (!ASSERT_TRUE(ok, "scx_central_enabled")) {
		system("cat /tmp/scx_central.log");
		return;
	}
	read_line(OPS, buf, sizeof(buf));
	ASSERT_STREQ(buf, "central", "root_ops_is_central");

	t0 = now();
	for (i = 0; i < WORKERS; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			worker();
	}
	for (i = 0; i < WORKERS; i++)
		if (waitpid(pids[i], &status, 0) == pids[i] && WIFEXITED(status) &&
		    !WEXITSTATUS(status))
			done++;
	printf("# %d workers done in %.1f s under scx_central\n", done, now() - t0);
	ASSERT_EQ(done, WORKERS, "workload_completed");
	sleep(3);	/* at least two statistics lines after the workload */
	ASSERT_TRUE(wait_state(STATE, "enabled", 1), "still_enabled_after_workload");

	kill(sched, SIGINT);
	ASSERT_EQ(waitpid(sched, &status, 0), sched, "scx_central_exited");
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0, "scx_central_exit_0");
	ASSERT_TRUE(wait_state(STATE, "disabled", 10), "sched_ext_disabled_after_unload");
	printf("# scx_central: timer callbacks %lld, tasks scheduled %lld\n",
	       last_stat(log, "timer"), last_stat(log, "total"));
	ASSERT_GT(last_stat(log, "timer"), 0, "central_timer_fired");
	ASSERT_GT(last_stat(log, "total"), 0, "tasks_scheduled");
}
