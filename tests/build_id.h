/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BUILD_ID_H
#define BUILD_ID_H

#define MAX_DEPTH	8
#ifndef BUILD_ID_SIZE_MAX
#define BUILD_ID_SIZE_MAX	20
#endif

/* What bpf_find_vma() showed the callback. */
struct vma_info {
	__u64 start;
	__u64 end;
	__u64 pgoff;
	__u64 flags;
	__u64 ino;
};

/* One perf sample of the target thread: its user stack twice, and a VMA. */
struct bid_sample {
	__u32 nr_ips;
	__u32 nr_ids;
	__s64 find_ret;
	__u64 probe;			/* the address bpf_find_vma() looked up */
	__u64 id_ns;			/* time in the build-ID bpf_get_stack() */
	__u64 find_ns;			/* time in bpf_find_vma() */
	struct vma_info vma;
	__u64 ips[MAX_DEPTH];
	struct bpf_stack_build_id ids[MAX_DEPTH];
};

#endif
