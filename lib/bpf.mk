# Build rules shared by tests/ and bench/.  Every foo.c is one program;
# if foo.bpf.c sits beside it, its skeleton foo.skel.h is generated and
# foo.c may include it.  Nothing lists programs by hand.
#
# Callers set OUT (output dir), KBUILD (kernel build dir, for vmlinux.h)
# and TOOLS (libbpf and bpftool from scripts/build-tools.sh).

CLANG     ?= clang-19
CC        ?= gcc
BPFTOOL   := $(TOOLS)/bpftool/bpftool
LIBBPF_A  := $(TOOLS)/libbpf/libbpf.a
LIBDIR    := $(dir $(lastword $(MAKEFILE_LIST)))
INCLUDES  := -I$(OUT) -I$(TOOLS)/libbpf/include -I$(LIBDIR)

PROG_LIBS ?= $(LIBDIR)test.c $(LIBDIR)net.c $(LIBDIR)file.c
PROGS     := $(patsubst %.c,$(OUT)/%,$(filter-out %.bpf.c,$(wildcard *.c)))
HEADERS   := $(wildcard $(LIBDIR)*.h) $(wildcard *.h)

all: $(PROGS)

$(OUT)/vmlinux.h: $(KBUILD)/vmlinux | $(OUT)
	$(BPFTOOL) btf dump file $< format c >$@.tmp && mv $@.tmp $@

$(OUT)/%.bpf.o: %.bpf.c $(OUT)/vmlinux.h $(HEADERS) | $(OUT)
	$(CLANG) -g -O2 -Wall -target bpf -mcpu=v3 -D__TARGET_ARCH_x86 $(INCLUDES) -c $< -o $@

$(OUT)/%.skel.h: $(OUT)/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $* >$@.tmp && mv $@.tmp $@

.SECONDEXPANSION:
$(OUT)/%: %.c $(PROG_LIBS) $(HEADERS) $(LIBBPF_A) $$(if $$(wildcard $$*.bpf.c),$(OUT)/$$*.skel.h) | $(OUT)
	$(CC) -O2 -g -Wall $(INCLUDES) $< $(PROG_LIBS) $(LIBBPF_A) -lelf -lz -lzstd -lpthread -o $@

$(OUT):
	mkdir -p $@

.PHONY: all
.SECONDARY:
