// SPDX-License-Identifier: GPL-2.0
/* main() and reporting for the rt-bpf tests; see test.h. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdarg.h>
#include <time.h>
#include <unistd.h>
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

static long long ts_ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

long long cyclic_max_ns(int samples, long period_ns)
{
	struct timespec next, now;
	long long worst = 0, d;
	int i, at = 0;

	if (set_fifo(95))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (i = 0; i < samples; i++) {
		next.tv_nsec += period_ns;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		clock_gettime(CLOCK_MONOTONIC, &now);
		d = ts_ns(&now) - ts_ns(&next);
		if (d > worst) {
			worst = d;
			at = i;
		}
	}
	set_fifo(0);
	printf("worst wakeup: sample %d of %d\n", at, samples);
	return worst;
}

bool kernel_is_rt(void)
{
	struct utsname u;

	return !uname(&u) && strstr(u.version, "PREEMPT_RT");
}

#define PAYLOAD "/payload"

bool kmsg_find_splat(const char *log, char *out, size_t n)
{
	char tmp[] = "/tmp/kmsg.XXXXXX", cmd[256];
	size_t len = strlen(log);
	FILE *f;
	int fd, rc = -1;

	out[0] = 0;
	fd = mkstemp(tmp);
	if (fd < 0)
		goto out;
	if (write(fd, log, len) != (ssize_t)len) {
		close(fd);
		goto unlink;
	}
	close(fd);
	snprintf(cmd, sizeof(cmd), "sh %s/guest/scan-splats.sh %s/splat/deny.txt "
		 "%s/splat/allow.txt <%s 2>&1", PAYLOAD, PAYLOAD, PAYLOAD, tmp);
	f = popen(cmd, "r");
	if (f) {
		if (!fgets(out, n, f))
			out[0] = 0;
		out[strcspn(out, "\n")] = 0;
		rc = pclose(f);
	}
unlink:
	unlink(tmp);
out:
	if (!rc)
		return false;
	if (!out[0])
		snprintf(out, n, "the splat scanner did not run (%d)", rc);
	return true;
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
