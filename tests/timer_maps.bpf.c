// SPDX-License-Identifier: GPL-2.0
/*
 * Timers whose map elements go away while they are armed: elements of an
 * LRU hash evicted by newer keys, and whole arrays of armed and firing
 * timers destroyed with their map.
 */
#include "kfuncs.bpf.h"

#define LRU_SIZE	128
#define LRU_KEYS	2000
#define ARRAY_TIMERS	4096

struct elem {
	struct bpf_timer t;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, LRU_SIZE);
	__type(key, __u32);
	__type(value, struct elem);
} lru SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, ARRAY_TIMERS);
	__type(key, int);
	__type(value, struct elem);
} many SEC(".maps");

__u64 lru_delay_ns;
int lru_armed, lru_fired, many_armed, many_fired;
long first_err;

static int lru_cb(void *map, __u32 *key, struct elem *e)
{
	__sync_fetch_and_add(&lru_fired, 1);
	return 0;
}

static int many_cb(void *map, int *key, struct elem *e)
{
	__sync_fetch_and_add(&many_fired, 1);
	return 0;
}

static void note(long err)
{
	if (err && !first_err)
		first_err = err;
}

static long lru_one(__u64 i, void *ctx)
{
	struct elem zero = {}, *e;
	__u32 key = i;
	long err;

	note(bpf_map_update_elem(&lru, &key, &zero, BPF_ANY));
	e = bpf_map_lookup_elem(&lru, &key);
	if (!e)
		return 0;
	err = bpf_timer_init(&e->t, &lru, CLOCK_MONOTONIC) ?:
	      bpf_timer_set_callback(&e->t, lru_cb) ?:
	      bpf_timer_start(&e->t, lru_delay_ns, 0);
	note(err);
	if (!err)
		lru_armed++;
	return 0;
}

/* Arm a timer in every new key: most elements are evicted while armed. */
SEC("syscall")
int lru_fill(void *ctx)
{
	bpf_loop(LRU_KEYS, lru_one, NULL, 0);
	return 0;
}

static long many_one(__u64 i, void *ctx)
{
	int key = i;
	struct elem *e = bpf_map_lookup_elem(&many, &key);
	__u64 ns;
	long err;

	if (!e)
		return 0;
	/* Half fire within the next few ms, half never before teardown. */
	ns = (i & 1) ? 60ULL * 1000 * 1000 * 1000 : (i % 512) * 10000 + 1;
	err = bpf_timer_init(&e->t, &many, CLOCK_MONOTONIC) ?:
	      bpf_timer_set_callback(&e->t, many_cb) ?:
	      bpf_timer_start(&e->t, ns, 0);
	note(err);
	if (!err)
		many_armed++;
	return 0;
}

SEC("syscall")
int many_arm(void *ctx)
{
	bpf_loop(ARRAY_TIMERS, many_one, NULL, 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
