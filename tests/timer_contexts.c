// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_timer from every program context that may use one: a syscall program,
 * a raw tracepoint (tp_btf), a trampoline (fentry), XDP and tc ingress on a
 * veth, and a timer callback.  In each, init + start fires the callback
 * exactly once per start, a far timer cancels with 1 and then never fires,
 * and a second cancel returns 0.  kprobe, raw_tp and perf_event programs
 * are refused with the verifier's documented message, on RT and non-RT
 * alike.
 *
 * XFAIL on stock PREEMPT_RT: the verifier refuses bpf_timer (patch 0004)
 */
#define _GNU_SOURCE
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <linux/if_link.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "test.h"
#include "net.h"
#include "timer_contexts.h"
#include "timer_contexts.skel.h"

#define ROUNDS		20
#define VETH		"rtbpf0"
#define VETH_PEER	"rtbpf1"

static const char *const names[NR_CTX] = {
	[CTX_SYSCALL] = "syscall", [CTX_TP_BTF] = "tp_btf",
	[CTX_FENTRY] = "fentry", [CTX_XDP] = "xdp", [CTX_TC] = "tc",
	[CTX_CALLBACK] = "callback",
};

static struct timer_contexts *skel;

static void trigger(int ctx)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	switch (ctx) {
	case CTX_SYSCALL:
	case CTX_CALLBACK:
		bpf_prog_test_run_opts(bpf_program__fd(skel->progs.on_syscall), &opts);
		break;
	case CTX_TP_BTF:
		syscall(TRIGGER_SYSCALL, 0);
		break;
	case CTX_FENTRY:
		bpf_prog_test_run_opts(bpf_program__fd(skel->progs.on_fentry), &opts);
		break;
	case CTX_XDP:
	case CTX_TC:
		veth_send(VETH, 1);
		break;
	}
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Wait up to @ms for *@p to reach @want; return its last value. */
static int wait_for(volatile int *p, int want, int ms)
{
	while (*p < want && ms-- > 0)
		sleep_ms(1);
	return *p;
}

/* Post @r for @ctx and trigger until a program served it; return ret[]. */
static long request(int ctx, int r)
{
	volatile int *served = &skel->bss->served[ctx];
	int before = *served, i;

	if (ctx == CTX_CALLBACK)
		skel->bss->req[CTX_SYSCALL] = REQ_FIRE;
	skel->bss->req[ctx] = r;
	for (i = 0; i < 1000 && *served == before; i++) {
		trigger(ctx);
		if (*served == before)
			sleep_ms(1);
	}
	skel->bss->req[ctx] = REQ_NONE;
	if (*served == before)
		return -1000;	/* never served */
	return skel->bss->ret[ctx];
}

static void check_context(int ctx)
{
	volatile int *fired = &skel->bss->fired[ctx];
	const char *n = names[ctx];
	char name[64];
	long r;
	int i, ok = 1;

	for (i = 1; i <= ROUNDS && ok; i++) {
		r = request(ctx, REQ_FIRE);
		ok = r == 0 && wait_for(fired, i, 5000) == i;
		if (!ok) {
			snprintf(name, sizeof(name), "%s_fire_round_%d", n, i);
			ASSERT_EQ(r, 0, name);
		}
	}
	sleep_ms(20);
	snprintf(name, sizeof(name), "%s_fired_exactly_%d", n, ROUNDS);
	ASSERT_EQ(*fired, ROUNDS, name);

	if (ctx == CTX_CALLBACK)
		return;	/* cancel from a callback: see the tree's timer tests */
	snprintf(name, sizeof(name), "%s_arm_far", n);
	ASSERT_EQ(request(ctx, REQ_ARM_LONG), 0, name);
	snprintf(name, sizeof(name), "%s_cancel_armed", n);
	ASSERT_EQ(request(ctx, REQ_CANCEL), 1, name);
	snprintf(name, sizeof(name), "%s_cancel_again", n);
	ASSERT_EQ(request(ctx, REQ_CANCEL), 0, name);
	sleep_ms(20);
	snprintf(name, sizeof(name), "%s_cancelled_never_fired", n);
	ASSERT_EQ(*fired, ROUNDS, name);
}

/* Load @prog alone and check that the verifier refuses it with @msg. */
static void check_refused(const char *prog, const char *msg)
{
	static char log[64 * 1024];
	struct timer_contexts *s;
	struct bpf_program *p;
	char name[64];
	int err;

	s = timer_contexts__open();
	if (!ASSERT_OK_PTR(s, "open_for_refusal"))
		return;
	bpf_object__for_each_program(p, s->obj)
		bpf_program__set_autoload(p, !strcmp(bpf_program__name(p), prog));
	p = bpf_object__find_program_by_name(s->obj, prog);
	log[0] = 0;
	bpf_program__set_log_buf(p, log, sizeof(log));
	err = timer_contexts__load(s);
	snprintf(name, sizeof(name), "%s_refused", prog);
	ASSERT_NEQ(err, 0, name);
	snprintf(name, sizeof(name), "%s_refusal_message", prog);
	test_report(strstr(log, msg) != NULL, name, "log has no \"%s\"", msg);
	timer_contexts__destroy(s);
}

void test_main(void)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .attach_point = BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, tc);
	int ifindex, ctx;

	skel = timer_contexts__open();
	if (!ASSERT_OK_PTR(skel, "open"))
		return;
	skel->bss->target_tgid = getpid();
	if (!ASSERT_OK(timer_contexts__load(skel), "load"))
		goto out;
	if (!ASSERT_OK(timer_contexts__attach(skel), "attach"))
		goto out;

	if (!ASSERT_OK(veth_create(VETH, VETH_PEER), "veth_create"))
		goto out;
	ifindex = if_nametoindex(VETH_PEER);
	if (!ASSERT_OK(bpf_xdp_attach(ifindex, bpf_program__fd(skel->progs.on_xdp),
				      XDP_FLAGS_DRV_MODE, NULL), "xdp_attach"))
		goto out;
	hook.ifindex = ifindex;
	tc.prog_fd = bpf_program__fd(skel->progs.on_tc);
	if (!ASSERT_OK(bpf_tc_hook_create(&hook), "tc_hook") ||
	    !ASSERT_OK(bpf_tc_attach(&hook, &tc), "tc_attach"))
		goto out;

	for (ctx = 0; ctx < NR_CTX; ctx++)
		check_context(ctx);

	check_refused("refused_raw_tp", "tracing progs cannot use bpf_timer yet");
	check_refused("refused_kprobe", "tracing progs cannot use bpf_timer yet");
	check_refused("refused_perf_event", "tracing progs cannot use bpf_timer yet");
out:
	timer_contexts__destroy(skel);
}
