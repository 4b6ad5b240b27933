# PREEMPT_RT with the debug options: what make test runs.
base
selftests
rt
debug
