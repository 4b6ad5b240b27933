// SPDX-License-Identifier: GPL-2.0
/*
 * Build-ID stack traces and bpf_find_vma() from hard interrupt context.
 *
 * A thread spins in spin_fake() with its frame pointer on a fake frame
 * whose return address lies in a region of our own mapping, so its user
 * stack is two entries: one in this binary and one in the region.  A
 * cpu-clock perf_event program samples the thread: its user stack as IPs
 * and with build IDs, and the VMA at a probe address through
 * bpf_find_vma().  The binary and the files mapped in the region are
 * copies in tmpfs, so their pages are always in the page cache.
 *
 * Quiet phase: nothing changes the address space.  At least 90% of the
 * entries must be BPF_STACK_BUILD_ID_VALID with the file's build ID and
 * the right file offset, and bpf_find_vma() on spin_fake() must return
 * exactly the VMA of /proc/self/maps.  On stock PREEMPT_RT both are
 * refused with interrupts off: IP fallbacks and -EBUSY.
 *
 * Storm phase: another thread maps file A, splits it with mprotect(),
 * maps file B at another file offset and maps anonymous memory over the
 * region, in a loop.  Every entry must be right for one of those states
 * or an IP fallback, and every VMA bpf_find_vma() reports must be one of
 * them: nothing torn, nothing stale.
 *
 * On PREEMPT_RT up_read_non_owner() is never called (a kprobe counts it).
 *
 * XFAIL on stock PREEMPT_RT: build IDs and bpf_find_vma() are refused with interrupts off (0025-0028)
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>
#include "test.h"
#include "file.h"
#include "build_id.h"
#include "build_id.skel.h"

#define PAGE		4096UL
#define REGION		(4 * PAGE)
#define PROBE_OFF	(2 * PAGE + 0x10)
#define PERIOD_NS	1000000ULL
#define QUIET_S		2
#define STORM_S		3
#define MAX_MAPS	64
#define SELF_COPY	"/tmp/build_id.exe"
#define B_COPY		"/tmp/build_id-b.so"
#define REEXEC_ENV	"RTBPF_BUILD_ID_REEXEC"

struct mapping {
	unsigned long start, end, pgoff, ino;
	bool exec;
	int id_len;			/* 0: no build ID */
	unsigned char id[BUILD_ID_SIZE_MAX];
};

struct phase {
	long samples, spin_samples, entries, valid, fallback, wrong;
	long spin_entries, spin_valid;
	long find_ok, find_busy, find_enoent, find_other, find_wrong;
	/* cost of the two calls on the spinning thread's samples, in ns */
	unsigned long long id_ns, id_max, find_ns, find_max;
};

static struct mapping maps[MAX_MAPS];
static int nr_maps;
static unsigned char *region;
static int fd_a, fd_b;
static struct mapping file_a, file_b;	/* id and ino of the region's files */
static struct phase quiet, storm, *cur;
static volatile int spin_stop, storm_stop;
static volatile pid_t spin_tid;
static unsigned long fake_frame[2];
static long storm_iters;

/* Spin with the frame pointer on @frame, until spin_stop. */
static void __attribute__((noinline)) spin_fake(unsigned long *frame)
{
	asm volatile("mov %%rbp, %%r12\n\t"
		     "mov %0, %%rbp\n\t"
		     "1: pause\n\t"
		     "cmpl $0, %1\n\t"
		     "je 1b\n\t"
		     "mov %%r12, %%rbp\n\t"
		     : : "r"(frame), "m"(spin_stop) : "r12", "memory");
}

/* The GNU build ID of the ELF file at @path, zero-padded; its length or 0. */
static int file_build_id(int fd, unsigned char *id)
{
	unsigned char notes[4096];
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int i;

	memset(id, 0, BUILD_ID_SIZE_MAX);
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64)
		return 0;
	for (i = 0; i < eh.e_phnum; i++) {
		size_t off = 0, len;

		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + i * eh.e_phentsize) != sizeof(ph))
			return 0;
		if (ph.p_type != PT_NOTE)
			continue;
		len = ph.p_filesz < sizeof(notes) ? ph.p_filesz : sizeof(notes);
		if (pread(fd, notes, len, ph.p_offset) != (ssize_t)len)
			return 0;
		while (off + sizeof(Elf64_Nhdr) <= len) {
			Elf64_Nhdr *n = (Elf64_Nhdr *)(notes + off);
			size_t name = off + sizeof(*n);
			size_t desc = name + ((n->n_namesz + 3) & ~3U);

			if (desc + n->n_descsz > len)
				break;
			if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
			    !memcmp(notes + name, "GNU", 4) &&
			    n->n_descsz <= BUILD_ID_SIZE_MAX) {
				memcpy(id, notes + desc, n->n_descsz);
				return n->n_descsz;
			}
			off = desc + ((n->n_descsz + 3) & ~3U);
		}
	}
	return 0;
}

static int path_build_id(const char *path, struct mapping *m)
{
	struct stat st;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -errno;
	m->id_len = file_build_id(fd, m->id);
	if (!fstat(fd, &st))
		m->ino = st.st_ino;
	close(fd);
	return 0;
}

/* The file mappings of this process outside the region, from /proc. */
static int read_maps(void)
{
	char line[512], path[256];
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return -errno;
	nr_maps = 0;
	while (fgets(line, sizeof(line), f) && nr_maps < MAX_MAPS) {
		struct mapping *m = &maps[nr_maps];
		char perms[8];
		unsigned long ino;

		path[0] = 0;
		if (sscanf(line, "%lx-%lx %7s %lx %*s %lu %255s", &m->start, &m->end,
			   perms, &m->pgoff, &ino, path) < 5)
			continue;
		if (m->start >= (unsigned long)region &&
		    m->start < (unsigned long)region + REGION)
			continue;
		m->pgoff /= PAGE;
		m->exec = perms[2] == 'x';
		m->id_len = 0;
		if (ino && path[0] == '/')
			path_build_id(path, m);
		m->ino = ino;
		nr_maps++;
	}
	fclose(f);
	return 0;
}

static const struct mapping *find_map(unsigned long ip)
{
	int i;

	for (i = 0; i < nr_maps; i++)
		if (ip >= maps[i].start && ip < maps[i].end)
			return &maps[i];
	return NULL;
}

/* Whether a valid entry for @ip is right for some state of the region. */
static bool region_entry_ok(const struct bpf_stack_build_id *e, unsigned long ip)
{
	unsigned long off = ip - (unsigned long)region;

	if (!memcmp(e->build_id, file_a.id, BUILD_ID_SIZE_MAX))
		return e->offset == off;		/* A, whole or split */
	if (!memcmp(e->build_id, file_b.id, BUILD_ID_SIZE_MAX))
		return e->offset == PAGE + off;		/* B at one page in */
	return false;
}

static bool entry_ok(const struct bpf_stack_build_id *e, unsigned long ip)
{
	const struct mapping *m;

	if (e->status == BPF_STACK_BUILD_ID_IP)
		return e->ip == ip;
	if (e->status != BPF_STACK_BUILD_ID_VALID)
		return false;
	if (ip >= (unsigned long)region && ip < (unsigned long)region + REGION)
		return region_entry_ok(e, ip);
	m = find_map(ip);
	return m && m->id_len &&
	       !memcmp(e->build_id, m->id, BUILD_ID_SIZE_MAX) &&
	       e->offset == m->pgoff * PAGE + ip - m->start;
}

/* Whether what bpf_find_vma() showed is a VMA the probe address had. */
static bool vma_ok(const struct vma_info *v, unsigned long probe)
{
	unsigned long r = (unsigned long)region;
	const struct mapping *m;

	if (probe != r + PROBE_OFF) {
		m = find_map(probe);
		return m && v->start == m->start && v->end == m->end &&
		       v->pgoff == m->pgoff && v->ino == m->ino &&
		       (v->flags & 0x4) && m->exec;
	}
	if (v->ino == file_a.ino)
		return (v->start == r && v->end == r + REGION && v->pgoff == 0) ||
		       (v->start == r + 2 * PAGE && v->end == r + REGION && v->pgoff == 2);
	if (v->ino == file_b.ino)
		return v->start == r && v->end == r + REGION && v->pgoff == 1;
	return v->ino == 0 && v->start == r && v->end == r + REGION;
}

static int on_sample(void *ctx, void *data, size_t size)
{
	const struct bid_sample *s = data;
	bool spin;
	__u32 i;

	if (size < sizeof(*s))
		return 0;
	cur->samples++;
	spin = s->nr_ips == 2 && s->ips[1] == (unsigned long)region + PROBE_OFF;
	cur->spin_samples += spin;
	if (spin) {
		cur->id_ns += s->id_ns;
		cur->find_ns += s->find_ns;
		if (s->id_ns > cur->id_max)
			cur->id_max = s->id_ns;
		if (s->find_ns > cur->find_max)
			cur->find_max = s->find_ns;
	}
	if (s->nr_ids != s->nr_ips)
		cur->wrong++;
	for (i = 0; i < s->nr_ids && i < s->nr_ips && i < MAX_DEPTH; i++) {
		bool valid = s->ids[i].status == BPF_STACK_BUILD_ID_VALID;

		cur->entries++;
		cur->valid += valid;
		cur->fallback += !valid;
		if (spin) {
			cur->spin_entries++;
			cur->spin_valid += valid;
		}
		if (!entry_ok(&s->ids[i], s->ips[i])) {
			if (cur->wrong < 5)
				printf("wrong entry %u: ip %#llx status %d offset %#llx\n", i,
				       (unsigned long long)s->ips[i], s->ids[i].status,
				       (unsigned long long)s->ids[i].offset);
			cur->wrong++;
		}
	}
	switch (s->find_ret) {
	case 0:
		cur->find_ok++;
		if (!vma_ok(&s->vma, s->probe)) {
			if (cur->find_wrong < 5)
				printf("wrong vma: %#llx-%#llx pgoff %llu ino %llu flags %#llx\n",
				       (unsigned long long)s->vma.start,
				       (unsigned long long)s->vma.end,
				       (unsigned long long)s->vma.pgoff,
				       (unsigned long long)s->vma.ino,
				       (unsigned long long)s->vma.flags);
			cur->find_wrong++;
		}
		break;
	case -EBUSY:
		cur->find_busy++;
		break;
	case -ENOENT:
		cur->find_enoent++;
		break;
	default:
		cur->find_other++;
	}
	return 0;
}

static void *spinner(void *arg)
{
	pin_to_cpu(0);
	spin_tid = gettid();
	spin_fake(fake_frame);
	return NULL;
}

static void map_region(int fd, unsigned long pgoff)
{
	mmap(region, REGION, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_FIXED, fd,
	     pgoff * PAGE);
}

static void *stormer(void *arg)
{
	pin_to_cpu(1);
	while (!storm_stop) {
		map_region(fd_a, 0);
		mprotect(region, 2 * PAGE, PROT_READ);
		map_region(fd_b, 1);
		/* anonymous, so that nothing else can take the range */
		mmap(region, REGION, PROT_NONE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		storm_iters++;
	}
	map_region(fd_a, 0);
	return NULL;
}

static void run_phase(struct ring_buffer *rb, struct phase *p, int seconds)
{
	struct timespec t0, now;

	cur = p;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		ring_buffer__poll(rb, 100);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec - t0.tv_sec < seconds);
}

static void report(const char *name, const struct phase *p)
{
	long n = p->spin_samples ? p->spin_samples : 1;

	printf("%s: samples %ld (spinning %ld), entries %ld: valid %ld, IP fallback %ld, wrong %ld; "
	       "bpf_find_vma ok %ld, -EBUSY %ld, -ENOENT %ld, other %ld, wrong %ld\n",
	       name, p->samples, p->spin_samples, p->entries, p->valid, p->fallback,
	       p->wrong, p->find_ok, p->find_busy, p->find_enoent, p->find_other,
	       p->find_wrong);
	/* Reported, not asserted: wall time under TCG is not a gate. */
	printf("%s: ns per call (spinning samples): build-ID stack mean %llu max %llu, "
	       "bpf_find_vma mean %llu max %llu\n", name, p->id_ns / n, p->id_max,
	       p->find_ns / n, p->find_max);
}

/* The file of the mapping that holds @addr, from /proc/self/maps. */
static int mapped_path(const void *addr, char *path, size_t len)
{
	char line[512], p[256];
	unsigned long s, e;
	FILE *f = fopen("/proc/self/maps", "r");
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %255s", &s, &e, p) == 3 &&
		    (unsigned long)addr >= s && (unsigned long)addr < e) {
			snprintf(path, len, "%s", p);
			err = 0;
			break;
		}
	fclose(f);
	return err;
}

void test_main(void)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = PERIOD_NS,
	};
	struct bpf_link *link = NULL, *kp = NULL;
	struct ring_buffer *rb = NULL;
	struct build_id *skel;
	pthread_t ts, tm;
	char libc[256];
	bool rt = kernel_is_rt();
	int pfd = -1;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		test_skip("needs two CPUs (the functional boot)");
	/* Run from a tmpfs copy, whose pages are all in the page cache. */
	exec_from_copy(SELF_COPY, REEXEC_ENV);
	if (!ASSERT_STREQ(getenv(REEXEC_ENV), "1", "running_from_tmpfs"))
		return;

	/* File B: a tmpfs copy of libc, which has a build ID of its own. */
	if (!ASSERT_OK(mapped_path((void *)printf, libc, sizeof(libc)), "libc_path") ||
	    !ASSERT_OK(copy_file(libc, B_COPY), "copy_libc"))
		return;
	fd_a = open(SELF_COPY, O_RDONLY);
	fd_b = open(B_COPY, O_RDONLY);
	if (!ASSERT_GE(fd_a, 0, "open_a") || !ASSERT_GE(fd_b, 0, "open_b"))
		return;
	path_build_id(SELF_COPY, &file_a);
	path_build_id(B_COPY, &file_b);
	if (!ASSERT_GT(file_a.id_len, 0, "binary_has_build_id") ||
	    !ASSERT_GT(file_b.id_len, 0, "libc_has_build_id") ||
	    !ASSERT_NEQ(memcmp(file_a.id, file_b.id, BUILD_ID_SIZE_MAX), 0,
			"build_ids_differ"))
		return;

	region = mmap(NULL, REGION, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!ASSERT_TRUE(region != MAP_FAILED, "region"))
		return;
	map_region(fd_a, 0);
	fake_frame[0] = 0;
	fake_frame[1] = (unsigned long)region + PROBE_OFF;
	if (!ASSERT_OK(read_maps(), "read_maps"))
		return;

	skel = build_id__open_and_load();
	if (!ASSERT_OK_PTR(skel, "open_and_load"))
		return;
	kp = bpf_program__attach(skel->progs.count_non_owner);
	/* up_read_non_owner() exists only with lockdep (the test profile) */
	ASSERT_OK_PTR(kp, "kprobe_up_read_non_owner");
	rb = ring_buffer__new(bpf_map__fd(skel->maps.samples), on_sample, NULL, NULL);
	if (!ASSERT_OK_PTR(rb, "ring_buffer"))
		goto out;

	pthread_create(&ts, NULL, spinner, NULL);
	while (!spin_tid)
		sched_yield();
	skel->bss->target_tid = spin_tid;
	skel->bss->probe_addr = (unsigned long)spin_fake;
	pfd = syscall(SYS_perf_event_open, &attr, spin_tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (!ASSERT_GE(pfd, 0, "perf_event_open"))
		goto stop;
	link = bpf_program__attach_perf_event(skel->progs.sample_stack, pfd);
	if (!ASSERT_OK_PTR(link, "attach_perf_event"))
		goto stop;

	run_phase(rb, &quiet, QUIET_S);
	skel->bss->probe_addr = (unsigned long)region + PROBE_OFF;
	pthread_create(&tm, NULL, stormer, NULL);
	run_phase(rb, &storm, STORM_S);
	storm_stop = 1;
	pthread_join(tm, NULL);
stop:
	bpf_link__destroy(link);
	link = NULL;
	spin_stop = 1;
	pthread_join(ts, NULL);
	if (rb)
		ring_buffer__consume(rb);

	report("quiet", &quiet);
	report("storm", &storm);
	printf("storm iterations %ld; ring buffer drops %llu; up_read_non_owner calls %llu\n",
	       storm_iters, (unsigned long long)skel->bss->drops,
	       (unsigned long long)skel->bss->non_owner_unlocks);
	printf("valid_build_id_pct quiet=%ld\n",
	       quiet.spin_entries ? quiet.spin_valid * 100 / quiet.spin_entries : 0);

	ASSERT_GE(quiet.spin_samples, 100, "quiet_sampled");
	ASSERT_EQ(quiet.wrong, 0, "quiet_no_wrong_entry");
	ASSERT_GE(quiet.spin_valid * 100, quiet.spin_entries * 90, "quiet_90pct_valid_build_ids");
	ASSERT_EQ(quiet.find_ok, quiet.samples, "quiet_find_vma_always_found");
	ASSERT_EQ(quiet.find_wrong, 0, "quiet_find_vma_matches_maps");
	ASSERT_GE(storm_iters, 100, "storm_ran");
	ASSERT_GE(storm.spin_samples, 100, "storm_sampled");
	ASSERT_EQ(storm.wrong, 0, "storm_no_wrong_entry");
	ASSERT_EQ(storm.find_wrong, 0, "storm_find_vma_never_torn");
	ASSERT_EQ(storm.find_other, 0, "storm_find_vma_no_other_error");
	if (rt)
		ASSERT_EQ(skel->bss->non_owner_unlocks, 0, "rt_never_up_read_non_owner");
out:
	if (pfd >= 0)
		close(pfd);
	ring_buffer__free(rb);
	bpf_link__destroy(kp);
	build_id__destroy(skel);
}
