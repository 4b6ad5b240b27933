// SPDX-License-Identifier: GPL-2.0
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define CLOCK_MONOTONIC 1

struct elem {
	struct bpf_timer timer;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct elem);
} timers SEC(".maps");

__u64 fired;

static int on_timer(void *map, int *key, struct elem *e)
{
	fired++;
	return 0;
}

/* Arm a 1 ms one-shot bpf_timer. */
SEC("syscall")
int arm(void *ctx)
{
	struct elem *e;
	int key = 0;

	e = bpf_map_lookup_elem(&timers, &key);
	if (!e)
		return 1;
	if (bpf_timer_init(&e->timer, &timers, CLOCK_MONOTONIC))
		return 2;
	if (bpf_timer_set_callback(&e->timer, on_timer))
		return 3;
	return bpf_timer_start(&e->timer, 1000000, 0) ? 4 : 0;
}

char LICENSE[] SEC("license") = "GPL";
