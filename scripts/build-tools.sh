#!/bin/bash
# Build libbpf and bpftool from the kernel tree itself (never Debian's older
# libbpf), out of tree, into the cache.
#
# usage: build-tools.sh
. "$(dirname "$0")/lib.sh"

SRC=$(src_dir)
T=$(tools_dir)
need_cmd clang-19 llvm-strip-19 gcc make
mkdir -p "$T/libbpf" "$T/bpftool"

log "building libbpf from $SRC/tools/lib/bpf"
make -s -C "$SRC/tools/lib/bpf" -j"$JOBS" OUTPUT="$T/libbpf/" \
	DESTDIR="$T/libbpf" prefix= install_headers "$T/libbpf/libbpf.a" \
	>"$T/libbpf.log" 2>&1 ||
	{ tail -30 "$T/libbpf.log" >&2; die "libbpf build failed; log: $T/libbpf.log"; }

log "building bpftool from $SRC/tools/bpf/bpftool"
make -s -C "$SRC/tools/bpf/bpftool" -j"$JOBS" OUTPUT="$T/bpftool/" \
	CLANG=clang-19 LLVM_STRIP=llvm-strip-19 \
	>"$T/bpftool.log" 2>&1 ||
	{ tail -30 "$T/bpftool.log" >&2; die "bpftool build failed; log: $T/bpftool.log"; }
[ -x "$T/bpftool/bpftool" ] || die "no bpftool binary after the build"
log "tools ready in $T"
