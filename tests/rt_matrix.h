/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by rt_matrix.c and rt_matrix.bpf.c: the rows and columns. */
#ifndef RT_MATRIX_H
#define RT_MATRIX_H

/* Map types, the rows. */
enum {
	M_ARRAY,
	M_PERCPU_ARRAY,
	M_HASH,
	M_PERCPU_HASH,
	M_LRU_HASH,
	M_LRU_PERCPU_HASH,
	M_HASH_NOPREALLOC,
	M_LPM_TRIE,
	M_QUEUE,
	M_STACK,
	M_RINGBUF,
	M_BLOOM_FILTER,
	M_TASK_STORAGE,
	M_CGRP_STORAGE,
	M_INODE_STORAGE,
	M_SK_STORAGE,
	M_STACK_TRACE,
	M_PERF_EVENT_ARRAY,
	M_PROG_ARRAY,
	M_DEVMAP,
	M_CPUMAP,
	M_SOCKMAP,
	M_SOCKHASH,
	M_ARENA,
	NR_MAPS
};

/* Program contexts, the columns. */
enum {
	C_SYSCALL,	/* SEC("syscall"), BPF_PROG_TEST_RUN */
	C_RAW_TP,	/* raw_tp/sys_enter */
	C_TP_BTF,	/* tp_btf/sys_enter */
	C_TP,		/* tp/syscalls/sys_enter_getpgid, through perf */
	C_KPROBE,	/* kprobe on the getpgid syscall */
	C_KRETPROBE,	/* kretprobe on it */
	C_FENTRY,	/* fentry on it */
	C_FEXIT,	/* fexit on it */
	C_LSM,		/* the BPF LSM hook task_getpgid */
	C_PERF_EVENT,	/* cpu-clock sampling: hrtimer interrupt */
	C_XDP,		/* XDP on a veth, in its NAPI poll */
	C_TC,		/* tc ingress on the same veth */
	C_CGROUP_SKB,	/* cgroup_skb/egress of the test's cgroup: UDP sends */
	C_SOCK_OPS,	/* sock_ops of the test's cgroup: TCP connects on lo */
	C_ITER,		/* iter/task, run by read() */
	C_TIMER,	/* a bpf_timer callback, armed from fentry */
	NR_CTXS
};

/* What a run of a cell returns: 0, a failing step, or a tolerated miss. */
#define STEP_OK		0
#define STEP_NOMEM	100	/* a tolerated miss: -ENOMEM, a NULL storage get */
#define STEP_BUSY	101	/* storage busy on this CPU: a failure on RT */

/* One ringbuf or perf event record: who wrote it. */
struct matrix_rec {
	__u32 map;
	__u32 ctx;
	__u64 seq;
};

#define TRIGGER_FUNC	"__x64_sys_getpgid"

/*
 * The socket rows (sk_storage, sockmap, sockhash) need a socket where a
 * cell runs.  Their fentry, fexit, tp_btf and lsm cells hook the sending
 * of a UDP datagram instead of getpgid(), and take the socket from it;
 * their iterator walks UDP sockets.
 */
#define SOCK_FUNC	"udp_sendmsg"
#define SOCK_TP		"sock_send_length"
#define SOCK_LSM	"socket_sendmsg"

/* Slots of the sockmap and keys of the sockhash; 0 holds the UDP sink. */
#define SOCK_SLOTS	1024

/* The byte an XDP devmap cell marks a frame with before sending it back. */
#define BOUNCE_OFF	14
#define BOUNCE_MARK	0x5a

#endif
