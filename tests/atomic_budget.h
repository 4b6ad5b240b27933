/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ATOMIC_BUDGET_H
#define ATOMIC_BUDGET_H

/* What a program's runs did: one of these per program, in .bss. */
struct loop_stats {
	__u64 runs;
	__u64 short_runs;	/* fewer iterations than asked for */
	__u64 min_iters;
	__u64 max_ns;
};

#endif
