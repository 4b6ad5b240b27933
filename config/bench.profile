# PREEMPT_RT without debug options: for latency numbers.
base
selftests
rt
