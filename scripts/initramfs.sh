#!/bin/bash
# Build the guest initramfs: busybox-static and a /init that mounts the
# 9p payload.  Everything else the guest runs lives on that share.
#
# usage: initramfs.sh PROFILE   (the kernel build provides gen_init_cpio)
. "$(dirname "$0")/lib.sh"

profile=${1:?usage: initramfs.sh PROFILE}
B=$(build_dir "$profile")
OUT=$(out_dir "$profile")
busybox=/bin/busybox
[ -x "$busybox" ] || die "busybox-static is missing; run 'make deps'"
file "$busybox" 2>/dev/null | grep -q 'dynamically' && die "$busybox is not static; install busybox-static"
gen=$B/usr/gen_init_cpio
[ -x "$gen" ] || die "$gen missing; build the kernel first"

mkdir -p "$OUT"
spec=$OUT/initramfs.list
cat >"$spec" <<LIST
dir /dev 755 0 0
nod /dev/console 600 0 0 c 5 1
dir /bin 755 0 0
dir /proc 755 0 0
dir /sys 755 0 0
dir /tmp 1777 0 0
file /bin/busybox $busybox 755 0 0
file /init $RTBPF_ROOT/guest/initramfs-init 755 0 0
LIST
"$gen" "$spec" | gzip -1 >"$OUT/initramfs.cpio.gz.tmp"
mv "$OUT/initramfs.cpio.gz.tmp" "$OUT/initramfs.cpio.gz"
log "initramfs: $OUT/initramfs.cpio.gz"
