// SPDX-License-Identifier: GPL-2.0
/*
 * timer_probe: does a program with a bpf_timer load, and does its
 * callback fire?  Prints bpf_timer=works, or bpf_timer=rejected with the
 * verifier's reason.
 */
#include <unistd.h>
#include <bpf/bpf.h>
#include "timer_probe.skel.h"

static char log_buf[1 << 16];

/*
 * The verifier's reason for a refusal: the last log line before its
 * closing "processed N insns" statistics.
 */
static const char *reason(char *log)
{
	char *stats = strstr(log, "\nprocessed "), *p;

	if (!stats)
		return log;
	*stats = '\0';
	p = strrchr(log, '\n');
	return p ? p + 1 : log;
}

int main(void)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	struct timer_probe *skel;
	int err, i;

	skel = timer_probe__open();
	if (!skel)
		return 1;
	bpf_program__set_log_buf(skel->progs.arm, log_buf, sizeof(log_buf));
	err = timer_probe__load(skel);
	if (err) {
		printf("bpf_timer=rejected: %s\n", reason(log_buf));
		goto out;
	}
	err = bpf_prog_test_run_opts(bpf_program__fd(skel->progs.arm), &opts);
	if (err || opts.retval) {
		printf("bpf_timer=loads, arming failed (err %d, retval %u)\n", err, opts.retval);
		goto out;
	}
	for (i = 0; i < 100 && !skel->bss->fired; i++)
		usleep(10000);
	if (skel->bss->fired == 1)
		printf("bpf_timer=works\n");
	else
		printf("bpf_timer=loads, callback fired %llu times\n",
		       (unsigned long long)skel->bss->fired);
out:
	timer_probe__destroy(skel);
	return 0;
}
