/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tiny assertion helpers for the rt-bpf tests, in the style of the BPF
 * selftests: every assertion is named, prints one line, and returns
 * whether it held, so a test can stop at the first broken step:
 *
 *	if (!ASSERT_OK(err, "attach"))
 *		return;
 *
 * A test file defines test_main(); lib/test.c provides main().  The exit
 * status is 0 when every assertion held, 1 otherwise and 4 (kselftest
 * KSFT_SKIP) after test_skip().
 */
#ifndef RTBPF_TEST_H
#define RTBPF_TEST_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_main(void);

bool test_report(bool ok, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void test_skip(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
/* The calling thread's CPU; pin it there with pin_to_cpu(). */
int pin_to_cpu(int cpu);
/* Make the calling thread SCHED_FIFO at @prio (0: SCHED_OTHER). */
int set_fifo(int prio);
/* Whether the running kernel is PREEMPT_RT (from uname -v). */
bool kernel_is_rt(void);
/*
 * The cyclictest loop: as SCHED_FIFO 95, sleep until the next multiple of
 * @period_ns, @samples times, and return the worst lateness of a wakeup in
 * ns (-1 if the thread cannot be made FIFO).  Back to SCHED_OTHER after.
 */
long long cyclic_max_ns(int samples, long period_ns);
/*
 * Whether kernel log messages (@log, one a line) hold a splat, as
 * guest/scan-splats.sh tells with the payload's splat/deny.txt and
 * splat/allow.txt: if so, the first offending line goes to @out.  A
 * scanner that cannot run counts as a splat, so that a broken payload
 * fails the test instead of hiding one.
 */
bool kmsg_find_splat(const char *log, char *out, size_t n);

#define ASSERT_TRUE(cond, name)						\
	test_report(!!(cond), name, "%s", #cond)

#define ASSERT_OK(res, name) ({						\
	long long __r = (long long)(res);				\
	int __e = errno;						\
	test_report(__r == 0, name, "got %lld (errno %d: %s)",		\
		    __r, __e, strerror(__e));				\
})

#define ASSERT_OK_PTR(ptr, name) ({					\
	const void *__p = (ptr);					\
	int __e = errno;						\
	test_report(__p != NULL, name, "got NULL (errno %d: %s)",	\
		    __e, strerror(__e));				\
})

#define __ASSERT_CMP(a, op, b, name) ({					\
	long long __a = (long long)(a), __b = (long long)(b);		\
	test_report(__a op __b, name, "%s = %lld, want " #op " %lld",	\
		    #a, __a, __b);					\
})

#define ASSERT_EQ(a, b, name)	__ASSERT_CMP(a, ==, b, name)
#define ASSERT_NEQ(a, b, name)	__ASSERT_CMP(a, !=, b, name)
#define ASSERT_GE(a, b, name)	__ASSERT_CMP(a, >=, b, name)
#define ASSERT_LE(a, b, name)	__ASSERT_CMP(a, <=, b, name)
#define ASSERT_GT(a, b, name)	__ASSERT_CMP(a, >, b, name)
#define ASSERT_LT(a, b, name)	__ASSERT_CMP(a, <, b, name)

#define ASSERT_STREQ(a, b, name) ({					\
	const char *__a = (a), *__b = (b);				\
	test_report(__a && __b && !strcmp(__a, __b), name,		\
		    "got \"%s\", want \"%s\"", __a ?: "(null)", __b);	\
})

#endif
