#!/bin/bash
# Build the kernel of a profile out of tree, with ccache, incrementally.
# Prints a progress line now and then; the full log is in the build dir.
#
# usage: build-kernel.sh PROFILE
. "$(dirname "$0")/lib.sh"

profile=${1:?usage: build-kernel.sh PROFILE}
SRC=$(src_dir)
B=$(build_dir "$profile")
need_cmd gcc make pahole ccache bc flex bison

export CCACHE_DIR=${CCACHE_DIR:-$RTBPF_CACHE/ccache}
export CCACHE_SLOPPINESS=time_macros,include_file_mtime
ccache -M 20G >/dev/null
# Fixed build identity, so that ccache hits and rebuilds do not churn.
export KBUILD_BUILD_TIMESTAMP="$(git -C "$SRC" log -1 --format=%cd)"
export KBUILD_BUILD_USER=rt-bpf KBUILD_BUILD_HOST=rt-bpf

log "building kernel ($profile, $(variant)) in $B with -j$JOBS"
start=$(date +%s)
set +e
make -C "$SRC" O="$B" -j"$JOBS" CC="ccache gcc" all 2>&1 |
	tee "$B/build.log" |
	awk -v p="$profile" '
		/ (error|Error) / || /error:/ { print; fflush(); next }
		/^  (CC|LD|AR|BTF|GEN)/ {
			n++
			if (n % 250 == 0) { printf "[build %s] %d steps, at %s\n", p, n, $2; fflush() }
		}'
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" -ne 0 ]; then
	tail -40 "$B/build.log" >&2
	die "kernel build ($profile) failed; full log: $B/build.log"
fi
[ -f "$B/arch/x86/boot/bzImage" ] || die "no bzImage after the build"
[ -f "$B/vmlinux" ] || die "no vmlinux after the build"
# Which tree this kernel was built from, for boot.sh to check.
cp "$SRC/.git/rtbpf-state" "$B/rtbpf-tree"
log "kernel $profile built in $(( $(date +%s) - start ))s: $B/arch/x86/boot/bzImage"
