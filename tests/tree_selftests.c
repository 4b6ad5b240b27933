// SPDX-License-Identifier: GPL-2.0
/*
 * The tree's own BPF selftests for timers, workqueues, task and cgroup
 * storage and bpf_find_vma() (a test_progs built by
 * scripts/selftests-mini.sh with only these tests): every one of them
 * passes (timer_lockup may skip, see LUCKY).  The storage tests'
 * "recursion" subtests check that a storage operation that really nests is
 * still refused with per-task busy counters (0012).  On stock PREEMPT_RT
 * the timer tests fail, the verifier refuses their programs, wq splats,
 * and bpf_find_vma() returns -EBUSY from a kprobe or perf event.
 *
 * XFAIL on stock PREEMPT_RT: timer programs are refused (0004), wq splats (0001) and find_vma is -EBUSY (0028)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <unistd.h>
#include <sys/wait.h>
#include "test.h"

static const char *const wanted[] = {
	"timer", "timer_crash", "timer_lockup", "timer_mim", "wq", "failures_wq",
	"task_local_storage", "cgrp_local_storage", "find_vma",
};

#define NR_WANTED	(sizeof(wanted) / sizeof(wanted[0]))
#define LOG		"/tmp/tree_selftests.log"
/*
 * timer_lockup skips itself when two callbacks never overlap in 50 tries,
 * which depends on the host's scheduling of the vCPUs; it still fails on a
 * wrong return value and hangs on a deadlock.
 */
#define LUCKY		"timer_lockup"
/*
 * Skips by design: nodeadlock needs CONFIG_PREEMPT, which a PREEMPT_RT
 * kernel does not set; storage_preempt tests the same on RT.
 */
static const char *const allowed_skips[] = {
	LUCKY, "task_local_storage/nodeadlock",
};

static bool skip_allowed(const char *line)
{
	unsigned int i;
	char name[96];

	/* "#6       timer_lockup:SKIP", "#3/4     task_local_storage/nodeadlock:SKIP" */
	if (sscanf(line, "#%*s %95[^:]:SKIP", name) != 1 || !strstr(line, ":SKIP"))
		return true;
	for (i = 0; i < sizeof(allowed_skips) / sizeof(allowed_skips[0]); i++)
		if (!strcmp(name, allowed_skips[i]))
			return true;
	return false;
}

void test_main(void)
{
	char exe[PATH_MAX], dir[PATH_MAX + 32], line[512], name[64], res[16];
	int ok[NR_WANTED] = {}, status, fd, passed = -1, skipped = -1, failed = -1;
	int bad_skips = 0;
	unsigned int i;
	ssize_t n;
	pid_t pid;
	FILE *f;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (!ASSERT_GT(n, 0, "readlink_self"))
		return;
	exe[n] = 0;
	snprintf(dir, sizeof(dir), "%s/../selftests-mini", dirname(exe));
	if (!ASSERT_OK(access(dir, X_OK), "selftests_in_payload"))
		return;

	pid = fork();
	if (pid == 0) {
		fd = open(LOG, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 1);
		dup2(fd, 2);
		if (chdir(dir))	/* test_progs loads ./bpf_testmod.ko */
			_exit(126);
		execl("./test_progs", "test_progs", "-t",
		      "timer,timer_crash,timer_lockup,timer_mim,wq,"
		      "task_local_storage,cgrp_local_storage,find_vma", NULL);
		_exit(127);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid, "test_progs_ran");

	f = fopen(LOG, "r");
	if (!ASSERT_OK_PTR(f, "open_log"))
		return;
	while (fgets(line, sizeof(line), f)) {
		/* Top-level results look like "#12      timer:OK". */
		if (sscanf(line, "#%*d %63[^:]:%15s", name, res) == 2)
			for (i = 0; i < NR_WANTED; i++)
				if (!strcmp(name, wanted[i]) &&
				    (!strcmp(res, "OK") || (!strcmp(res, "SKIP") &&
							    !strcmp(name, LUCKY))))
					ok[i] = 1;
		sscanf(line, "Summary: %d/%*d PASSED, %d SKIPPED, %d FAILED",
		       &passed, &skipped, &failed);
		bad_skips += !skip_allowed(line);
		printf("# %s", line);
	}
	fclose(f);
	for (i = 0; i < NR_WANTED; i++) {
		snprintf(name, sizeof(name), "%s_ok", wanted[i]);
		ASSERT_EQ(ok[i], 1, name);
	}
	/* test_progs counts a skipped test as passed too: "6/12 PASSED, 1 SKIPPED". */
	ASSERT_EQ(passed, (int)NR_WANTED, "summary_passed");
	ASSERT_LE(skipped, (int)(sizeof(allowed_skips) / sizeof(allowed_skips[0])),
		  "summary_skips");
	ASSERT_EQ(bad_skips, 0, "only_allowed_skips");
	ASSERT_EQ(failed, 0, "summary_failed");
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0, "test_progs_exit_0");
}
