#!/bin/sh
# Guest side of 'make bench' (boot it under icount): the cost of a
# tracepoint hit with a trivial program, then the latency probe of the demo.
/payload/bin/bench/tp_cost "${BENCH_CALLS:-100000}"
. /payload/bench/demo.sh
