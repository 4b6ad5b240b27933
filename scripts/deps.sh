#!/bin/bash
# Install every Debian package the bench needs.  Safe to run again.
. "$(dirname "$0")/lib.sh"

pkgs=(
	build-essential bc bison flex cpio xz-utils rsync kmod git pkg-config
	libelf-dev libssl-dev libcap-dev zlib1g-dev libzstd-dev
	dwarves ccache python3
	clang-19 llvm-19 lld-19
	qemu-system-x86 busybox-static rt-tests gnuplot-nox
)

missing=()
for p in "$DEB_PKG" "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
	log "all packages present"
	exit 0
fi

sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
log "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q || die "apt-get update failed"

# Prefer the exact source version the series is written against.
src=$DEB_PKG
# Read madison whole: grep -q would quit early, and under pipefail the
# SIGPIPE of apt-cache would read as "version gone".
if apt-cache madison "$DEB_PKG" | grep -F "$DEB_WANT" >/dev/null; then
	src="$DEB_PKG=$DEB_WANT"
else
	warn "$DEB_PKG $DEB_WANT is gone from the archive; taking the newest 6.12"
	warn "the series was written against $DEB_WANT and may not apply"
fi
list=()
for p in "${missing[@]}"; do
	if [ "$p" = "$DEB_PKG" ]; then list+=("$src"); else list+=("$p"); fi
done
$sudo apt-get install -y -q --no-install-recommends "${list[@]}" ||
	die "apt-get install failed for: ${missing[*]}"
