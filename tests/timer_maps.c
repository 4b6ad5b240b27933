// SPDX-License-Identifier: GPL-2.0
/*
 * Timers in map elements that are freed while armed.
 *
 * LRU: 2000 keys go through a 128-entry LRU hash, each with an armed timer.
 * Evicting an element must cancel and free its timer: afterwards exactly
 * the timers of the elements still in the map fire, once each.
 *
 * Teardown: ten times, 4096 timers in an array, half of them firing during
 * the teardown and half far in the future, are destroyed with their map.
 * Nothing may crash or splat, and the memory must come back.
 *
 * XFAIL on stock PREEMPT_RT: the verifier refuses bpf_timer (patch 0004)
 */
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "test.h"
#include "timer_maps.skel.h"

#define TEARDOWNS	10
#define TIMERS		4096

static int run(struct bpf_program *prog)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	return bpf_prog_test_run_opts(bpf_program__fd(prog), &opts);
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static long meminfo_kb(const char *key)
{
	char line[128];
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			sscanf(line + strlen(key), ": %ld", &v);
	fclose(f);
	return v;
}

static void test_lru(void)
{
	struct timer_maps *skel;
	__u32 key, next, *prev = NULL;
	int resident = 0;

	skel = timer_maps__open_and_load();
	if (!ASSERT_OK_PTR(skel, "lru_open_and_load"))
		return;
	skel->bss->lru_delay_ns = 300 * 1000 * 1000;
	ASSERT_OK(run(skel->progs.lru_fill), "lru_fill");
	ASSERT_EQ(skel->bss->first_err, 0, "lru_no_error");
	ASSERT_EQ(skel->bss->lru_armed, 2000, "lru_all_armed");
	while (!bpf_map_get_next_key(bpf_map__fd(skel->maps.lru), prev, &next)) {
		resident++;
		key = next;
		prev = &key;
	}
	printf("# %d of 2000 elements still in the map\n", resident);
	ASSERT_GT(resident, 0, "lru_resident");
	ASSERT_LE(resident, 128, "lru_evicted");
	sleep_ms(1500);
	ASSERT_EQ(skel->bss->lru_fired, resident, "lru_only_resident_timers_fired");
	timer_maps__destroy(skel);
}

static void test_teardown(void)
{
	long before = 0, after;
	int i, fired = 0;

	for (i = 0; i < TEARDOWNS; i++) {
		struct timer_maps *skel = timer_maps__open_and_load();

		if (!ASSERT_OK_PTR(skel, "teardown_open_and_load"))
			return;
		if (!ASSERT_OK(run(skel->progs.many_arm), "many_arm") ||
		    !ASSERT_EQ(skel->bss->many_armed, TIMERS, "many_all_armed")) {
			timer_maps__destroy(skel);
			return;
		}
		sleep_ms(i % 4);	/* destroy while timers fire */
		fired += skel->bss->many_fired;
		timer_maps__destroy(skel);
		if (i == 0) {
			sleep_ms(1000);
			before = meminfo_kb("Slab");
		}
	}
	sleep_ms(2000);
	after = meminfo_kb("Slab");
	printf("# %d teardowns of %d timers; %d fired before teardown; Slab %ld -> %ld kB\n",
	       TEARDOWNS, TIMERS, fired, before, after);
	/* A leaked timer costs more than 256 bytes: 9 x 4096 of them > 9 MB. */
	ASSERT_LT(after - before, 4096, "teardown_slab_growth_kb");
}

void test_main(void)
{
	test_lru();
	test_teardown();
}
