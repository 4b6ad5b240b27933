# The non-RT reference: test with CONFIG_PREEMPT instead of RT.
base
selftests
preempt
debug
