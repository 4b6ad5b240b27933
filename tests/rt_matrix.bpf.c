// SPDX-License-Identifier: GPL-2.0
/*
 * The RT-safety matrix: one program per cell, map type by context.  Every
 * cell runs the operations its map type has, in a fixed order, and counts
 * what it did in the cell's slot of the global arrays.  All programs are
 * off by default ("?"): user space loads and attaches one cell at a time.
 */
#include "kfuncs.bpf.h"
#include <bpf/bpf_endian.h>
#include "rt_matrix.h"

#define ENOENT		2
#define EFAULT		14
#define ENOMEM		12
#define EEXIST		17
#define AF_INET		2

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
	__uint(type, BPF_MAP_TYPE_INODE_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} m_inode_storage SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} m_sk_storage SEC(".maps");

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

/* Slot and key 0: the test's UDP sink, put there by user space. */
struct {
	__uint(type, BPF_MAP_TYPE_SOCKMAP);
	__uint(max_entries, SOCK_SLOTS);
	__type(key, __u32);
	__type(value, __u64);
} m_sockmap SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_SOCKHASH);
	__uint(max_entries, SOCK_SLOTS);
	__type(key, __u32);
	__type(value, __u64);
} m_sockhash SEC(".maps");

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
__u32 sink_addr;		/* the UDP sink, network order */
__u16 sink_port;		/* its port, host order */

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
 * Storage that all the test's threads share (a cgroup, an inode, a
 * socket), the same way: get with create, delete, get with create again.
 * A get that loses the race to create the storage returns NULL; asked
 * once more, it finds the winner's.  Another thread may delete the
 * storage between this run's get and delete (-ENOENT): those are the
 * races of sharing, while -EBUSY is the failure, as above.
 */
#define SHARED_STORAGE_OP(name, map, type, get, del, create)		\
static __always_inline __u64 *name##_get(type owner)			\
{									\
	__u64 *p = get(&map, owner, 0, create);				\
									\
	return p ?: get(&map, owner, 0, create);			\
}									\
									\
static __always_inline int name(type owner)				\
{									\
	__u64 *p = name##_get(owner);					\
	long err;							\
									\
	if (!p)								\
		return STEP_NOMEM;					\
	__sync_fetch_and_add(p, 1);					\
	err = del(&map, owner);						\
	if (err == -EBUSY)						\
		return STEP_BUSY;					\
	if (err && err != -ENOENT)					\
		return step_err = err, 2;				\
	if (!name##_get(owner))						\
		return STEP_NOMEM;					\
	return STEP_OK;							\
}

SHARED_STORAGE_OP(cgrp_storage_on, m_cgrp_storage, struct cgroup *,
		  bpf_cgrp_storage_get, bpf_cgrp_storage_delete,
		  BPF_LOCAL_STORAGE_GET_F_CREATE)
SHARED_STORAGE_OP(inode_storage_on, m_inode_storage, struct inode *,
		  bpf_inode_storage_get, bpf_inode_storage_delete,
		  BPF_LOCAL_STORAGE_GET_F_CREATE)
SHARED_STORAGE_OP(sk_storage_on, m_sk_storage, void *,
		  bpf_sk_storage_get, bpf_sk_storage_delete,
		  BPF_SK_STORAGE_GET_F_CREATE)

/*
 * The cgroup of the current task: all the test's threads are in one.  A
 * syscall program is sleepable and must hold RCU to reach the cgroup.
 */
static __always_inline int op_cgrp_storage(void *ctx, int c)
{
	struct task_struct *t = bpf_get_current_task_btf();
	int step;

	if (c == C_SYSCALL)
		bpf_rcu_read_lock();
	step = cgrp_storage_on(t->cgroups->dfl_cgrp);
	if (c == C_SYSCALL)
		bpf_rcu_read_unlock();
	return step;
}

/*
 * The inode of the test's executable.  Only LSM programs have the inode
 * storage helpers: elsewhere the verifier refuses the cell at the first
 * of them.
 */
static __always_inline int op_inode_storage(void *ctx, int c)
{
	struct task_struct *t = bpf_get_current_task_btf();

	return inode_storage_on(t->mm->exe_file->f_inode);
}

/* The first argument of a hook, for the cells that take it from there. */
static __always_inline void *arg0(void *ctx)
{
	return (void *)((__u64 *)ctx)[0];
}

/* The test's UDP sink, with a reference: tc and XDP cells find it so. */
static __always_inline struct bpf_sock *lookup_sink(void *ctx)
{
	struct bpf_sock_tuple t = {
		.ipv4.daddr = sink_addr,
		.ipv4.dport = bpf_htons(sink_port),
	};

	return bpf_sk_lookup_udp(ctx, &t, sizeof(t.ipv4), BPF_F_CURRENT_NETNS, 0);
}

/*
 * Where the socket comes from: the sink (tc), the sending socket
 * (cgroup_skb, and the hooks on sending: tp_btf, fentry, fexit, lsm), the
 * connection (sock_ops) or the socket visited (iterator).  The other
 * contexts have no socket, and no socket storage helpers either.
 */
static __always_inline int op_sk_storage(void *ctx, int c)
{
	struct socket *sock;
	struct bpf_sock *sk;
	struct udp_sock *u;
	int step;

	switch (c) {
	case C_TC:
		sk = lookup_sink(ctx);
		if (!sk)
			return 1;
		step = sk_storage_on(sk);
		bpf_sk_release(sk);
		return step;
	case C_CGROUP_SKB:
		sk = ((struct __sk_buff *)ctx)->sk;
		if (sk)
			sk = bpf_sk_fullsock(sk);
		return sk ? sk_storage_on(sk) : 1;
	case C_SOCK_OPS:
		sk = ((struct bpf_sock_ops *)ctx)->sk;
		return sk ? sk_storage_on(sk) : 1;
	case C_ITER:
		u = ((struct bpf_iter__udp *)ctx)->udp_sk;
		return u ? sk_storage_on(u) : 1;
	case C_LSM:
		sock = arg0(ctx);
		sk = (void *)sock->sk;
		return sk ? sk_storage_on(sk) : 1;
	case C_TP_BTF:
	case C_FENTRY:
	case C_FEXIT:
		return sk_storage_on(arg0(ctx));
	default:
		return sk_storage_on(NULL);
	}
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

/* The sink in slot 0, looked up and let go. */
static __always_inline int sink_found(void *map, __u32 k)
{
	struct bpf_sock *s = bpf_map_lookup_elem(map, &k);
	int step = STEP_OK;

	if (!s)
		return 11;
	if (s->src_port != sink_port)
		step = 12;
	bpf_sk_release(s);
	return step;
}

/*
 * Sockmap and sockhash.  Where a program may update them (tc and XDP with
 * the sink, an iterator with the socket it visits, sock_ops with its
 * connection) a run puts the socket in a slot of its own, finds it there
 * where it can let go of what a lookup returns (tc, XDP), and deletes it.
 * cgroup_skb may only look up, and finds the sink in slot 0.  Tracing
 * programs may neither update these maps nor release the socket a lookup
 * holds: the lookup they make is refused.
 */
static __always_inline int op_sock_map(void *map, void *ctx, int c, bool hash)
{
	__u32 k = 1 + next_seq() % (SOCK_SLOTS - 1);
	struct bpf_sock *sk;
	struct udp_sock *u;
	int step;
	long err;

	switch (c) {
	case C_TC:
	case C_XDP:
		sk = lookup_sink(ctx);
		if (!sk)
			return 1;
		err = bpf_map_update_elem(map, &k, sk, BPF_NOEXIST);
		if (err) {
			step_err = err;
			step = 2;
		} else {
			step = sink_found(map, k);
			err = bpf_map_delete_elem(map, &k);
			if (err && step == STEP_OK)
				step_err = err, step = 4;
		}
		bpf_sk_release(sk);
		return step;
	case C_ITER:
		u = ((struct bpf_iter__udp *)ctx)->udp_sk;
		if (!u)
			return 1;
		err = bpf_map_update_elem(map, &k, u, BPF_NOEXIST);
		break;
	case C_SOCK_OPS:
		if (hash)
			err = bpf_sock_hash_update(ctx, map, &k, BPF_NOEXIST);
		else
			err = bpf_sock_map_update(ctx, map, &k, BPF_NOEXIST);
		break;
	case C_CGROUP_SKB:
		return sink_found(map, 0);
	default:
		k = 0;
		return bpf_map_lookup_elem(map, &k) ? STEP_OK : 11;
	}
	if (err)
		return step_err = err, 2;
	err = bpf_map_delete_elem(map, &k);
	if (err)
		return step_err = err, 4;
	return STEP_OK;
}

static __always_inline int op_sockmap(void *ctx, int c)
{
	return op_sock_map(&m_sockmap, ctx, c, false);
}

static __always_inline int op_sockhash(void *ctx, int c)
{
	return op_sock_map(&m_sockhash, ctx, c, true);
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
	case C_SOCK_OPS:
		return ((struct bpf_sock_ops *)ctx)->op ==
		       BPF_SOCK_OPS_ACTIVE_ESTABLISHED_CB;
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

/*
 * The cells of a row but for XDP and the timer.  The tp_btf, fentry,
 * fexit, lsm and iterator cells hook what the row says: getpgid() and
 * tasks, or for the socket rows the sending of a datagram and UDP sockets.
 */
#define CELLS(map, M, at_tp, at_func, at_lsm, at_iter)			\
	CELL(map, M, syscall, C_SYSCALL, "syscall", 0)			\
	CELL(map, M, raw_tp, C_RAW_TP, "raw_tp/sys_enter", 0)		\
	CELL(map, M, tp_btf, C_TP_BTF, "tp_btf/" at_tp, 0)		\
	CELL(map, M, tp, C_TP, "tp/syscalls/sys_enter_getpgid", 0)	\
	CELL(map, M, kprobe, C_KPROBE, "kprobe/" TRIGGER_FUNC, 0)	\
	CELL(map, M, kretprobe, C_KRETPROBE, "kretprobe/" TRIGGER_FUNC, 0) \
	CELL(map, M, fentry, C_FENTRY, "fentry/" at_func, 0)		\
	CELL(map, M, fexit, C_FEXIT, "fexit/" at_func, 0)		\
	CELL(map, M, lsm, C_LSM, "lsm/" at_lsm, 0)			\
	CELL(map, M, perf_event, C_PERF_EVENT, "perf_event", 0)		\
	CELL(map, M, tc, C_TC, "tcx/ingress", 0)			\
	CELL(map, M, cgroup_skb, C_CGROUP_SKB, "cgroup_skb/egress", 1)	\
	CELL(map, M, sock_ops, C_SOCK_OPS, "sockops", 1)		\
	CELL(map, M, iter, C_ITER, "iter/" at_iter, 0)

#define ROW_BUT_XDP_TIMER(map, M)					\
	CELLS(map, M, "sys_enter", TRIGGER_FUNC, "task_getpgid", "task")

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
ROW(inode_storage, M_INODE_STORAGE)
ROW(stack_trace, M_STACK_TRACE)
ROW(perf_event_array, M_PERF_EVENT_ARRAY)
ROW(prog_array, M_PROG_ARRAY)
ROW(arena, M_ARENA)
ROW_BUT_XDP(devmap, M_DEVMAP)
ROW_BUT_XDP(cpumap, M_CPUMAP)

/*
 * The socket rows.  A timer callback has no socket to work on: socket
 * storage has no timer cell, and the socket maps' one makes the lookup
 * tracing programs are refused.
 */
#define SOCK_ROW_BUT_TIMER(map, M)					\
	CELLS(map, M, SOCK_TP, SOCK_FUNC, SOCK_LSM, "udp")		\
	CELL(map, M, xdp, C_XDP, "xdp", XDP_PASS)

SOCK_ROW_BUT_TIMER(sk_storage, M_SK_STORAGE)
SOCK_ROW_BUT_TIMER(sockmap, M_SOCKMAP)
TIMER_CELL(sockmap, M_SOCKMAP)
SOCK_ROW_BUT_TIMER(sockhash, M_SOCKHASH)
TIMER_CELL(sockhash, M_SOCKHASH)

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
TAIL(lsm, C_LSM, "lsm/task_getpgid", 0)
TAIL(perf_event, C_PERF_EVENT, "perf_event", 0)
TAIL(xdp, C_XDP, "xdp", XDP_PASS)
TAIL(tc, C_TC, "tcx/ingress", 0)
TAIL(iter, C_ITER, "iter/task", 0)
TAIL(cgroup_skb, C_CGROUP_SKB, "cgroup_skb/egress", 1)
TAIL(sock_ops, C_SOCK_OPS, "sockops", 1)

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
