#!/bin/sh
# Scan a kernel log on stdin for splats.  Runs on the host and, under
# busybox, in the guest, so it sticks to POSIX sh, grep -E and sed.
#
# usage: scan-splats.sh DENY ALLOW < log
# Prints every offending line and exits 1 if there is one, 0 if none.
# A pattern file holds one extended regex a line; '#' starts a comment.
# Every allow entry must carry a reason after its '#'.
deny=$1 allow=$2
tmp=${TMPDIR:-/tmp}/scan.$$
trap 'rm -f "$tmp".*' EXIT

# Strip comments and blank lines.  An allow entry with no reason is refused.
sed -e 's/[[:space:]]*#.*$//' -e '/^[[:space:]]*$/d' "$deny" >"$tmp.deny"
if grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$allow" | grep -v '#[[:space:]]*[^[:space:]]' >"$tmp.bad"; then
	echo "scan-splats: allow entries without a reason in $allow:" >&2
	cat "$tmp.bad" >&2
	exit 2
fi
sed -e 's/[[:space:]]*#.*$//' -e '/^[[:space:]]*$/d' "$allow" >"$tmp.allow"

grep -E -f "$tmp.deny" >"$tmp.hits" || true
if [ -s "$tmp.allow" ]; then
	grep -v -E -f "$tmp.allow" "$tmp.hits" >"$tmp.left" || true
else
	cp "$tmp.hits" "$tmp.left"
fi
[ -s "$tmp.left" ] || exit 0
cat "$tmp.left"
exit 1
