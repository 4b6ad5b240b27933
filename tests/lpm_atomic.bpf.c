// SPDX-License-Identifier: GPL-2.0
/*
 * LPM trie update, replace, lookup and delete from a kprobe, a context
 * that can never sleep, on RT or not.  Each calling thread owns the keys
 * 10.<tid>.0/25 and 10.<tid>.128/25: the two share a /24, so inserting the
 * second adds an intermediate node, and deleting the first frees it again.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "lpm_atomic.h"

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, LPM_ENTRIES);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct lpm_key);
	__type(value, __u64);
} trie SEC(".maps");

int target_tgid;
__u64 runs, good;
/*
 * Runs that failed with -ENOMEM: the trie's per-CPU node cache was empty.
 * It refills from irq_work, which cannot run inside a kprobe, so a burst
 * of allocations in one run can drain it.
 */
__u64 nomem;
/* The first step that failed otherwise, and how: step * 1000 - error. */
long first_bad;

static __always_inline void set_key(struct lpm_key *k, __u32 tid,
				    __u8 last, __u32 prefixlen)
{
	k->prefixlen = prefixlen;
	k->data[0] = 10;
	k->data[1] = tid >> 8;
	k->data[2] = tid;
	k->data[3] = last;
}

static __always_inline long lookup_is(struct lpm_key *k, __u64 want)
{
	__u64 *v = bpf_map_lookup_elem(&trie, k);

	if (!v)
		return -ENOENT;
	return *v == want ? 0 : -EINVAL;
}

static __always_inline long exercise(__u32 tid, __u64 val)
{
	struct lpm_key a, b, q;
	__u64 v;
	long err;

	set_key(&a, tid, 0, 25);
	set_key(&b, tid, 128, 25);
	v = val;
	err = bpf_map_update_elem(&trie, &a, &v, BPF_NOEXIST);
	if (err)
		return 1000 - err;
	v = val + 1;
	err = bpf_map_update_elem(&trie, &b, &v, BPF_NOEXIST);
	if (err)
		return 2000 - err;
	v = val + 2;	/* replaces the node of a */
	err = bpf_map_update_elem(&trie, &a, &v, BPF_EXIST);
	if (err)
		return 3000 - err;
	set_key(&q, tid, 7, 32);
	err = lookup_is(&q, val + 2);
	if (err)
		return 4000 - err;
	set_key(&q, tid, 200, 32);
	err = lookup_is(&q, val + 1);
	if (err)
		return 5000 - err;
	err = bpf_map_delete_elem(&trie, &a);
	if (err)
		return 6000 - err;
	err = bpf_map_delete_elem(&trie, &b);
	if (err)
		return 7000 - err;
	return 0;
}

SEC("kprobe/" SYSCALL_FN)
int BPF_KPROBE(on_getpgid)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct lpm_key a, b;
	long bad;

	if ((id >> 32) != target_tgid)
		return 0;
	__sync_fetch_and_add(&runs, 1);
	bad = exercise((__u32)id, id);
	if (!bad) {
		__sync_fetch_and_add(&good, 1);
		return 0;
	}
	/* Leave no key behind, so that the next run starts clean. */
	set_key(&a, (__u32)id, 0, 25);
	set_key(&b, (__u32)id, 128, 25);
	bpf_map_delete_elem(&trie, &a);
	bpf_map_delete_elem(&trie, &b);
	if ((__u64)bad % 1000 == ENOMEM)
		__sync_fetch_and_add(&nomem, 1);
	else
		__sync_val_compare_and_swap(&first_bad, 0, bad);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
