// SPDX-License-Identifier: GPL-2.0
/*
 * An LPM trie written from a kprobe, which runs with preemption disabled
 * on every kernel: two threads, one on each CPU, make getpgid() calls, and
 * the program on the syscall inserts, replaces, looks up and deletes two
 * prefixes of the calling thread, adding and removing an intermediate node
 * each time.  Between calls each thread does the same from user space on
 * its own keys.  Every step of every run must succeed, but for a rare
 * -ENOMEM from an empty per-CPU node cache; the trie must end empty,
 * exactly full must mean -ENOSPC, and freeing a full trie must be quiet.
 * Stock PREEMPT_RT takes a sleeping lock and kmallocs in the kprobe, and
 * the splat scan fails the test.
 *
 * XFAIL on stock PREEMPT_RT: the LPM trie kmallocs under a sleeping spinlock_t (0009-0010)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include "test.h"
#include "lpm_atomic.h"
#include "lpm_atomic.skel.h"

#define CALLS		2000
#define THREADS		2
/*
 * A run allocates up to four nodes with preemption off, and the node cache
 * refills only after it: a run may find the cache empty, rarely (0009).
 */
#define MAX_NOMEM	(THREADS * CALLS / 100)

struct worker {
	pthread_t thread;
	int cpu;
	int map_fd;
	int user_ok;
};

static void user_key(struct lpm_key *k, pid_t tid, __u8 last, __u32 plen)
{
	k->prefixlen = plen;
	k->data[0] = 11;
	k->data[1] = tid >> 8;
	k->data[2] = tid;
	k->data[3] = last;
}

/* The same steps as the program's, from the syscall side. */
static bool user_round(int fd, pid_t tid, __u64 val)
{
	struct lpm_key a, b, q;
	__u64 v = val, got = 0;

	user_key(&a, tid, 0, 25);
	user_key(&b, tid, 128, 25);
	user_key(&q, tid, 9, 32);
	if (bpf_map_update_elem(fd, &a, &v, BPF_NOEXIST))
		return false;
	v = val + 1;
	if (bpf_map_update_elem(fd, &b, &v, BPF_NOEXIST))
		return false;
	if (bpf_map_lookup_elem(fd, &q, &got) || got != val)
		return false;
	return !bpf_map_delete_elem(fd, &a) && !bpf_map_delete_elem(fd, &b);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	pid_t tid = gettid();
	int i;

	pin_to_cpu(w->cpu);
	for (i = 0; i < CALLS; i++) {
		syscall(SYS_getpgid, 0);
		w->user_ok += user_round(w->map_fd, tid, i);
	}
	return NULL;
}

/* Fill the trie to max_entries from user space: one more is -ENOSPC. */
static void fill(int fd)
{
	struct lpm_key k = { .prefixlen = 32, .data = { 12 } };
	__u64 v = 0;
	int i, err = 0;

	for (i = 0; i < LPM_ENTRIES && !err; i++) {
		k.data[2] = i >> 8;
		k.data[3] = i;
		err = bpf_map_update_elem(fd, &k, &v, BPF_NOEXIST);
	}
	ASSERT_OK(err, "fill_to_max_entries");
	k.data[1] = 1;
	err = bpf_map_update_elem(fd, &k, &v, BPF_NOEXIST);
	ASSERT_EQ(err < 0 ? errno : 0, ENOSPC, "one_more_is_enospc");
}

void test_main(void)
{
	struct worker w[THREADS];
	struct lpm_atomic *skel;
	struct lpm_key k;
	int fd, i, user_ok = 0;

	skel = lpm_atomic__open_and_load();
	if (!ASSERT_OK_PTR(skel, "open_and_load"))
		return;
	fd = bpf_map__fd(skel->maps.trie);
	skel->bss->target_tgid = getpid();
	if (!ASSERT_OK(lpm_atomic__attach(skel), "attach"))
		goto out;

	for (i = 0; i < THREADS; i++) {
		w[i] = (struct worker){ .cpu = i, .map_fd = fd };
		pthread_create(&w[i].thread, NULL, work, &w[i]);
	}
	for (i = 0; i < THREADS; i++) {
		pthread_join(w[i].thread, NULL);
		user_ok += w[i].user_ok;
	}
	lpm_atomic__detach(skel);

	printf("kprobe: runs %llu good %llu nomem %llu\n",
	       (unsigned long long)skel->bss->runs,
	       (unsigned long long)skel->bss->good,
	       (unsigned long long)skel->bss->nomem);
	ASSERT_EQ(skel->bss->runs, THREADS * CALLS, "kprobe_runs");
	ASSERT_EQ(skel->bss->good + skel->bss->nomem, skel->bss->runs,
		  "kprobe_rounds_ok_or_nomem");
	ASSERT_EQ(skel->bss->first_bad, 0, "kprobe_first_bad_step");
	ASSERT_LE(skel->bss->nomem, MAX_NOMEM, "kprobe_nomem_rare");
	ASSERT_EQ(user_ok, THREADS * CALLS, "syscall_rounds_ok");
	ASSERT_EQ(bpf_map_get_next_key(fd, NULL, &k) < 0 ? errno : 0, ENOENT,
		  "trie_ends_empty");
	/* The full trie is freed with the skeleton. */
	fill(fd);
out:
	lpm_atomic__destroy(skel);
}
