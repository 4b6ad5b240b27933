// SPDX-License-Identifier: GPL-2.0
/*
 * The guest runs the kernel the bench built: PREEMPT_RT for the test and
 * bench profiles, an ordinary preemptible kernel for nonrt.  Three
 * witnesses must agree: uname -v, the running config (IKCONFIG_PROC) and,
 * where the tree has it, /sys/kernel/realtime.
 */
#include <sys/utsname.h>
#include <zlib.h>
#include "test.h"

/* 1 if /sys/kernel/realtime reads 1, 0 if it reads 0, -1 if absent. */
static int read_realtime(void)
{
	FILE *f = fopen("/sys/kernel/realtime", "r");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -2;
	fclose(f);
	return v;
}

/* 1 if /proc/config.gz has CONFIG_PREEMPT_RT=y, 0 if not, -1 on error. */
static int config_has_rt(void)
{
	gzFile gz = gzopen("/proc/config.gz", "r");
	char line[512];
	int found = 0;

	if (!gz)
		return -1;
	while (gzgets(gz, line, sizeof(line)))
		if (!strcmp(line, "CONFIG_PREEMPT_RT=y\n"))
			found = 1;
	gzclose(gz);
	return found;
}

void test_main(void)
{
	const char *profile = getenv("RTBPF_PROFILE");
	struct utsname u;
	bool want_rt;
	int rt;

	if (!ASSERT_TRUE(profile && *profile, "profile_known"))
		return;
	want_rt = strcmp(profile, "nonrt") != 0;
	if (!ASSERT_OK(uname(&u), "uname"))
		return;
	printf("profile %s, uname -v: %s\n", profile, u.version);
	ASSERT_EQ(strstr(u.version, "PREEMPT_RT") != NULL, want_rt, "uname_preempt_rt");
	ASSERT_EQ(config_has_rt(), want_rt, "config_preempt_rt");
	/* This 6.12 tree has no /sys/kernel/realtime; later ones do. */
	rt = read_realtime();
	if (rt == -1)
		printf("/sys/kernel/realtime: absent in this tree\n");
	else
		ASSERT_EQ(rt, want_rt, "sys_kernel_realtime");
}
