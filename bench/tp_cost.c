// SPDX-License-Identifier: GPL-2.0
/*
 * tp_cost N: the cost of one sys_enter tracepoint hit with a trivial BPF
 * program attached, as raw_tp, tp_btf and classic tp.  Times N getpgid()
 * calls with each attached, and with none.  Under QEMU icount guest time
 * counts instructions, so the result is in instructions and repeats.
 * Each figure is the best of several rounds.
 */
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "tp_cost.skel.h"

#define ROUNDS 5

/*
 * The fastest of ROUNDS rounds of n calls: an interrupt that lands in one
 * round does not count against the hook.
 */
static double ns_per_call(long n)
{
	struct timespec a, b;
	double best = 0, t;
	long i;
	int r;

	for (r = 0; r < ROUNDS; r++) {
		clock_gettime(CLOCK_MONOTONIC, &a);
		for (i = 0; i < n; i++)
			syscall(SYS_getpgid, 0);
		clock_gettime(CLOCK_MONOTONIC, &b);
		t = ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n;
		if (!r || t < best)
			best = t;
	}
	return best;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 0) : 20000;
	struct bpf_program *progs[3];
	struct tp_cost *skel;
	double base;
	int i;

	skel = tp_cost__open_and_load();
	if (!skel) {
		fprintf(stderr, "tp_cost: cannot load\n");
		return 1;
	}
	progs[0] = skel->progs.raw_tp;
	progs[1] = skel->progs.tp_btf;
	progs[2] = skel->progs.tp;
	ns_per_call(n / 10);			/* warm up */
	base = ns_per_call(n);
	printf("syscall_none_ns=%.1f\n", base);
	for (i = 0; i < 3; i++) {
		struct bpf_link *link = bpf_program__attach(progs[i]);
		double t;

		if (!link) {
			printf("hit_%s_ns=attach-failed\n", bpf_program__name(progs[i]));
			continue;
		}
		t = ns_per_call(n);
		bpf_link__destroy(link);
		printf("hit_%s_ns=%.1f\n", bpf_program__name(progs[i]), t - base);
	}
	tp_cost__destroy(skel);
	return 0;
}
