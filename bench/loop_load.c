// SPDX-License-Identifier: GPL-2.0
/*
 * loop_load LOOPS FLAG: attach the bpf_loop spinner to raw_tp/sys_enter,
 * create FLAG.ready, then make syscalls until FLAG exists (at most 120 s),
 * so that the program runs back to back.  Prints runs= and iterations=.
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
	char ready[4096];
	double end;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: loop_load LOOPS FLAG\n");
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
	snprintf(ready, sizeof(ready), "%s.ready", argv[2]);
	f = fopen(ready, "w");
	if (f)
		fclose(f);
	end = now() + 120;
	while (now() < end && access(argv[2], F_OK))
		syscall(SYS_getpgid, 0);
	loop_load__detach(skel);
	printf("runs=%llu\niterations=%llu\n",
	       (unsigned long long)skel->bss->runs,
	       (unsigned long long)skel->bss->iterations);
	loop_load__destroy(skel);
	return 0;
}
