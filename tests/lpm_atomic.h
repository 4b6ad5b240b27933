/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LPM_ATOMIC_H
#define LPM_ATOMIC_H

#define LPM_ENTRIES	1024
#define SYSCALL_FN	"__x64_sys_getpgid"

#ifndef ENOENT
#define ENOENT		2
#define ENOMEM		12
#define EINVAL		22
#endif

struct lpm_key {
	__u32 prefixlen;
	__u8 data[4];
};

#endif
