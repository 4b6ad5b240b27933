#!/bin/bash
# Build the sched_ext example scheduler scx_central from the kernel tree's own
# tools/sched_ext, against the BTF of the profile's vmlinux, out of tree.  The
# Makefile there builds its own libbpf (linked statically) and bpftool from the
# same tree.  Incremental: a re-run does nothing unless the tree or the
# vmlinux changed (a new vmlinux only regenerates vmlinux.h and scx_central).
#
# usage: build-scx.sh PROFILE
. "$(dirname "$0")/lib.sh"

profile=${1:?usage: build-scx.sh PROFILE}
SRC=$(src_dir)
B=$(build_dir "$profile")
O=$(out_dir "$profile")/obj/scx
LOG=$O/make.log
BIN=$O/build/bin/scx_central
need_cmd clang-19 llvm-strip-19 gcc make readelf
[ -d "$SRC/tools/sched_ext" ] || die "no tools/sched_ext in $SRC; run 'make tree'"
[ -f "$B/vmlinux" ] || die "no vmlinux in $B; build the kernel first"
# Never let the Makefile fall back to the host's /sys/kernel/btf/vmlinux.
# (No grep -q: it would SIGPIPE readelf, which pipefail turns into a failure.)
readelf -SW "$B/vmlinux" | grep -E '\]\s+\.BTF\s' >/dev/null ||
	die "$B/vmlinux has no .BTF section; the profile needs CONFIG_DEBUG_INFO_BTF=y"
mkdir -p "$O"

log "building scx_central from $SRC/tools/sched_ext against $B/vmlinux"
make -C "$SRC/tools/sched_ext" -j"$JOBS" O="$O" VMLINUX_BTF="$B/vmlinux" \
	CLANG=clang-19 LLVM_STRIP=llvm-strip-19 scx_central >"$LOG" 2>&1 ||
	{ tail -30 "$LOG" >&2; die "scx_central build failed; log: $LOG"; }
[ -x "$BIN" ] || die "no scx_central binary after the build; log: $LOG"
log "scx_central ready: $BIN"
