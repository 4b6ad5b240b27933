# Shared helpers for the rt-bpf scripts.  Source it; do not run it.
# shellcheck shell=bash

set -euo pipefail

RTBPF_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RTBPF_CACHE=${RTBPF_CACHE:-${HOME:-/root}/.cache/rt-bpf}
DEB_PKG=linux-source-6.12
DEB_WANT=6.12.118-1~deb12u1
TARBALL=/usr/src/linux-source-6.12.tar.xz
PROFILES=$(cd "$RTBPF_ROOT/config" && ls -- *.profile | sed "s/\.profile$//" | xargs)
JOBS=${JOBS:-$(($(nproc) + 1))}
export RTBPF_ROOT RTBPF_CACHE

die()  { printf 'rt-bpf: error: %s\n' "$*" >&2; exit 1; }
warn() { printf 'rt-bpf: WARNING: %s\n' "$*" >&2; }
log()  { printf '==> %s\n' "$*" >&2; }

# The Debian version of the source package that is installed.
deb_version() {
	dpkg-query -W -f='${Version}' "$DEB_PKG" 2>/dev/null ||
		die "$DEB_PKG is not installed; run 'make deps'"
}

# stock when SERIES=none, patched otherwise.
variant() {
	if [ "${SERIES:-}" = none ]; then echo stock; else echo patched; fi
}

# The stock tree and its builds live apart from the patched ones: the series
# touches headers that half the kernel includes, so sharing one tree and one
# build dir made every switch between stock and patched a full rebuild.
variant_suffix() {
	if [ "$(variant)" = stock ]; then echo -stock; fi
}

# Paths derived from the installed Debian version, so that a different
# package version never reuses a tree unpacked from another one.
src_dir() {
	local v
	v=$(deb_version)
	printf '%s/src/linux-%s%s\n' "$RTBPF_CACHE" "${v//\~/_}" "$(variant_suffix)"
}

check_profile() {
	local p
	for p in $PROFILES; do
		[ "$1" = "$p" ] && return 0
	done
	die "unknown profile '$1' (known: $PROFILES)"
}

# One build dir per profile and variant.
build_dir() {
	check_profile "$1"
	printf '%s/build/%s%s\n' "$RTBPF_CACHE" "$1" "$(variant_suffix)"
}

need_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 ||
			die "'$c' not found; run 'make deps'"
	done
}

# The BPF selftests' kernel modules, each built in its directory of
# tools/testing/selftests/bpf.
TESTMODS="bpf_testmod bpf_test_modorder_x bpf_test_modorder_y bpf_test_no_cfi"

# testmod_clean SRC: the selftests' modules are built inside the tree, which
# all profiles of a variant share.  kbuild does not see that their objects
# were compiled for another profile's kernel (a nonrt object then fails
# modpost against the RT kernel), so every build of them starts from clean
# directories.
testmod_clean() {
	local m dirs=()
	for m in $TESTMODS; do dirs+=("tools/testing/selftests/bpf/$m"); done
	git -C "$1" clean -fdxq -- "${dirs[@]}" ||
		die "cannot clean the selftests' modules in $1"
}

# guest_sync PAYLOAD: the guest scripts and the splat patterns of this
# checkout into a payload.
guest_sync() {
	rsync -a --delete "$RTBPF_ROOT/guest/" "$1/guest/"
	rsync -a --delete "$RTBPF_ROOT/splat/" "$1/splat/"
}

# libbpf and bpftool, built from the tree of the current variant.
tools_dir() {
	printf '%s/tools-%s\n' "$RTBPF_CACHE" "$(variant)"
}

# Everything a profile's run produces besides the kernel: payload, logs.
out_dir() {
	check_profile "$1"
	printf '%s/out/%s-%s\n' "$RTBPF_CACHE" "$1" "$(variant)"
}

# copy_libs DEST DIR...: copy the shared libraries (and the dynamic loader)
# of every executable under the DIRs into DEST, for the guest.
copy_libs() {
	local dest=$1
	shift
	find "$@" -type f -perm -u+x -print0 |
		{ xargs -0 ldd 2>/dev/null || true; } |
		awk '/=> \// { print $3 } /^\t\/lib/ { print $1 }' | sort -u |
		while read -r lib; do cp -L "$lib" "$dest/"; done
}
