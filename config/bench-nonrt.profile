# The non-RT reference without debug options: bench with CONFIG_PREEMPT
# instead of RT, for the non-RT overhead numbers.
base
selftests
preempt
