/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPRINTF_PREEMPT_H
#define BPRINTF_PREEMPT_H

/* The format: "%u" and then plain text up to the terminating NUL. */
#define FMT_SIZE	(256 * 1024)
#define OUT_SIZE	32

#define LOW	0
#define HIGH	1

#endif
