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
guest_sync "$P"
rsync -a --delete --include='*.sh' --exclude='*' "$RTBPF_ROOT/bench/" "$P/bench/"
# The programs of the sources that exist now, and nothing older: a test is
# anything the guest finds in tests/, so a binary left in obj/ by a test
# that was since removed or renamed must not come along.
copy_progs() {
	local src=$1 obj=$2 dst=$3 c
	rm -rf "$dst"
	mkdir -p "$dst"
	for c in "$src"/*.c; do
		case $c in *.bpf.c) continue ;; esac
		c=$(basename "$c" .c)
		cp "$obj/$c" "$dst/" || die "$obj/$c was not built"
	done
}
copy_progs "$RTBPF_ROOT/tests" "$OUT/obj/tests" "$P/tests"
copy_progs "$RTBPF_ROOT/bench" "$OUT/obj/bench" "$P/bin/bench"
cp "$T/bpftool/bpftool" "$(command -v cyclictest)" "$P/bin/"
cp "$OUT/obj/scx/build/bin/scx_central" "$P/bin/"
mkdir -p "$P/selftests-mini"
cp "$OUT/selftests-mini/test_progs" "$OUT/selftests-mini/bpf_testmod.ko" "$P/selftests-mini/"

# The shared libraries of every binary, and the dynamic loader.
copy_libs "$P/lib" "$P/bin" "$P/tests" "$P/selftests-mini"
[ -e "$P/lib/ld-linux-x86-64.so.2" ] || die "dynamic loader missing from the payload"
log "payload ready: $P ($(ls "$P/tests" | wc -l) tests)"
