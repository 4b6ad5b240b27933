/* SPDX-License-Identifier: GPL-2.0 */
#ifndef TP_LATENCY_H
#define TP_LATENCY_H

/* The programs, as indexes of runs[] and max_run_ns[] in .bss. */
enum { RAW_TP, TP_BTF, TP, NR_PROGS };

#endif
