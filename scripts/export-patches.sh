#!/bin/bash
# make patches: export the work tree's commits on top of the Debian base as
# git format-patch files into patches/, and rewrite patches/series.
# The output is stable: the same commits always give the same files.
. "$(dirname "$0")/lib.sh"

[ "${SERIES:-}" != none ] || die "SERIES=none is the stock tree; there is nothing to export"
SRC=$(src_dir)
[ -d "$SRC/.git" ] || die "no work tree at $SRC; run 'make tree' and commit your changes there"
ver=$(deb_version)
base="debian-${ver//\~/_}"
D=$RTBPF_ROOT/patches
[ -z "$(git -C "$SRC" status --porcelain --untracked-files=no)" ] ||
	die "$SRC has uncommitted changes; commit them first"
count=$(git -C "$SRC" rev-list --count "$base..HEAD")
if [ "$count" -eq 0 ] && [ -n "$(grep -v '^#' "$D/series" 2>/dev/null | xargs)" ]; then
	die "the work tree has no commits on $base, but patches/series is not empty; refusing to erase it"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$SRC" format-patch -q --zero-commit --no-signature -o "$tmp" "$base..HEAD"
find "$D" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-cover-letter.patch' -delete
{
	echo "# rt-bpf kernel series, applied in order with git am"
	for p in "$tmp"/*.patch; do
		[ -e "$p" ] || continue
		cp "$p" "$D/"
		basename "$p"
	done
} >"$D/series"
log "exported $count patch(es) from $SRC to patches/"
"$RTBPF_ROOT/scripts/tree.sh" --adopt

# Every patch must be clean under the tree's own checkpatch.
bad=0
while read -r p; do
	case "$p" in ''|'#'*) continue ;; esac
	if ! out=$(perl "$SRC/scripts/checkpatch.pl" -q "$D/$p" 2>&1); then
		echo "checkpatch: $p" >&2
		echo "$out" | sed 's/^/    /' >&2
		bad=1
	fi
done <"$D/series"
[ $bad -eq 0 ] || die "checkpatch is not clean; fix the commits and run 'make patches' again"
