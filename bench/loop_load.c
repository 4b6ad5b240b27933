// SPDX-License-Identifier: GPL-2.0
/*
 * loop_load LOOPS SECONDS: attach the bpf_loop spinner to raw_tp/sys_enter
 * and make syscalls for SECONDS, so that the program runs back to back.
 * Prints runs= and iterations= when done.
 */
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "loop_load.skel.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct loop_load *skel;
	double end;

	if (argc != 3) {
		fprintf(stderr, "usage: loop_load LOOPS SECONDS\n");
		return 2;
	}
	skel = loop_load__open_and_load();
	if (!skel) {
		fprintf(stderr, "loop_load: cannot load the program\n");
		return 1;
	}
	skel->bss->loops = strtoul(argv[1], NULL, 0);
	skel->bss->target_tgid = getpid();
	if (loop_load__attach(skel)) {
		fprintf(stderr, "loop_load: cannot attach\n");
		loop_load__destroy(skel);
		return 1;
	}
	end = now() + strtod(argv[2], NULL);
	while (now() < end)
		syscall(SYS_getpgid, 0);
	loop_load__detach(skel);
	printf("runs=%llu\niterations=%llu\n",
	       (unsigned long long)skel->bss->runs,
	       (unsigned long long)skel->bss->iterations);
	loop_load__destroy(skel);
	return 0;
}
