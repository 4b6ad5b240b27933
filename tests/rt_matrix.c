// SPDX-License-Identifier: GPL-2.0
/*
 * The RT-safety matrix: every map type this test knows, with the
 * operations it has, from every program context, one cell at a time.
 *
 * A cell is loaded on its own, so that the verifier's refusal of one
 * combination is seen as that cell's and checked against the documented
 * rule.  A loaded cell is attached and driven from both CPUs at once: on
 * each, a SCHED_OTHER thread triggers it back to back while a SCHED_FIFO
 * thread wakes every millisecond and triggers it too, preempting the
 * other one, inside the program where the program can be preempted.
 *
 * A cell passes when every run did every step (up to 5% of the runs may
 * miss where the map type allows it: -ENOMEM from an allocator that can
 * run dry in atomic context, a NULL storage get), the counts add up (the
 * array counter, every ringbuf and perf event record consumed once, the
 * hash maps and tries empty again, exact run counts on the hooks only the
 * test calls) and the kernel log shows nothing new.  Each cell is judged
 * on its own kernel log lines, so a splat names its cell.
 *
 * Rows beyond the plain maps: a prog_array cell tail-calls a target of
 * its own program type, which counts the run; a devmap cell looks its
 * entry up, and in XDP sends the frame back out of the veth it came in
 * on, where it must arrive once more; a cpumap cell hands XDP frames to
 * the other CPU's cpumap thread, which counts them; an arena cell counts
 * in arena memory, and as a syscall program also allocates and frees an
 * arena page.  The cgroup_skb cells run on the egress of UDP datagrams
 * the test sends to itself from a cgroup of its own, the sock_ops cells
 * once for every TCP connection it makes there, when it is established.
 *
 * The socket rows need a socket.  Socket storage is kept on the UDP sink
 * (tc, found by bpf_sk_lookup_udp()), the sending socket (cgroup_skb, and
 * the tp_btf, fentry, fexit and lsm cells, which hook the sending of a
 * datagram instead of getpgid()), the connection (sock_ops) or the UDP
 * socket an iterator visits.  The sockmap and sockhash cells put such a
 * socket in a slot of their own and delete it, where a program may; slot
 * 0 holds the sink for the lookups of the others.  Inode storage is on
 * the test's executable, and only LSM programs may use it.
 *
 * Lockdep reports once per boot.  With rtbpf.matrix_isolate=1 on the
 * kernel command line the test stops after the first cell that splats,
 * and with rtbpf.matrix_after=MAP/CTX it starts after that cell: the
 * host boots again until every cell has run (scripts/matrix.sh).  Each
 * cell is announced on the console first, so that a cell that kills the
 * kernel is known too.
 *
 * On RT nothing may be missed.  Without RT two behaviours stay as they
 * are, by design of the series: a trampoline program preempted by another
 * task on its CPU makes that task's run a recursion miss (per-CPU guard),
 * and a storage operation preempted the same way makes the other task's
 * delete fail with -EBUSY (per-CPU busy counter).  There the test checks
 * that runs and misses add up to the calls instead.
 *
 * XFAIL on stock PREEMPT_RT: LPM trie, task and cgroup storage fail from atomic and preempted contexts, timers are refused (0004-0012)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/socket.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/stat.h>
#include <linux/if_link.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "test.h"
#include "net.h"
#include "rt_matrix.h"
#include "rt_matrix.skel.h"

#define NCPU		2
#define WORK_ROUNDS	150	/* triggers per SCHED_OTHER thread */
#define FIFO_ROUNDS	30	/* triggers per SCHED_FIFO thread, 1 ms apart */
#define FIFO_PRIO	50
#define PERF_MS		40	/* how long the perf_event cells are driven */
#define SAMPLE_NS	200000	/* cpu-clock period of the perf_event cells */
#define VETH		"rtmx0"
#define VETH_PEER	"rtmx1"

static const char *const map_names[NR_MAPS] = {
	[M_ARRAY] = "array", [M_PERCPU_ARRAY] = "percpu_array",
	[M_HASH] = "hash", [M_PERCPU_HASH] = "percpu_hash",
	[M_LRU_HASH] = "lru_hash", [M_LRU_PERCPU_HASH] = "lru_percpu_hash",
	[M_HASH_NOPREALLOC] = "hash_noprealloc", [M_LPM_TRIE] = "lpm_trie",
	[M_QUEUE] = "queue", [M_STACK] = "stack", [M_RINGBUF] = "ringbuf",
	[M_BLOOM_FILTER] = "bloom_filter", [M_TASK_STORAGE] = "task_storage",
	[M_CGRP_STORAGE] = "cgrp_storage", [M_INODE_STORAGE] = "inode_storage",
	[M_SK_STORAGE] = "sk_storage", [M_STACK_TRACE] = "stack_trace",
	[M_PERF_EVENT_ARRAY] = "perf_event_array", [M_PROG_ARRAY] = "prog_array",
	[M_DEVMAP] = "devmap", [M_CPUMAP] = "cpumap", [M_SOCKMAP] = "sockmap",
	[M_SOCKHASH] = "sockhash", [M_ARENA] = "arena",
};

static const char *const ctx_names[NR_CTXS] = {
	[C_SYSCALL] = "syscall", [C_RAW_TP] = "raw_tp", [C_TP_BTF] = "tp_btf",
	[C_TP] = "tp", [C_KPROBE] = "kprobe", [C_KRETPROBE] = "kretprobe",
	[C_FENTRY] = "fentry", [C_FEXIT] = "fexit", [C_LSM] = "lsm",
	[C_PERF_EVENT] = "perf_event", [C_XDP] = "xdp", [C_TC] = "tc",
	[C_CGROUP_SKB] = "cgroup_skb", [C_SOCK_OPS] = "sock_ops",
	[C_ITER] = "iter", [C_TIMER] = "timer",
};

#define SLEEPABLE_MAPS \
	"Sleepable programs can only use array, hash, ringbuf and local storage maps"
#define NO_HELPER	"program of this type cannot use helper "
#define REDIRECT_MAP	"bpf_redirect_map#"
#define NO_CTX		"R1 type=scalar expected=ctx"
#define UNRELEASED	"Unreleased reference"

/*
 * Combinations the verifier refuses on purpose, RT or not, and the
 * message it gives.  A refusal not listed here fails its cell, and so
 * does a listed one that loads.
 */
static const struct {
	int map, ctx;
	const char *why;
} refusals[] = {
	/*
	 * Syscall programs are sleepable, and a sleepable program may only
	 * use maps whose elements are freed after an RCU tasks trace grace
	 * period (check_map_prog_compatibility()).
	 */
	{ M_LPM_TRIE, C_SYSCALL, SLEEPABLE_MAPS },
	{ M_BLOOM_FILTER, C_SYSCALL, SLEEPABLE_MAPS },
	{ M_STACK_TRACE, C_SYSCALL, SLEEPABLE_MAPS },
	{ M_PERF_EVENT_ARRAY, C_SYSCALL, SLEEPABLE_MAPS },
	{ M_PROG_ARRAY, C_SYSCALL, SLEEPABLE_MAPS },
	{ M_DEVMAP, C_SYSCALL, SLEEPABLE_MAPS },
	{ M_CPUMAP, C_SYSCALL, SLEEPABLE_MAPS },
	/*
	 * Syscall programs get the tracing flavour of the socket storage
	 * helpers, which only tracing programs that cannot be inside the
	 * storage code may call (bpf_sk_storage_tracing_allowed()).
	 */
	{ M_SK_STORAGE, C_SYSCALL, "helper call is not allowed in probe" },
	{ M_SOCKMAP, C_SYSCALL, SLEEPABLE_MAPS },
	{ M_SOCKHASH, C_SYSCALL, SLEEPABLE_MAPS },
	/*
	 * Networking programs get neither task storage nor stack ids: their
	 * helper sets (xdp_func_proto(), tc_cls_act_func_proto()) do not
	 * have them, since the current task is nobody's there.
	 */
	{ M_TASK_STORAGE, C_XDP, NO_HELPER "bpf_task_storage_get#" },
	{ M_TASK_STORAGE, C_TC, NO_HELPER "bpf_task_storage_get#" },
	{ M_STACK_TRACE, C_XDP, NO_HELPER "bpf_get_stackid#" },
	{ M_STACK_TRACE, C_TC, NO_HELPER "bpf_get_stackid#" },
	{ M_TASK_STORAGE, C_CGROUP_SKB, NO_HELPER "bpf_task_storage_get#" },
	{ M_STACK_TRACE, C_CGROUP_SKB, NO_HELPER "bpf_get_stackid#" },
	{ M_TASK_STORAGE, C_SOCK_OPS, NO_HELPER "bpf_task_storage_get#" },
	{ M_STACK_TRACE, C_SOCK_OPS, NO_HELPER "bpf_get_stackid#" },
	/*
	 * A timer callback has no program context, and these helpers
	 * need one: a stack id, a perf event or a tail call is taken from
	 * the program that armed the timer, not from its callback.
	 */
	{ M_STACK_TRACE, C_TIMER, NO_CTX },
	{ M_PERF_EVENT_ARRAY, C_TIMER, NO_CTX },
	{ M_PROG_ARRAY, C_TIMER, NO_CTX },
};

/*
 * Cells that cannot be written at all: what the operations need does not
 * exist there.
 */
static const char *not_applicable(int m, int c)
{
	if (m == M_SK_STORAGE && c == C_TIMER)
		return "a timer callback has no socket, and cannot be given one";
	return NULL;
}

enum verdict { V_NOT_RUN, V_OK, V_REFUSED, V_FAIL, V_NA };

static struct {
	enum verdict v;
	char why[256];
} cells[NR_MAPS][NR_CTXS];

static struct rt_matrix *base;		/* owns the maps every cell shares */
static bool rt;				/* the kernel is PREEMPT_RT */
static struct ring_buffer *rb;
static struct perf_buffer *pb;
static __u64 recs[NR_MAPS][NR_CTXS];
static __u64 perf_lost;
static int kmsg_fd = -1;
static int cgroup_fd = -1;		/* the test's own cgroup */
static int udp_fd = -1, udp_sink = -1;	/* cgroup_skb cells send to udp_dst */
static struct sockaddr_in udp_dst;
static int tcp_listener = -1;		/* sock_ops cells connect to tcp_dst */
static struct sockaddr_in tcp_dst;
static int ifindex;
static pid_t self;

/* What the threads of one cell run. */
static struct {
	int ctx;
	bool udp;		/* triggered by a datagram, not getpgid() */
	int prog_fd;
	struct bpf_link *iter;
	pthread_barrier_t start;
	long calls;		/* hook-only triggers made: getpgid(), test runs */
	long reads;		/* iterator reads */
} drive;

static int count_rec(void *ctx, void *data, size_t size)
{
	const struct matrix_rec *r = data;

	if (size >= sizeof(*r) && r->map < NR_MAPS && r->ctx < NR_CTXS)
		recs[r->map][r->ctx]++;
	return 0;
}

static void count_sample(void *ctx, int cpu, void *data, __u32 size)
{
	count_rec(ctx, data, size);
}

static void count_lost(void *ctx, int cpu, __u64 n)
{
	perf_lost += n;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Close without TIME_WAIT: a reset. */
static void close_now(int fd)
{
	struct linger l = { .l_onoff = 1, .l_linger = 0 };

	setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
	close(fd);
}

static void trigger(void)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	char buf[4096];
	int fd;

	if (drive.udp) {
		if (sendto(udp_fd, "x", 1, 0, (void *)&udp_dst, sizeof(udp_dst)) == 1)
			__sync_fetch_and_add(&drive.calls, 1);
		return;
	}
	switch (drive.ctx) {
	case C_SYSCALL:
		if (!bpf_prog_test_run_opts(drive.prog_fd, &opts))
			__sync_fetch_and_add(&drive.calls, 1);
		break;
	case C_XDP:
	case C_TC:
		veth_send(VETH, 1);
		break;
	case C_SOCK_OPS:
		/*
		 * The client resets its end; the listener's ends, whoever's
		 * they are, just close: a reset from there could reach a
		 * connect() that has not returned yet and fail it.
		 */
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			break;
		if (!connect(fd, (void *)&tcp_dst, sizeof(tcp_dst)))
			__sync_fetch_and_add(&drive.calls, 1);
		close_now(fd);
		while ((fd = accept4(tcp_listener, NULL, NULL, SOCK_CLOEXEC)) >= 0)
			close(fd);
		break;
	case C_ITER:
		fd = bpf_iter_create(bpf_link__fd(drive.iter));
		if (fd < 0)
			break;
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		close(fd);
		__sync_fetch_and_add(&drive.reads, 1);
		break;
	default:
		/* Of a pid, not 0: only then is the LSM hook called. */
		syscall(SYS_getpgid, self);
		__sync_fetch_and_add(&drive.calls, 1);
		break;
	}
}

struct driver {
	pthread_t thread;
	int cpu;
	int fifo;
};

static void *drive_cell(void *arg)
{
	struct driver *d = arg;
	double end;
	int i, n;

	pin_to_cpu(d->cpu);
	if (d->fifo)
		set_fifo(FIFO_PRIO);
	pthread_barrier_wait(&drive.start);
	if (drive.ctx == C_PERF_EVENT && !d->fifo) {
		/* Keep the CPU busy in the test for the sampling timer. */
		for (end = now_ms() + PERF_MS; now_ms() < end;)
			trigger();
		return NULL;
	}
	/* An iterator read walks every task, a connection is dear: fewer. */
	n = d->fifo ? FIFO_ROUNDS : WORK_ROUNDS;
	if (drive.ctx == C_ITER || drive.ctx == C_SOCK_OPS)
		n /= 3;
	for (i = 0; i < n; i++) {
		trigger();
		if (d->fifo)
			sleep_ms(1);
	}
	return NULL;
}

static void run_threads(void)
{
	struct driver d[2 * NCPU];
	int i;

	pthread_barrier_init(&drive.start, NULL, 2 * NCPU);
	for (i = 0; i < 2 * NCPU; i++) {
		d[i] = (struct driver){ .cpu = i / 2, .fifo = i % 2 };
		pthread_create(&d[i].thread, NULL, drive_cell, &d[i]);
	}
	for (i = 0; i < 2 * NCPU; i++)
		pthread_join(d[i].thread, NULL);
	pthread_barrier_destroy(&drive.start);
}

/*
 * The first splat in the kernel log since the last call.  Most cells log
 * nothing, and then the scanner need not run.
 */
static bool new_splat(char *out, size_t n)
{
	static char lines[1 << 16];
	char rec[2048], *msg;
	size_t used = 0;
	ssize_t len;

	if (kmsg_fd < 0)
		return false;
	while ((len = read(kmsg_fd, rec, sizeof(rec) - 1)) > 0 || errno == EPIPE) {
		if (len <= 0)
			continue;
		rec[len] = 0;
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		msg[strcspn(msg, "\n")] = 0;
		if (used >= sizeof(lines) - 1)
			continue;
		used += snprintf(lines + used, sizeof(lines) - used, "%s\n", msg);
	}
	if (used >= sizeof(lines))
		used = sizeof(lines) - 1;
	lines[used] = 0;
	return used && kmsg_find_splat(lines, out, n);
}

/* The verifier's reason, from the end of its log. */
static void last_log_line(const char *log, char *out, size_t n)
{
	const char *p = log, *line, *best = NULL;
	size_t len, best_len = 0;

	while (*p) {
		line = p;
		len = strcspn(p, "\n");
		p += len + !!p[len];
		if (!len || !strncmp(line, "processed ", 10) ||
		    !strncmp(line, "verification time", 17) ||
		    !strncmp(line, "stack depth", 11) ||
		    !strncmp(line, "-- END PROG LOAD LOG --", 23))
			continue;
		best = line;
		best_len = len;
	}
	snprintf(out, n, "%.*s", (int)(best ? best_len : 0), best ? best : "");
}

static const char *expected_refusal(int m, int c)
{
	size_t i;

	/*
	 * A cpumap has no operation but the redirect (its lookup is not
	 * exposed to programs), and only XDP programs may redirect to a map.
	 * The syscall cell is refused earlier, as a sleepable program.
	 */
	if (m == M_CPUMAP && c != C_XDP && c != C_SYSCALL)
		return NO_HELPER REDIRECT_MAP;
	/* Inode storage is for LSM programs (bpf_lsm_func_proto()) only. */
	if (m == M_INODE_STORAGE && c != C_LSM)
		return NO_HELPER "bpf_inode_storage_get#";
	/*
	 * Socket storage is for the programs that can be handed a socket:
	 * networking ones, and of the tracing ones those with BTF arguments
	 * (tracing_prog_func_proto()); not raw_tp, tp, kprobe, perf_event,
	 * nor XDP, which sees frames before any socket does.
	 */
	if (m == M_SK_STORAGE &&
	    (c == C_RAW_TP || c == C_TP || c == C_KPROBE ||
	     c == C_KRETPROBE || c == C_PERF_EVENT || c == C_XDP))
		return NO_HELPER "bpf_sk_storage_get#";
	/*
	 * A sockmap or sockhash lookup takes a reference on the socket, and
	 * tracing programs have no bpf_sk_release() to drop it; nor may they
	 * update or delete (may_update_sockmap()).
	 */
	if ((m == M_SOCKMAP || m == M_SOCKHASH) && c != C_SYSCALL &&
	    c != C_XDP && c != C_TC && c != C_CGROUP_SKB && c != C_SOCK_OPS &&
	    c != C_ITER)
		return UNRELEASED;
	for (i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++)
		if (refusals[i].map == m && refusals[i].ctx == c)
			return refusals[i].why;
	return NULL;
}

/*
 * libbpf's first complaint about a load, for when the verifier has
 * nothing to say: the load failed before or after it ran.
 */
static char libbpf_why[256];

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_WARN && !libbpf_why[0]) {
		vsnprintf(libbpf_why, sizeof(libbpf_why), fmt, ap);
		libbpf_why[strcspn(libbpf_why, "\n")] = 0;
	}
	return 0;
}

/* A copy of the object with only cell (m, c) on, sharing base's maps. */
static struct rt_matrix *load_cell(int m, int c, struct bpf_program **prog,
				   char *log, size_t n)
{
	libbpf_print_fn_t old;
	struct bpf_program *tail = NULL;
	struct rt_matrix *s;
	struct bpf_map *map;
	char name[64];
	int err;

	s = rt_matrix__open();
	if (!s)
		return NULL;
	snprintf(name, sizeof(name), "%s__%s", map_names[m], ctx_names[c]);
	*prog = bpf_object__find_program_by_name(s->obj, name);
	if (!*prog) {
		snprintf(log, n, "no program %s", name);
		rt_matrix__destroy(s);
		return NULL;
	}
	bpf_program__set_autoload(*prog, true);
	bpf_program__set_log_buf(*prog, log, n);
	if (m == M_PROG_ARRAY) {
		snprintf(name, sizeof(name), "tail__%s", ctx_names[c]);
		tail = bpf_object__find_program_by_name(s->obj, name);
		if (tail)
			bpf_program__set_autoload(tail, true);
	}
	bpf_object__for_each_map(map, s->obj) {
		struct bpf_map *b = bpf_object__find_map_by_name(base->obj,
								 bpf_map__name(map));

		/*
		 * A map that can hold programs (prog_array, devmap) takes
		 * the type of the first program that uses it, and refuses
		 * others (bpf_check_tail_call()): each cell gets fresh ones.
		 * The cpumap's only users are XDP programs.
		 */
		if (b && map != s->maps.m_prog_array && map != s->maps.m_devmap)
			bpf_map__reuse_fd(map, bpf_map__fd(b));
	}
	log[0] = 0;
	libbpf_why[0] = 0;
	old = libbpf_set_print(quiet);
	err = rt_matrix__load(s);
	libbpf_set_print(old);
	if (!err && tail) {
		int fd = bpf_program__fd(tail);
		__u32 k = 0;

		err = bpf_map_update_elem(bpf_map__fd(s->maps.m_prog_array), &k, &fd, 0);
		if (err)
			snprintf(log, n, "tail call target: %d", -errno);
	}
	if (!err && m == M_DEVMAP) {
		__u32 k = 0, dev = base->bss->devmap_ifindex;

		err = bpf_map_update_elem(bpf_map__fd(s->maps.m_devmap), &k, &dev, 0);
		if (err)
			snprintf(log, n, "devmap entry: %d", -errno);
	}
	if (err) {
		char why[160];

		last_log_line(log, why, sizeof(why));
		if (!why[0])
			snprintf(log, n, "libbpf: %s (%d)", libbpf_why, err);
		rt_matrix__destroy(s);
		return NULL;
	}
	return s;
}

static int perf_open(int cpu)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = SAMPLE_NS,
	};

	return syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* Attach the cell's program; links[] gets what to destroy after. */
static int attach(struct bpf_program *prog, int c, struct bpf_link **links)
{
	int i, pfd;

	switch (c) {
	case C_SYSCALL:
		return 0;
	case C_PERF_EVENT:
		for (i = 0; i < NCPU; i++) {
			pfd = perf_open(i);
			if (pfd < 0)
				return -errno;
			links[i] = bpf_program__attach_perf_event(prog, pfd);
			if (!links[i]) {
				close(pfd);
				return -errno;
			}
		}
		return 0;
	case C_XDP:
		links[0] = bpf_program__attach_xdp(prog, ifindex);
		return links[0] ? 0 : -errno;
	case C_TC:
		links[0] = bpf_program__attach_tcx(prog, ifindex, NULL);
		return links[0] ? 0 : -errno;
	case C_CGROUP_SKB:
	case C_SOCK_OPS:
		links[0] = bpf_program__attach_cgroup(prog, cgroup_fd);
		return links[0] ? 0 : -errno;
	case C_ITER:
		links[0] = bpf_program__attach_iter(prog, NULL);
		drive.iter = links[0];
		return links[0] ? 0 : -errno;
	default:
		links[0] = bpf_program__attach(prog);
		return links[0] ? 0 : -errno;
	}
}

/*
 * Overwriting a timer's map element cancels the timer and lets go of the
 * callback's program.
 */
static void stop_timer(int m)
{
	char zero[bpf_map__value_size(base->maps.m_timers)];
	__u32 k = m;

	memset(zero, 0, sizeof(zero));
	bpf_map_update_elem(bpf_map__fd(base->maps.m_timers), &k, zero, 0);
}

static bool sock_row(int m)
{
	return m == M_SK_STORAGE || m == M_SOCKMAP || m == M_SOCKHASH;
}

/* The map of row @m: the BPF side names it m_<row name>. */
static int row_map_fd(int m)
{
	char name[64];

	snprintf(name, sizeof(name), "m_%s", map_names[m]);
	return bpf_map__fd(bpf_object__find_map_by_name(base->obj, name));
}

#define FAIL(fmt, ...) ({						\
	snprintf(cell->why, sizeof(cell->why), fmt, ##__VA_ARGS__);	\
	cell->v = V_FAIL;						\
	return;								\
})

/* What the maps must hold after a cell's runs, beyond its counters. */
static void check_maps(int m, int c, __u64 done, typeof(&cells[0][0]) cell)
{
	int ncpus = libbpf_num_possible_cpus(), i;
	__u64 v, sum = 0, pv[ncpus];
	__u32 k = c;
	char key[64];

	switch (m) {
	case M_ARRAY:
		bpf_map_lookup_elem(bpf_map__fd(base->maps.m_array), &k, &v);
		if (v != done)
			FAIL("counter %llu, want %llu", v, done);
		break;
	case M_PERCPU_ARRAY:
		bpf_map_lookup_elem(bpf_map__fd(base->maps.m_percpu_array), &k, pv);
		for (i = 0; i < ncpus; i++)
			sum += pv[i];
		if (sum != done)
			FAIL("per-CPU counters sum to %llu, want %llu", sum, done);
		break;
	case M_HASH:
	case M_PERCPU_HASH:
	case M_LRU_HASH:
	case M_LRU_PERCPU_HASH:
	case M_HASH_NOPREALLOC:
	case M_LPM_TRIE:
		if (!bpf_map_get_next_key(row_map_fd(m), NULL, key))
			FAIL("a key was left behind");
		break;
	case M_QUEUE:
	case M_STACK:
		if (!bpf_map_lookup_and_delete_elem(row_map_fd(m), NULL, &v))
			FAIL("a value was left behind");
		break;
	case M_RINGBUF:
		ring_buffer__consume(rb);
		if (recs[m][c] != 2 * done)
			FAIL("%llu records consumed, want %llu", recs[m][c], 2 * done);
		break;
	case M_ARENA:
		if (base->arena->arena_hits[c] != done)
			FAIL("arena counter %llu, want %llu",
			     (unsigned long long)base->arena->arena_hits[c], done);
		break;
	case M_DEVMAP:
		if (c == C_XDP && base->bss->devmap_back != done)
			FAIL("%llu frames came back from the devmap, want %llu",
			     base->bss->devmap_back, done);
		break;
	case M_CPUMAP:
		/* The cpumap threads may still have frames queued. */
		for (i = 0; i < 50 && base->bss->cpumap_seen < done; i++)
			sleep_ms(20);
		if (base->bss->cpumap_seen != done)
			FAIL("%llu frames reached the other CPU, want %llu",
			     base->bss->cpumap_seen, done);
		break;
	case M_SOCKMAP:
	case M_SOCKHASH:
		for (k = 1; k < SOCK_SLOTS; k++)
			if (!bpf_map_lookup_elem(row_map_fd(m), &k, &v))
				FAIL("a socket was left in slot %u", k);
		break;
	case M_PERF_EVENT_ARRAY:
		perf_buffer__consume(pb);
		if (perf_lost || recs[m][c] != done)
			FAIL("%llu records read, %llu lost, want %llu",
			     recs[m][c], perf_lost, done);
		break;
	}
}

static void run_cell(int m, int c)
{
	typeof(&cells[0][0]) cell = &cells[m][c];
	struct bpf_link *links[NCPU] = {};
	struct bpf_program *prog;
	static char log[1 << 16];
	const char *want;
	struct rt_matrix *s;
	__u64 runs, done, nomem, busy, misses = 0;
	struct bpf_prog_info info = {};
	__u32 info_len = sizeof(info);
	char splat[160];
	__u32 bad;
	int i, err;

	want = not_applicable(m, c);
	if (want) {
		cell->v = V_NA;
		snprintf(cell->why, sizeof(cell->why), "%s", want);
		return;
	}
	want = expected_refusal(m, c);
	s = load_cell(m, c, &prog, log, sizeof(log));
	if (!s) {
		char why[160];

		last_log_line(log, why, sizeof(why));
		if (want && strstr(why, want)) {
			cell->v = V_REFUSED;
			snprintf(cell->why, sizeof(cell->why), "%s", why);
			return;
		}
		FAIL("refused: %s", why);
	}
	if (want) {
		rt_matrix__destroy(s);
		FAIL("loads, but should be refused with \"%s\"", want);
	}

	memset(&drive, 0, sizeof(drive));
	drive.ctx = c;
	drive.udp = c == C_CGROUP_SKB ||
		    (sock_row(m) && (c == C_TP_BTF || c == C_FENTRY ||
				     c == C_FEXIT || c == C_LSM));
	drive.prog_fd = bpf_program__fd(prog);
	err = attach(prog, c, links);
	if (!err)
		run_threads();
	if (!bpf_prog_get_info_by_fd(drive.prog_fd, &info, &info_len))
		misses = info.recursion_misses;
	/* A devmap cell's frames are on their way back through it. */
	if (c == C_XDP)
		sleep_ms(20);
	for (i = 0; i < NCPU; i++)
		bpf_link__destroy(links[i]);
	if (c == C_TIMER)
		stop_timer(m);
	rt_matrix__destroy(s);
	if (err)
		FAIL("attach: %d", err);
	/* Frames may still be in a NAPI poll on the other CPU. */
	sleep_ms(20);

	runs = base->bss->runs[m][c];
	done = base->bss->done[m][c];
	nomem = base->bss->nomem[m][c];
	busy = base->bss->busy[m][c];
	bad = base->bss->bad_step[m][c];
	if (new_splat(splat, sizeof(splat))) {
		sleep_ms(1100);		/* might_sleep() reports once a second */
		new_splat(log, sizeof(log));
		FAIL("splat: %s", splat);
	}
	if (!runs)
		FAIL("never ran");
	if (bad)
		FAIL("step %u failed with %ld (%llu of %llu runs done)", bad,
		     base->bss->bad_err[m][c], done, runs);
	if (busy && rt)
		FAIL("%llu of %llu storage deletes refused -EBUSY", busy, runs);
	if (done + nomem + busy != runs)
		FAIL("%llu done + %llu tolerated misses + %llu busy of %llu runs",
		     done, nomem, busy, runs);
	/* Timer cells arm their timer from an fentry program. */
	if (misses && (rt || (c != C_FENTRY && c != C_FEXIT && c != C_LSM &&
			      c != C_TIMER)))
		FAIL("%llu recursion misses", misses);
	if (nomem * 20 > runs)
		FAIL("%llu of %llu runs missed (allocator dry or a NULL get)", nomem, runs);
	switch (c) {
	case C_SYSCALL:
	case C_TP:
	case C_KPROBE:
	case C_KRETPROBE:
	case C_FENTRY:
	case C_FEXIT:
	case C_LSM:
	case C_CGROUP_SKB:
	case C_SOCK_OPS:
		if (runs + misses != (__u64)drive.calls)
			FAIL("%llu runs + %llu recursion misses for %ld calls",
			     runs, misses, drive.calls);
		break;
	case C_RAW_TP:
	case C_TP_BTF:
		if (runs < (__u64)drive.calls)
			FAIL("%llu runs for %ld getpgid() calls", runs, drive.calls);
		break;
	case C_ITER:
		if (runs != (__u64)drive.reads)
			FAIL("%llu runs for %ld reads", runs, drive.reads);
		break;
	case C_TIMER:
		/* A timer started again before it fired fires once. */
		if (runs > (__u64)drive.calls)
			FAIL("%llu callbacks for %ld getpgid() calls", runs, drive.calls);
		break;
	}
	check_maps(m, c, done, cell);
	if (cell->v == V_FAIL)
		return;
	cell->v = V_OK;
	snprintf(cell->why, sizeof(cell->why),
		 "%llu runs, %llu tolerated misses, %llu busy, %llu recursion misses",
		 runs, nomem, busy, misses);
}

/*
 * The devmap sends frames back out of the veth they came from (each cell
 * fills its own, see load_cell()); the cpumap has one entry per CPU,
 * each running cpumap_arrive().
 */
static int setup_net_maps(void)
{
	struct bpf_cpumap_val cv = {
		.qsize = 256,
		.bpf_prog.fd = bpf_program__fd(base->progs.cpumap_arrive),
	};
	__u32 k;

	base->bss->devmap_ifindex = if_nametoindex(VETH);
	if (!base->bss->devmap_ifindex)
		return -errno;
	for (k = 0; k < NCPU; k++)
		if (bpf_map_update_elem(bpf_map__fd(base->maps.m_cpumap), &k, &cv, 0))
			return -errno;
	return 0;
}

/*
 * The test moves into a cgroup of its own, where the cgroup_skb and
 * sock_ops cells attach.  It sends UDP datagrams on the loopback, to a
 * sink that takes them (and drops what it has no room for), and connects
 * to a TCP listener.  The sockets are made in the cgroup, so that its
 * programs see them.
 */
#define CGROUP		"/sys/fs/cgroup/rt_matrix"

static int setup_cgroup(void)
{
	socklen_t len = sizeof(udp_dst);
	char pid[16];
	int fd;

	if (mkdir(CGROUP, 0755) && errno != EEXIST)
		return -errno;
	fd = open(CGROUP "/cgroup.procs", O_WRONLY);
	if (fd < 0)
		return -errno;
	snprintf(pid, sizeof(pid), "%d", getpid());
	if (write(fd, pid, strlen(pid)) < 0) {
		close(fd);
		return -errno;
	}
	close(fd);
	cgroup_fd = open(CGROUP, O_RDONLY | O_DIRECTORY);
	udp_sink = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	udp_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (cgroup_fd < 0 || udp_sink < 0 || udp_fd < 0)
		return -errno;
	udp_dst.sin_family = AF_INET;
	udp_dst.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(udp_sink, (void *)&udp_dst, sizeof(udp_dst)) ||
	    getsockname(udp_sink, (void *)&udp_dst, &len))
		return -errno;
	tcp_listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (tcp_listener < 0)
		return -errno;
	tcp_dst = (struct sockaddr_in){ .sin_family = AF_INET };
	tcp_dst.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	len = sizeof(tcp_dst);
	if (bind(tcp_listener, (void *)&tcp_dst, sizeof(tcp_dst)) ||
	    getsockname(tcp_listener, (void *)&tcp_dst, &len) ||
	    listen(tcp_listener, 1024))
		return -errno;
	return 0;
}

/* The programs find the sink by its address, and in slot 0 of both maps. */
static int setup_sock_maps(void)
{
	__u64 fd = udp_sink;
	__u32 k = 0;

	base->bss->sink_addr = udp_dst.sin_addr.s_addr;
	base->bss->sink_port = ntohs(udp_dst.sin_port);
	if (bpf_map_update_elem(bpf_map__fd(base->maps.m_sockmap), &k, &fd, 0) ||
	    bpf_map_update_elem(bpf_map__fd(base->maps.m_sockhash), &k, &fd, 0))
		return -errno;
	return 0;
}

/* Back to the root cgroup, so that the test's cgroup can go. */
static void cleanup_cgroup(void)
{
	char pid[16];
	int fd;

	close(udp_fd);
	close(udp_sink);
	close(tcp_listener);
	if (cgroup_fd < 0)
		return;
	close(cgroup_fd);
	fd = open("/sys/fs/cgroup/cgroup.procs", O_WRONLY);
	snprintf(pid, sizeof(pid), "%d", getpid());
	if (fd >= 0 && write(fd, pid, strlen(pid)) > 0)
		rmdir(CGROUP);
	if (fd >= 0)
		close(fd);
}

static const char *const verdict_names[] = {
	[V_NOT_RUN] = "-", [V_OK] = "OK", [V_REFUSED] = "REFUSED",
	[V_FAIL] = "FAIL", [V_NA] = "N/A",
};

static void print_table(void)
{
	int m, c;

	printf("matrix: | map |");
	for (c = 0; c < NR_CTXS; c++)
		printf(" %s |", ctx_names[c]);
	printf("\nmatrix: |---|");
	for (c = 0; c < NR_CTXS; c++)
		printf("---|");
	printf("\n");
	for (m = 0; m < NR_MAPS; m++) {
		printf("matrix: | %s |", map_names[m]);
		for (c = 0; c < NR_CTXS; c++)
			printf(" %s |", verdict_names[cells[m][c].v]);
		printf("\n");
	}
}

/* The value of rtbpf.@key on the kernel command line, or "". */
static void boot_arg(const char *key, char *out, size_t n)
{
	char line[4096], want[64], *w, *save;
	FILE *f = fopen("/proc/cmdline", "r");

	out[0] = 0;
	if (!f)
		return;
	if (fgets(line, sizeof(line), f)) {
		snprintf(want, sizeof(want), "rtbpf.%s=", key);
		for (w = strtok_r(line, " \n", &save); w; w = strtok_r(NULL, " \n", &save))
			if (!strncmp(w, want, strlen(want)))
				snprintf(out, n, "%s", w + strlen(want));
	}
	fclose(f);
}

/*
 * Say on the console which cell runs now, for the host.  The console
 * itself, not the kernel log: lines written to /dev/kmsg here did not
 * reach the console (seen on this bench; not understood).
 */
static void announce(const char *name)
{
	int fd = open("/dev/console", O_WRONLY | O_NOCTTY);

	if (fd >= 0) {
		dprintf(fd, "rt_matrix: console: cell %s\n", name);
		close(fd);
	}
}

void test_main(void)
{
	LIBBPF_OPTS(perf_buffer_opts, pb_opts);
	char name[64], after[64], isolate[8];
	bool skipping;
	double t0;
	int m, c;

	boot_arg("matrix_after", after, sizeof(after));
	boot_arg("matrix_isolate", isolate, sizeof(isolate));
	skipping = after[0];

	base = rt_matrix__open();
	if (!ASSERT_OK_PTR(base, "open"))
		return;
	bpf_program__set_autoload(base->progs.cpumap_arrive, true);
	if (!ASSERT_OK(rt_matrix__load(base), "load"))
		goto out;
	self = getpid();
	base->bss->target_tgid = self;
	rt = kernel_is_rt();
	rb = ring_buffer__new(bpf_map__fd(base->maps.m_ringbuf), count_rec, NULL, NULL);
	pb = perf_buffer__new(bpf_map__fd(base->maps.m_perf_event_array), 64,
			      count_sample, count_lost, NULL, &pb_opts);
	if (!ASSERT_OK_PTR(rb, "ring_buffer") || !ASSERT_OK_PTR(pb, "perf_buffer"))
		goto out;
	if (!ASSERT_OK(veth_create(VETH, VETH_PEER), "veth_create"))
		goto out;
	ifindex = if_nametoindex(VETH_PEER);
	if (!ASSERT_OK(setup_net_maps(), "setup_net_maps"))
		goto out;
	if (!ASSERT_OK(setup_cgroup(), "setup_cgroup") ||
	    !ASSERT_OK(setup_sock_maps(), "setup_sock_maps"))
		goto out;
	/* Fault the arena's first page in: programs cannot. */
	memset(base->arena, 0, sizeof(*base->arena));
	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (!ASSERT_GE(kmsg_fd, 0, "kmsg"))
		goto out;
	lseek(kmsg_fd, 0, SEEK_END);

	for (m = 0; m < NR_MAPS; m++) {
		for (c = 0; c < NR_CTXS; c++) {
			snprintf(name, sizeof(name), "%s/%s", map_names[m], ctx_names[c]);
			if (skipping) {
				skipping = strcmp(name, after);
				continue;
			}
			announce(name);
			t0 = now_ms();
			run_cell(m, c);
			printf("cell %s: %s %s (%.0f ms)\n", name, verdict_names[cells[m][c].v],
			       cells[m][c].why, now_ms() - t0);
			fflush(stdout);
			test_report(cells[m][c].v != V_FAIL, name, "%s%s",
				    cells[m][c].v == V_REFUSED ? "REFUSED: " :
				    cells[m][c].v == V_NA ? "N/A: " : "",
				    cells[m][c].why);
			if (isolate[0] == '1' && !strncmp(cells[m][c].why, "splat: ", 7)) {
				printf("matrix: stopped after %s: lockdep is off now\n", name);
				goto table;
			}
		}
	}
table:
	if (after[0])
		test_report(!skipping, "matrix_after", "a cell named %s", after);
	print_table();
out:
	cleanup_cgroup();
	if (kmsg_fd >= 0)
		close(kmsg_fd);
	perf_buffer__free(pb);
	ring_buffer__free(rb);
	rt_matrix__destroy(base);
}
