/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kfuncs the test programs call, declared here because this tree's
 * bpftool writes only some kfunc prototypes into vmlinux.h.  Include this
 * instead of vmlinux.h.
 */
#ifndef RTBPF_KFUNCS_BPF_H
#define RTBPF_KFUNCS_BPF_H

#define BPF_NO_KFUNC_PROTOTYPES
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

extern void bpf_preempt_disable(void) __ksym;
extern void bpf_preempt_enable(void) __ksym;
extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;

extern int bpf_wq_init(struct bpf_wq *wq, void *p__map, unsigned int flags) __ksym;
extern int bpf_wq_start(struct bpf_wq *wq, unsigned int flags) __ksym;
extern int bpf_wq_set_callback_impl(struct bpf_wq *wq,
				    int (callback_fn)(void *map, int *key, void *value),
				    unsigned int flags__k, void *aux__ign) __ksym;
#define bpf_wq_set_callback(wq, cb, flags) \
	bpf_wq_set_callback_impl(wq, cb, flags, NULL)

/* Objects of the program's own types, stashed in maps as kptrs. */
extern void *bpf_obj_new_impl(__u64 local_type_id__k, void *meta__ign) __ksym;
extern void bpf_obj_drop_impl(void *kptr, void *meta__ign) __ksym;
#define bpf_obj_new(type) \
	((type *)bpf_obj_new_impl(bpf_core_type_id_local(type), NULL))
#define bpf_obj_drop(kptr)	bpf_obj_drop_impl(kptr, NULL)

/* Arena memory: __arena pointers live in the map's address space. */
#define __arena		__attribute__((address_space(1)))
#define NUMA_NO_NODE	(-1)
extern void __arena *bpf_arena_alloc_pages(void *p__map, void __arena *addr__ign,
					   __u32 page_cnt, int node_id,
					   __u64 flags) __ksym;
extern void bpf_arena_free_pages(void *p__map, void __arena *ptr__ign,
				 __u32 page_cnt) __ksym;

#define CLOCK_MONOTONIC	1
#define EBUSY		16
#define EDEADLK		35

#endif
