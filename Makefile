# rt-bpf: BPF on PREEMPT_RT, with proof.  The one front door.
#
#   make run        build the patched PREEMPT_RT kernel, boot it, print the demo report
#   make test       build the test kernel and pass the test suite
#   make help       everything else
#
# Variables:
#   PROFILE=test|bench|nonrt   kernel profile (config/*.profile)
#   SERIES=none                the stock Debian tree, without patches/series
#   TESTS=a,b                  run only these tests
#   RTBPF_CACHE=dir            tree, builds and outputs (default ~/.cache/rt-bpf)

SHELL      := /bin/bash
S          := scripts
PROFILES   := $(patsubst config/%.profile,%,$(wildcard config/*.profile))
SERIES     ?=
TESTS      ?=
export SERIES TESTS

# make run and make bench measure latency: no debug options by default.
ifneq ($(filter run bench,$(MAKECMDGOALS)),)
PROFILE    ?= bench
endif
PROFILE    ?= test

ifeq ($(filter $(PROFILE),$(PROFILES)),)
$(error unknown PROFILE '$(PROFILE)' (known: $(PROFILES)))
endif

.PHONY: help deps tree kernel tools guest test run bench shell selftests matrix patches compare clean

help:
	@sed -n 's/^#   //p' Makefile
	@echo
	@echo 'targets: run test bench shell selftests matrix patches compare deps clean'
	@echo '         tree kernel tools guest (single steps)'

deps:
	@$(S)/deps.sh

tree: deps
	@$(S)/tree.sh

kernel: tree
	@$(S)/config.sh $(PROFILE)
	@$(S)/build-kernel.sh $(PROFILE)

tools: tree
	@$(S)/build-tools.sh

guest: kernel tools
	@$(S)/initramfs.sh $(PROFILE)
	@$(S)/payload.sh $(PROFILE)

test: guest
	@$(S)/test.sh $(PROFILE) $(TESTS)

run: guest
	@$(S)/demo.sh $(PROFILE)

bench: guest
	@$(S)/bench.sh $(PROFILE)

shell: guest
	@$(S)/boot.sh $(PROFILE) shell shell rtbpf.mode=shell

selftests: guest
	@$(S)/selftests.sh $(PROFILE)

# The RT-safety matrix alone, booting again after each cell that splats.
matrix: guest
	@$(S)/matrix.sh $(PROFILE)

# Stock beside patched, from the last `make test` of each.
compare:
	@$(S)/compare.sh $(PROFILE)

# Export what is in the work tree; never reset it first.
patches: deps
	@$(S)/export-patches.sh

clean:
	@$(S)/clean.sh

.DEFAULT:
	@echo "rt-bpf: error: unknown target '$@' (see 'make help')" >&2; exit 2
