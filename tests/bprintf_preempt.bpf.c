// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_snprintf() with a long format from an fentry program, which is
 * preemptible on PREEMPT_RT.  The format is "%u" followed by plain text,
 * in a frozen read-only array map; the argument is the caller's thread
 * id, so every result can be checked: the digits, the text after them
 * and the returned length.
 *
 * An fexit program on bpf_bprintf_prepare() sees which per-CPU argument
 * buffer each call got.  A lone caller always gets the same one; when
 * "high" gets another, it formatted while "low" held a buffer, which is
 * possible only when formatting can be preempted.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bprintf_preempt.h"

#define EBUSY	16

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__uint(value_size, FMT_SIZE);
	__uint(map_flags, BPF_F_RDONLY_PROG);
} fmt_map SEC(".maps");

int target_tgid;
int tids[2];		/* tids[HIGH]: the thread counted as high */
__u32 tail_len;		/* length of the text after "%u" */

__u64 runs[2];
__u64 busy[2];		/* -EBUSY: no free buffer */
__u64 errors[2];	/* any other error */
__u64 bad_text[2];	/* the output is not "<tid>xxx..." */
__u64 bad_len[2];	/* the returned length is not digits + text + 1 */
__u64 max_run_ns;

__u64 low_buf;		/* the argument buffer low got first */
__u64 low_other_buf;	/* low calls that got another one */
__u64 high_same_buf;	/* high calls that got low's usual one */
__u64 high_other_buf;	/* high calls that got another one */

static __always_inline int who(void)
{
	__u64 id = bpf_get_current_pid_tgid();

	if ((id >> 32) != target_tgid)
		return -1;
	return (__u32)id == tids[HIGH] ? HIGH : LOW;
}

SEC("fentry/__x64_sys_getpgid")
int BPF_PROG(format_it)
{
	__u32 zero = 0, tid, v = 0, i;
	char out[OUT_SIZE] = {};
	__u64 args[1], t0, d;
	const char *fmt;
	int w = who();
	long ret;

	if (w < 0)
		return 0;
	fmt = bpf_map_lookup_elem(&fmt_map, &zero);
	if (!fmt)
		return 0;
	tid = (__u32)bpf_get_current_pid_tgid();
	args[0] = tid;

	t0 = bpf_ktime_get_ns();
	ret = bpf_snprintf(out, sizeof(out), fmt, args, sizeof(args));
	d = bpf_ktime_get_ns() - t0;
	if (d > max_run_ns)
		max_run_ns = d;

	if (ret == -EBUSY) {
		__sync_fetch_and_add(&busy[w], 1);
	} else if (ret < 0) {
		__sync_fetch_and_add(&errors[w], 1);
	} else {
		for (i = 0; i < 10; i++) {
			if (out[i] < '0' || out[i] > '9')
				break;
			v = v * 10 + out[i] - '0';
		}
		if (i == 0 || i >= 10 || v != tid || out[i] != 'x' ||
		    out[OUT_SIZE - 2] != 'x' || out[OUT_SIZE - 1])
			__sync_fetch_and_add(&bad_text[w], 1);
		if (ret != i + tail_len + 1)
			__sync_fetch_and_add(&bad_len[w], 1);
	}
	__sync_fetch_and_add(&runs[w], 1);
	return 0;
}

SEC("fexit/bpf_bprintf_prepare")
int BPF_PROG(which_buf, char *fmt, u32 fmt_size, const u64 *raw_args,
	     u32 num_args, struct bpf_bprintf_data *data, int ret)
{
	__u64 b = (__u64)data->bin_args;
	int w = who();

	if (ret || !b)
		return 0;
	if (w == LOW) {
		if (!low_buf)
			low_buf = b;
		else if (b != low_buf)
			low_other_buf++;
	} else if (w == HIGH) {
		if (b == low_buf)
			high_same_buf++;
		else
			high_other_buf++;
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
