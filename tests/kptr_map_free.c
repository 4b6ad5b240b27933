// SPDX-License-Identifier: GPL-2.0
/*
 * Freeing maps that hold objects through kptrs.  A syscall program stashes
 * objects from bpf_obj_new() in every slot of an array and a preallocated
 * hash map, twice (the second round replaces and drops the first one's).
 * Then the maps are released; their map_free() runs from a workqueue and
 * drops the 16 objects left.  It must not splat: bpf_mem_free_rcu() there
 * picks a per-CPU cache, and the worker is preemptible and could migrate.
 *
 * XFAIL on stock PREEMPT_RT: map_free() drops kptrs with migration enabled: "using smp_processor_id() in preemptible" (patch 0018)
 */
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "test.h"
#include "kptr_map_free.skel.h"

#define SLOTS	8
#define ROUNDS	2

static __u32 map_id(struct bpf_map *map)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);

	if (bpf_map_get_info_by_fd(bpf_map__fd(map), &info, &len))
		return 0;
	return info.id;
}

/* Whether the map with @id is still there after @ms milliseconds. */
static bool still_there(__u32 id, int ms)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	int fd, i;

	for (i = 0; i < ms / 10; i++) {
		fd = bpf_map_get_fd_by_id(id);
		if (fd < 0)
			return false;
		close(fd);
		nanosleep(&tick, NULL);
	}
	return true;
}

void test_main(void)
{
	struct { void *obj; } zero = { NULL };
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	struct kptr_map_free *skel;
	__u32 array_id, hash_id;
	int key, i;

	skel = kptr_map_free__open_and_load();
	if (!ASSERT_OK_PTR(skel, "open_and_load"))
		return;
	for (key = 0; key < SLOTS; key++)
		ASSERT_OK(bpf_map__update_elem(skel->maps.hash, &key, sizeof(key),
					       &zero, sizeof(zero), BPF_NOEXIST),
			  "hash_insert");
	for (i = 0; i < ROUNDS; i++)
		ASSERT_OK(bpf_prog_test_run_opts(bpf_program__fd(skel->progs.fill), &opts),
			  "fill");
	ASSERT_EQ(skel->bss->failed, 0, "no_failed_stash");
	ASSERT_EQ(skel->bss->stashed, 2 * SLOTS * ROUNDS, "stashed");
	ASSERT_EQ(skel->bss->replaced, 2 * SLOTS * (ROUNDS - 1), "replaced");

	array_id = map_id(skel->maps.array);
	hash_id = map_id(skel->maps.hash);
	ASSERT_TRUE(array_id && hash_id, "map_ids");
	kptr_map_free__destroy(skel);

	/* The ids go first; map_free() follows from a workqueue. */
	ASSERT_TRUE(!still_there(array_id, 5000), "array_released");
	ASSERT_TRUE(!still_there(hash_id, 5000), "hash_released");
	sleep(2);
}
