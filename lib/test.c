// SPDX-License-Identifier: GPL-2.0
/* main() and reporting for the rt-bpf tests; see test.h. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdarg.h>
#include <sys/utsname.h>
#include <bpf/libbpf.h>
#include "test.h"

static int failures;

bool test_report(bool ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("PASS %s\n", name);
		return true;
	}
	failures++;
	printf("FAIL %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	return false;
}

void test_skip(const char *fmt, ...)
{
	va_list ap;

	printf("SKIP ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	exit(4);
}

int pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

int set_fifo(int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return sched_setscheduler(0, prio ? SCHED_FIFO : SCHED_OTHER, &sp);
}

bool kernel_is_rt(void)
{
	struct utsname u;

	return !uname(&u) && strstr(u.version, "PREEMPT_RT");
}

/* libbpf's warnings (verifier logs among them) go with the test output. */
static int print_fn(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stdout, fmt, ap);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	libbpf_set_print(print_fn);
	test_main();
	return failures ? 1 : 0;
}
