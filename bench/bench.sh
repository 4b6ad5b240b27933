#!/bin/sh
# Guest side of 'make bench' (boot it under icount): the cost of one
# tracepoint hit with a trivial program attached.  The latency probe is
# 'make run'.
/payload/bin/bench/tp_cost "${BENCH_CALLS:-20000}"
