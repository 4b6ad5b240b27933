#!/bin/bash
# Build the tests and benchmarks against the profile's kernel and gather
# everything the guest runs into the 9p payload directory: the programs,
# bpftool, cyclictest, the guest scripts, the splat patterns and the shared
# libraries all of them need.
#
# usage: payload.sh PROFILE
. "$(dirname "$0")/lib.sh"

profile=${1:?usage: payload.sh PROFILE}
B=$(build_dir "$profile")
OUT=$(out_dir "$profile")
T=$(tools_dir)
P=$OUT/payload
[ -f "$B/vmlinux" ] || die "no vmlinux in $B; build the kernel first"
[ -x "$T/bpftool/bpftool" ] || die "no bpftool in $T; run scripts/build-tools.sh"
need_cmd clang-19 cyclictest rsync

for d in tests bench; do
	log "building $d/ against $B"
	make -s -C "$RTBPF_ROOT/$d" -j"$JOBS" OUT="$OUT/obj/$d" KBUILD="$B" TOOLS="$T" ||
		die "building $d/ failed"
done
"$RTBPF_ROOT/scripts/build-scx.sh" "$profile"
"$RTBPF_ROOT/scripts/selftests-mini.sh" "$profile"

mkdir -p "$P"/{tests,bin,lib,out}
rsync -a --delete "$RTBPF_ROOT/guest/" "$P/guest/"
rsync -a --delete "$RTBPF_ROOT/splat/" "$P/splat/"
rsync -a --delete --include='*.sh' --exclude='*' "$RTBPF_ROOT/bench/" "$P/bench/"
# Only executables: a test is anything the guest finds in tests/.
rsync -a --delete --exclude='*.*' --exclude='*/' "$OUT/obj/tests/" "$P/tests/"
rsync -a --delete --exclude='*.*' --exclude='*/' "$OUT/obj/bench/" "$P/bin/bench/" 2>/dev/null ||
	mkdir -p "$P/bin/bench"
cp "$T/bpftool/bpftool" "$(command -v cyclictest)" "$P/bin/"
cp "$OUT/obj/scx/build/bin/scx_central" "$P/bin/"
mkdir -p "$P/selftests-mini"
cp "$OUT/selftests-mini/test_progs" "$OUT/selftests-mini/bpf_testmod.ko" "$P/selftests-mini/"

# The shared libraries of every binary, and the dynamic loader.
copy_libs "$P/lib" "$P/bin" "$P/tests" "$P/selftests-mini"
[ -e "$P/lib/ld-linux-x86-64.so.2" ] || die "dynamic loader missing from the payload"
log "payload ready: $P ($(ls "$P/tests" | wc -l) tests)"
