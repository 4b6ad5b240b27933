// SPDX-License-Identifier: GPL-2.0
/*
 * Objects of the program's own type stashed as kptrs in an array and in a
 * preallocated hash map.  When the maps go away, their map_free() drops
 * every stashed object through bpf_mem_free_rcu(), which needs a CPU that
 * cannot change under it.
 */
#include "kfuncs.bpf.h"

#define SLOTS	8

struct stashed_obj {
	__u64 key;
};

struct slot {
	struct stashed_obj __kptr *obj;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SLOTS);
	__type(key, int);
	__type(value, struct slot);
} array SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SLOTS);
	__type(key, int);
	__type(value, struct slot);
} hash SEC(".maps");

__u64 stashed, replaced, failed;

static __always_inline void stash(void *map, int key)
{
	struct stashed_obj *n, *old;
	struct slot *s;

	s = bpf_map_lookup_elem(map, &key);
	if (!s) {
		failed++;
		return;
	}
	n = bpf_obj_new(struct stashed_obj);
	if (!n) {
		failed++;
		return;
	}
	n->key = key;
	old = bpf_kptr_xchg(&s->obj, n);
	if (old) {
		replaced++;
		bpf_obj_drop(old);
	}
	stashed++;
}

SEC("syscall")
int fill(void *ctx)
{
	int key;

	for (key = 0; key < SLOTS; key++) {
		stash(&array, key);
		stash(&hash, key);
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
