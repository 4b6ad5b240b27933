// SPDX-License-Identifier: GPL-2.0
/* main() and reporting for the rt-bpf tests; see test.h. */
#define _GNU_SOURCE
#include <ctype.h>
#include <regex.h>
#include <sched.h>
#include <stdarg.h>
#include <time.h>
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

#ifndef SPLAT_DIR
#define SPLAT_DIR "/payload/splat"
#endif
#define MAX_PATTERNS 64

struct patterns {
	regex_t re[MAX_PATTERNS];
	int n;
};

/* One extended regex a line; '#' starts a comment, as in scan-splats.sh. */
static bool load_patterns(const char *file, struct patterns *p)
{
	char line[512], *end;
	FILE *f = fopen(file, "r");
	bool ok = true;

	if (!f) {
		printf("kmsg_is_splat: cannot open %s: %s\n", file, strerror(errno));
		return false;
	}
	while (ok && fgets(line, sizeof(line), f)) {
		end = strchr(line, '#');
		if (!end)
			end = line + strlen(line);
		while (end > line && isspace((unsigned char)end[-1]))
			end--;
		*end = 0;
		if (!*line)
			continue;
		if (p->n == MAX_PATTERNS ||
		    regcomp(&p->re[p->n], line, REG_EXTENDED | REG_NOSUB)) {
			printf("kmsg_is_splat: %s: cannot use \"%s\"\n", file, line);
			ok = false;
			break;
		}
		p->n++;
	}
	fclose(f);
	return ok;
}

static bool match_any(const struct patterns *p, const char *msg)
{
	int i;

	for (i = 0; i < p->n; i++)
		if (!regexec(&p->re[i], msg, 0, NULL, 0))
			return true;
	return false;
}

bool kmsg_is_splat(const char *msg)
{
	static struct patterns deny, allow;
	static int loaded;	/* 0 not yet, 1 loaded, -1 broken */

	if (!loaded)
		loaded = load_patterns(SPLAT_DIR "/deny.txt", &deny) &&
			 load_patterns(SPLAT_DIR "/allow.txt", &allow) ? 1 : -1;
	if (loaded < 0)
		return true;
	return match_any(&deny, msg) && !match_any(&allow, msg);
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
