/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by timer_contexts.c and timer_contexts.bpf.c. */
#ifndef TIMER_CONTEXTS_H
#define TIMER_CONTEXTS_H

enum {
	CTX_SYSCALL,	/* SEC("syscall"), run with BPF_PROG_TEST_RUN */
	CTX_TP_BTF,	/* tp_btf/sys_enter: a raw tracepoint */
	CTX_FENTRY,	/* fentry on bpf_fentry_test1: a trampoline */
	CTX_XDP,	/* XDP on a veth, in its NAPI poll */
	CTX_TC,		/* tc ingress on the same veth */
	CTX_CALLBACK,	/* armed from the CTX_SYSCALL timer's callback */
	NR_CTX
};

enum { REQ_NONE, REQ_FIRE, REQ_ARM_LONG, REQ_CANCEL };

#define TRIGGER_SYSCALL	121		/* __NR_getpgid on x86_64 */
/* Called by BPF_PROG_TEST_RUN of a tracing program, so easy to trigger. */
#define FENTRY_FUNC	"bpf_fentry_test1"

#endif
