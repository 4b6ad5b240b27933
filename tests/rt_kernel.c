// SPDX-License-Identifier: GPL-2.0
/*
 * The guest runs the kernel the bench built: PREEMPT_RT for the test and
 * bench profiles, an ordinary preemptible kernel for nonrt.
 */
#include <sys/utsname.h>
#include "test.h"

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

void test_main(void)
{
	const char *profile = getenv("RTBPF_PROFILE");
	bool want_rt;
	struct utsname u;

	if (!ASSERT_TRUE(profile && *profile, "profile_known"))
		return;
	want_rt = strcmp(profile, "nonrt") != 0;
	if (!ASSERT_OK(uname(&u), "uname"))
		return;
	printf("uname -v: %s\n", u.version);
	ASSERT_EQ(strstr(u.version, "PREEMPT_RT") != NULL, want_rt, "uname_preempt_rt");
	/* /sys/kernel/realtime exists, and reads 1, only on PREEMPT_RT. */
	ASSERT_EQ(read_realtime(), want_rt ? 1 : -1, "sys_kernel_realtime");
}
