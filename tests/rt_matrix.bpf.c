// SPDX-License-Identifier: GPL-2.0
/*
 * The RT-safety matrix: one program per cell, map type by context.  Every
 * cell runs the operations its map type has, in a fixed order, and counts
 * what it did in the cell's slot of the global arrays.  All programs are
 * off by default ("?"): user space loads and attaches one cell at a time.
 */
#include "kfuncs.bpf.h"
#include "rt_matrix.h"

#define ENOENT		2
#define EFAULT		14
#define ENOMEM		12
#define EEXIST		17

struct cell_key {
	__u32 ctx;
	__u32 tid;
};

struct lpm_key {
	__u32 prefixlen;
	struct cell_key k;
};

#define HASH_MAP(name, mtype, flags)				\
struct {							\
	__uint(type, mtype);					\
	__uint(map_flags, flags);				\
	__uint(max_entries, 1024);				\
	__type(key, struct cell_key);				\
	__type(value, __u64);					\
} name SEC(".maps")

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, NR_CTXS);
	__type(key, __u32);
	__type(value, __u64);
} m_array SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NR_CTXS);
	__type(key, __u32);
	__type(value, __u64);
} m_percpu_array SEC(".maps");

HASH_MAP(m_hash, BPF_MAP_TYPE_HASH, 0);
HASH_MAP(m_percpu_hash, BPF_MAP_TYPE_PERCPU_HASH, 0);
HASH_MAP(m_lru_hash, BPF_MAP_TYPE_LRU_HASH, 0);
HASH_MAP(m_lru_percpu_hash, BPF_MAP_TYPE_LRU_PERCPU_HASH, 0);
HASH_MAP(m_hash_noprealloc, BPF_MAP_TYPE_HASH, BPF_F_NO_PREALLOC);

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1024);
	__type(key, struct lpm_key);
	__type(value, __u64);
} m_lpm_trie SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 256);
	__type(value, __u64);
} m_queue SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK);
	__uint(max_entries, 256);
	__type(value, __u64);
} m_stack SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4 << 20);
} m_ringbuf SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_BLOOM_FILTER);
	__uint(max_entries, 4096);
	__type(value, __u64);
} m_bloom_filter SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} m_task_storage SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_CGRP_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} m_cgrp_storage SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 4096);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, 32 * sizeof(__u64));
} m_stack_trace SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(int));
} m_perf_event_array SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} m_prog_array SEC(".maps");

/* Entry 0: the veth that sends the test frames. */
struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} m_devmap SEC(".maps");

/* One entry per CPU, each with cpumap_arrive() attached. */
struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct bpf_cpumap_val);
} m_cpumap SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARENA);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 8);			/* pages */
	__ulong(map_extra, 1ull << 44);		/* where user space maps it */
} m_arena SEC(".maps");

/* In the arena's first page, which user space faults in before the cells. */
__u64 __arena arena_hits[NR_CTXS];

/* One timer per row, for the timer cells. */
struct timer_elem {
	struct bpf_timer t;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, NR_MAPS);
	__type(key, __u32);
	__type(value, struct timer_elem);
} m_timers SEC(".maps");

int target_tgid;
__u32 devmap_ifindex;
__u64 devmap_back;		/* frames that came back from the devmap */
__u64 cpumap_seen;		/* frames that reached the cpumap's CPU */

__u64 runs[NR_MAPS][NR_CTXS];
__u64 done[NR_MAPS][NR_CTXS];
__u64 nomem[NR_MAPS][NR_CTXS];
__u64 busy[NR_MAPS][NR_CTXS];
__u32 bad_step[NR_MAPS][NR_CTXS];
long bad_err[NR_MAPS][NR_CTXS];		/* the error of the first bad step */
__u64 seq;

/* Set by a failing step, read by account() of the same run. */
static long step_err;

static __always_inline struct cell_key key_of(int c)
{
	struct cell_key k = { .ctx = c, .tid = (__u32)bpf_get_current_pid_tgid() };

	return k;
}

static __always_inline __u64 next_seq(void)
{
	return __sync_fetch_and_add(&seq, 1) + 1;
}

static __always_inline int op_array_map(void *map, int c)
{
	__u32 k = c;
	__u64 *v = bpf_map_lookup_elem(map, &k);

	if (!v)
		return 1;
	__sync_fetch_and_add(v, 1);
	return STEP_OK;
}

/* Insert the cell's key for this task, find it with its value, delete it. */
static __always_inline int op_hash_map(void *map, int c, bool may_run_dry)
{
	struct cell_key k = key_of(c);
	__u64 v = next_seq(), *p;
	long err;

	err = bpf_map_update_elem(map, &k, &v, BPF_ANY);
	if (err == -ENOMEM && may_run_dry)
		return STEP_NOMEM;
	if (err)
		return step_err = err, 1;
	p = bpf_map_lookup_elem(map, &k);
	if (!p)
		return 2;
	if (*p != v)
		return 3;
	if (bpf_map_delete_elem(map, &k))
		return 4;
	return STEP_OK;
}

static __always_inline int op_array(void *ctx, int c)
{
	return op_array_map(&m_array, c);
}

static __always_inline int op_percpu_array(void *ctx, int c)
{
	return op_array_map(&m_percpu_array, c);
}

static __always_inline int op_hash(void *ctx, int c)
{
	return op_hash_map(&m_hash, c, false);
}

static __always_inline int op_percpu_hash(void *ctx, int c)
{
	return op_hash_map(&m_percpu_hash, c, false);
}

static __always_inline int op_lru_hash(void *ctx, int c)
{
	return op_hash_map(&m_lru_hash, c, false);
}

static __always_inline int op_lru_percpu_hash(void *ctx, int c)
{
	return op_hash_map(&m_lru_percpu_hash, c, false);
}

/* Elements come from bpf_mem_alloc: an empty per-CPU cache is -ENOMEM. */
static __always_inline int op_hash_noprealloc(void *ctx, int c)
{
	return op_hash_map(&m_hash_noprealloc, c, true);
}

static __always_inline int op_lpm_trie(void *ctx, int c)
{
	struct lpm_key k = { .prefixlen = 64, .k = key_of(c) };
	__u64 v = next_seq(), *p;
	long err;

	err = bpf_map_update_elem(&m_lpm_trie, &k, &v, BPF_ANY);
	if (err == -ENOMEM)
		return STEP_NOMEM;
	if (err)
		return step_err = err, 1;
	p = bpf_map_lookup_elem(&m_lpm_trie, &k);
	if (!p)
		return 2;
	if (*p != v)
		return 3;
	if (bpf_map_delete_elem(&m_lpm_trie, &k))
		return 4;
	return STEP_OK;
}

/*
 * Push, peek, pop.  Every run pops only after its own push, so the map is
 * never empty when a run peeks or pops, whoever's value it gets.
 */
static __always_inline int op_queue_stack(void *map)
{
	__u64 v = next_seq();

	if (bpf_map_push_elem(map, &v, 0))
		return 1;
	if (bpf_map_peek_elem(map, &v))
		return 2;
	if (bpf_map_pop_elem(map, &v))
		return 3;
	return STEP_OK;
}

static __always_inline int op_queue(void *ctx, int c)
{
	return op_queue_stack(&m_queue);
}

static __always_inline int op_stack(void *ctx, int c)
{
	return op_queue_stack(&m_stack);
}

/* Two records: one reserved and submitted, one output. */
static __always_inline int op_ringbuf(void *ctx, int c)
{
	struct matrix_rec r = { .map = M_RINGBUF, .ctx = c };
	struct matrix_rec *p;

	p = bpf_ringbuf_reserve(&m_ringbuf, sizeof(*p), 0);
	if (!p)
		return 1;
	p->map = M_RINGBUF;
	p->ctx = c;
	p->seq = next_seq();
	bpf_ringbuf_submit(p, 0);
	r.seq = next_seq();
	if (bpf_ringbuf_output(&m_ringbuf, &r, sizeof(r), 0))
		return 2;
	return STEP_OK;
}

static __always_inline int op_bloom_filter(void *ctx, int c)
{
	__u64 v = next_seq();

	if (bpf_map_push_elem(&m_bloom_filter, &v, BPF_ANY))
		return 1;
	if (bpf_map_peek_elem(&m_bloom_filter, &v))
		return 2;
	return STEP_OK;
}

/*
 * Get with create, delete, get with create again.  The first get finds
 * the storage the previous run made, but for a task's first run; the
 * second allocates.  A NULL from a get may be an empty allocator cache,
 * so it is tolerated within the run-dry bound.  A busy storage fails the
 * delete with -EBUSY: counted apart, since on RT it must never happen and
 * without RT it is what the per-CPU busy counter does to a preempted
 * neighbour.
 */
static __always_inline int op_task_storage(void *ctx, int c)
{
	struct task_struct *t = bpf_get_current_task_btf();
	__u64 *p;
	long err;

	p = bpf_task_storage_get(&m_task_storage, t, 0,
				 BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!p)
		return STEP_NOMEM;
	__sync_fetch_and_add(p, 1);
	err = bpf_task_storage_delete(&m_task_storage, t);
	if (err == -EBUSY)
		return STEP_BUSY;
	if (err)
		return step_err = err, 2;
	if (!bpf_task_storage_get(&m_task_storage, t, 0,
				  BPF_LOCAL_STORAGE_GET_F_CREATE))
		return STEP_NOMEM;
	return STEP_OK;
}

/*
 * The same on the cgroup of the current task.  All the test's threads are
 * in one cgroup, so another thread may delete the storage between this
 * run's get and delete (-ENOENT), or create it between this get's lookup
 * and its insert (a NULL get): those are the races of sharing, while
 * -EBUSY is the failure.  A syscall program is sleepable and must hold
 * RCU to reach the cgroup.
 */
static __always_inline int op_cgrp_storage(void *ctx, int c)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct cgroup *cg;
	int step = STEP_OK;
	__u64 *p;
	long err;

	if (c == C_SYSCALL)
		bpf_rcu_read_lock();
	cg = t->cgroups->dfl_cgrp;
	p = bpf_cgrp_storage_get(&m_cgrp_storage, cg, 0,
				 BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!p) {
		step = STEP_NOMEM;
		goto out;
	}
	__sync_fetch_and_add(p, 1);
	err = bpf_cgrp_storage_delete(&m_cgrp_storage, cg);
	if (err == -EBUSY) {
		step = STEP_BUSY;
		goto out;
	}
	if (err && err != -ENOENT) {
		step_err = err;
		step = 2;
		goto out;
	}
	if (!bpf_cgrp_storage_get(&m_cgrp_storage, cg, 0,
				  BPF_LOCAL_STORAGE_GET_F_CREATE))
		step = STEP_NOMEM;
out:
	if (c == C_SYSCALL)
		bpf_rcu_read_unlock();
	return step;
}

/*
 * The same stack twice is -EEXIST without BPF_F_REUSE_STACKID: fine.  A
 * cpu-clock sample taken in user mode has no kernel stack: -EFAULT.
 */
static __always_inline int op_stack_trace(void *ctx, int c)
{
	long id = bpf_get_stackid(ctx, &m_stack_trace, 0);

	if (id < 0 && id != -EEXIST && !(c == C_PERF_EVENT && id == -EFAULT))
		return step_err = id, 1;
	return STEP_OK;
}

static __always_inline int op_perf_event_array(void *ctx, int c)
{
	struct matrix_rec r = { .map = M_PERF_EVENT_ARRAY, .ctx = c };

	r.seq = next_seq();
	step_err = bpf_perf_event_output(ctx, &m_perf_event_array,
					 BPF_F_CURRENT_CPU, &r, sizeof(r));
	if (step_err)
		return 1;
	return STEP_OK;
}

/* The tail call does not return: the target accounts for the run. */
static __always_inline int op_prog_array(void *ctx, int c)
{
	bpf_tail_call(ctx, &m_prog_array, 0);
	return 1;
}

static __always_inline int op_devmap(void *ctx, int c)
{
	__u32 k = 0, *ifindex = bpf_map_lookup_elem(&m_devmap, &k);

	if (!ifindex)
		return 1;
	if (*ifindex != devmap_ifindex)
		return 2;
	return STEP_OK;
}

/* Only XDP may redirect: everywhere else the verifier refuses the call. */
static __always_inline int op_cpumap(void *ctx, int c)
{
	bpf_redirect_map(&m_cpumap, 0, 0);
	return STEP_OK;
}

/*
 * A counter in arena memory.  A syscall program may sleep, so it also
 * takes a page from the arena and gives it back.
 */
static __always_inline int op_arena(void *ctx, int c)
{
	if (c == C_SYSCALL) {
		void __arena *page;

		page = bpf_arena_alloc_pages(&m_arena, NULL, 1, NUMA_NO_NODE, 0);
		if (!page)
			return 1;
		*(volatile __u64 __arena *)page = c;
		bpf_arena_free_pages(&m_arena, page, 1);
	}
	__sync_fetch_and_add(&arena_hits[c], 1);
	return STEP_OK;
}

static __always_inline void account(int m, int c, int step)
{
	__sync_fetch_and_add(&runs[m][c], 1);
	if (step == STEP_OK)
		__sync_fetch_and_add(&done[m][c], 1);
	else if (step == STEP_NOMEM)
		__sync_fetch_and_add(&nomem[m][c], 1);
	else if (step == STEP_BUSY)
		__sync_fetch_and_add(&busy[m][c], 1);
	else if (!bad_step[m][c]) {
		bad_step[m][c] = step;
		bad_err[m][c] = step_err;
	}
}

/*
 * Hooks that fire for every process count only the test's own calls; an
 * iterator read runs once, for its first task.
 */
static __always_inline bool mine(void *ctx, int c)
{
	switch (c) {
	case C_SYSCALL:
	case C_XDP:
	case C_TC:
	case C_CGROUP_SKB:
		return true;
	case C_ITER:
		return ((struct bpf_iter__task *)ctx)->meta->seq_num == 0;
	default:
		return bpf_get_current_pid_tgid() >> 32 == target_tgid;
	}
}

#define CELL(map, M, ctx, C, sec, ret)				\
SEC("?" sec)							\
int map##__##ctx(void *pctx)					\
{								\
	if (mine(pctx, C))					\
		account(M, C, op_##map(pctx, C));		\
	return ret;						\
}

#define ROW_BUT_XDP_TIMER(map, M)					\
	CELL(map, M, syscall, C_SYSCALL, "syscall", 0)			\
	CELL(map, M, raw_tp, C_RAW_TP, "raw_tp/sys_enter", 0)		\
	CELL(map, M, tp_btf, C_TP_BTF, "tp_btf/sys_enter", 0)		\
	CELL(map, M, tp, C_TP, "tp/syscalls/sys_enter_getpgid", 0)	\
	CELL(map, M, kprobe, C_KPROBE, "kprobe/" TRIGGER_FUNC, 0)	\
	CELL(map, M, kretprobe, C_KRETPROBE, "kretprobe/" TRIGGER_FUNC, 0) \
	CELL(map, M, fentry, C_FENTRY, "fentry/" TRIGGER_FUNC, 0)	\
	CELL(map, M, fexit, C_FEXIT, "fexit/" TRIGGER_FUNC, 0)		\
	CELL(map, M, perf_event, C_PERF_EVENT, "perf_event", 0)		\
	CELL(map, M, tc, C_TC, "tcx/ingress", 0)			\
	CELL(map, M, iter, C_ITER, "iter/task", 0)			\
	CELL(map, M, cgroup_skb, C_CGROUP_SKB, "cgroup_skb/egress", 1)

/*
 * A timer cell arms the row's timer from an fentry program on the
 * trigger (kprobe and tracepoint programs may not use bpf_timer); its
 * callback, in the timer's softirq, runs the operations.  A callback has
 * no context of its own to pass to the helpers that want one.
 */
#define TIMER_CELL(map, M)						\
static int map##__callback(void *m, int *key, struct timer_elem *v)	\
{									\
	account(M, C_TIMER, op_##map(NULL, C_TIMER));			\
	return 0;							\
}									\
									\
SEC("?fentry/" TRIGGER_FUNC)						\
int map##__timer(void *pctx)						\
{									\
	struct timer_elem *v;						\
	__u32 k = M;							\
									\
	if (!mine(pctx, C_TIMER))					\
		return 0;						\
	v = bpf_map_lookup_elem(&m_timers, &k);				\
	if (!v)								\
		return 0;						\
	bpf_timer_init(&v->t, &m_timers, CLOCK_MONOTONIC);		\
	bpf_timer_set_callback(&v->t, map##__callback);			\
	bpf_timer_start(&v->t, 0, 0);					\
	return 0;							\
}

#define ROW_BUT_XDP(map, M)						\
	ROW_BUT_XDP_TIMER(map, M)					\
	TIMER_CELL(map, M)

#define ROW(map, M)							\
	ROW_BUT_XDP(map, M)						\
	CELL(map, M, xdp, C_XDP, "xdp", XDP_PASS)

ROW(array, M_ARRAY)
ROW(percpu_array, M_PERCPU_ARRAY)
ROW(hash, M_HASH)
ROW(percpu_hash, M_PERCPU_HASH)
ROW(lru_hash, M_LRU_HASH)
ROW(lru_percpu_hash, M_LRU_PERCPU_HASH)
ROW(hash_noprealloc, M_HASH_NOPREALLOC)
ROW(lpm_trie, M_LPM_TRIE)
ROW(queue, M_QUEUE)
ROW(stack, M_STACK)
ROW(ringbuf, M_RINGBUF)
ROW(bloom_filter, M_BLOOM_FILTER)
ROW(task_storage, M_TASK_STORAGE)
ROW(cgrp_storage, M_CGRP_STORAGE)
ROW(stack_trace, M_STACK_TRACE)
ROW(perf_event_array, M_PERF_EVENT_ARRAY)
ROW(prog_array, M_PROG_ARRAY)
ROW(arena, M_ARENA)
ROW_BUT_XDP(devmap, M_DEVMAP)
ROW_BUT_XDP(cpumap, M_CPUMAP)

/* The tail call targets of the prog_array cells, one per program type. */
#define TAIL(ctx, C, sec, ret)						\
SEC("?" sec)								\
int tail__##ctx(void *pctx)						\
{									\
	account(M_PROG_ARRAY, C, STEP_OK);				\
	return ret;							\
}

TAIL(raw_tp, C_RAW_TP, "raw_tp/sys_enter", 0)
TAIL(tp_btf, C_TP_BTF, "tp_btf/sys_enter", 0)
TAIL(tp, C_TP, "tp/syscalls/sys_enter_getpgid", 0)
TAIL(kprobe, C_KPROBE, "kprobe/" TRIGGER_FUNC, 0)
TAIL(kretprobe, C_KRETPROBE, "kretprobe/" TRIGGER_FUNC, 0)
TAIL(fentry, C_FENTRY, "fentry/" TRIGGER_FUNC, 0)
TAIL(fexit, C_FEXIT, "fexit/" TRIGGER_FUNC, 0)
TAIL(perf_event, C_PERF_EVENT, "perf_event", 0)
TAIL(xdp, C_XDP, "xdp", XDP_PASS)
TAIL(tc, C_TC, "tcx/ingress", 0)
TAIL(iter, C_ITER, "iter/task", 0)
TAIL(cgroup_skb, C_CGROUP_SKB, "cgroup_skb/egress", 1)

/*
 * Send the frame back out of the veth it came from, through the devmap.
 * It arrives here once more, marked, and goes up the stack: every frame
 * the cell redirects must come back exactly once.
 */
SEC("?xdp")
int devmap__xdp(struct xdp_md *ctx)
{
	__u8 *data = (void *)(long)ctx->data;
	__u8 *end = (void *)(long)ctx->data_end;
	long act;
	int step;

	if (data + BOUNCE_OFF + 1 > end)
		return XDP_PASS;
	if (data[BOUNCE_OFF] == BOUNCE_MARK) {
		__sync_fetch_and_add(&devmap_back, 1);
		return XDP_PASS;
	}
	data[BOUNCE_OFF] = BOUNCE_MARK;
	step = op_devmap(ctx, C_XDP);
	act = bpf_redirect_map(&m_devmap, 0, XDP_PASS);
	if (step == STEP_OK && act != XDP_REDIRECT)
		step_err = act, step = 3;
	account(M_DEVMAP, C_XDP, step);
	return act;
}

/* Hand the frame to the other CPU's cpumap thread. */
SEC("?xdp")
int cpumap__xdp(struct xdp_md *ctx)
{
	__u32 cpu = (bpf_get_smp_processor_id() + 1) & 1;
	long act = bpf_redirect_map(&m_cpumap, cpu, XDP_ABORTED);

	if (act != XDP_REDIRECT)
		step_err = act;
	account(M_CPUMAP, C_XDP, act == XDP_REDIRECT ? STEP_OK : 1);
	return act;
}

/* Runs on the cpumap's CPU, in its thread, for every frame it gets. */
SEC("?xdp/cpumap")
int cpumap_arrive(struct xdp_md *ctx)
{
	__sync_fetch_and_add(&cpumap_seen, 1);
	return XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
