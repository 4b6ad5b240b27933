#!/bin/bash
# Unpack Debian's linux-source-6.12 into the cache as a git work tree and
# bring it to "base + patches/series" (or plain base with SERIES=none).
#
# Resets go through git, so a file that did not change keeps its mtime and
# the next kernel build stays incremental.  Nothing is thrown away: commits
# made in the work tree that were never exported are kept on a branch, and
# uncommitted edits stop the run.
. "$(dirname "$0")/lib.sh"

need_cmd git tar xz

ver=$(deb_version)
if [ "$ver" != "$DEB_WANT" ]; then
	warn "*************************************************************"
	warn "installed $DEB_PKG is $ver, the series targets $DEB_WANT"
	warn "*************************************************************"
fi

SRC=$(src_dir)
base_tag="debian-${ver//\~/_}"
SERIES_FILE=$RTBPF_ROOT/patches/series
[ -z "${SERIES:-}" ] || [ "$SERIES" = none ] || SERIES_FILE=$(realpath "$SERIES")
git_src() { git -C "$SRC" "$@"; }

unpack() {
	local tmp
	[ -r "$TARBALL" ] || die "$TARBALL missing; run 'make deps'"
	mkdir -p "$RTBPF_CACHE/src"
	tmp=$(mktemp -d "$RTBPF_CACHE/src/.unpack.XXXXXX")
	# A partial unpack must never look like a tree: it only gets its
	# final name once git holds the base commit.
	trap 'rm -rf "$tmp"' EXIT
	log "unpacking $TARBALL ($ver) into $SRC"
	if ! tar -C "$tmp" -xJf "$TARBALL"; then
		df -h "$RTBPF_CACHE" >&2 || true
		die "unpacking $TARBALL failed (disk full?); nothing was kept"
	fi
	[ -f "$tmp/linux-source-6.12/Makefile" ] ||
		die "$TARBALL does not contain linux-source-6.12/"
	log "recording the pristine tree as git commit '$base_tag'"
	(
		cd "$tmp/linux-source-6.12"
		git init -q
		git config user.name rt-bpf
		git config user.email rt-bpf@localhost
		git config gc.auto 0
		# Debian's top-level .gitignore ignores everything: force.
		git add -A -f
		git commit -q -m "Debian $DEB_PKG $ver"
		git tag "$base_tag"
	) || { df -h "$RTBPF_CACHE" >&2 || true; die "git import of the tree failed (disk full?)"; }
	mv "$tmp/linux-source-6.12" "$SRC"
	rm -rf "$tmp"
	trap - EXIT
}

# The patch files listed in the series, in order, as absolute paths.
series_patches() {
	[ "${SERIES:-}" = none ] && return 0
	[ -f "$SERIES_FILE" ] || die "series file $SERIES_FILE not found"
	local dir line
	dir=$(dirname "$SERIES_FILE")
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%%#*}
		line=$(echo "$line" | xargs)
		[ -n "$line" ] || continue
		[ -f "$dir/$line" ] || die "series lists '$line', which is not in $dir"
		echo "$dir/$line"
	done <"$SERIES_FILE"
}

series_id() {
	if [ "${SERIES:-}" = none ]; then
		echo none
	else
		# The patches' contents, not their paths: every checkout of
		# the same series is the same tree.
		series_patches | xargs -r cat | sha256sum | cut -c1-16
	fi
}

# Print the hunk that git could not apply, taken from the patch itself.
show_failing_hunk() {
	local patch=$1 err file line
	err=$(git_src apply --check "$patch" 2>&1 | grep -m1 'patch failed:' || true)
	[ -n "$err" ] || { git_src apply --check "$patch" 2>&1 | sed 's/^/    /' >&2; return; }
	echo "    $err" >&2
	file=${err##*patch failed: }
	line=${file##*:}
	file=${file%:*}
	awk -v f="$file" -v l="$line" '
		/^diff --git / { infile = ($0 ~ (" b/" f "$")); next }
		/^@@ / { show = infile && ($2 ~ ("^-" l "(,|$)")) }
		/^(diff|--) / { show = 0 }
		show { print "    " $0 }
	' "$patch" >&2
}

# Going back to base and applying the series again rewrites every file the
# old or the new series touches.  A file whose content ends up as it was
# gets its old mtime back, so switching series only rebuilds what differs.
MTIMES=$SRC/.git/rtbpf-mtimes
save_mtimes() {
	local old=$1 f
	git_src diff --name-only "$base_tag" "$old" | while IFS= read -r f; do
		[ -f "$SRC/$f" ] || continue
		printf '%s %s\n' "$(stat -c %.9Y "$SRC/$f")" "$f"
	done >"$MTIMES"
}

restore_mtimes() {
	local old=$1 t f n=0
	[ -s "$MTIMES" ] || return 0
	local -A changed=()
	while IFS= read -r f; do
		changed[$f]=1
	done < <(git_src diff --name-only "$old" HEAD)
	while read -r t f; do
		[ -z "${changed[$f]:-}" ] && [ -f "$SRC/$f" ] || continue
		touch -m -d "@$t" "$SRC/$f" && n=$((n + 1))
	done <"$MTIMES"
	rm -f "$MTIMES"
	[ "$n" -eq 0 ] || log "kept the mtime of $n file(s) the series switch left unchanged"
}

apply_series() {
	local state=$SRC/.git/rtbpf-state want head p name
	want="$(variant) $(series_id)"
	head=$(git_src rev-parse HEAD)

	if [ -n "$(git_src status --porcelain --untracked-files=no)" ]; then
		git_src status --short --untracked-files=no | head -20 >&2
		die "$SRC has uncommitted changes; commit them and run 'make patches', or stash them"
	fi
	if [ -f "$state" ] && [ "$(cat "$state")" = "$want $head" ]; then
		log "tree is up to date ($(variant), series $want)"
		return 0
	fi
	# Commits made by hand on top of what this script produced: keep them.
	if [ "$head" != "$(git_src rev-parse "$base_tag")" ] &&
	   { [ ! -f "$state" ] || [ "$(cut -d' ' -f3 "$state")" != "$head" ]; }; then
		p="saved/$(date +%Y%m%d-%H%M%S)"
		git_src branch -q "$p" "$head"
		warn "work tree had commits not made by this script; kept them as branch '$p'"
	fi

	rm -f "$state"
	save_mtimes "$head"
	git_src am --abort >/dev/null 2>&1 || true
	git_src checkout -q --detach "$base_tag" 2>/dev/null || git_src reset -q --hard "$base_tag"
	git_src reset -q --hard "$base_tag"
	local n=0
	while IFS= read -r p; do
		[ -n "$p" ] || continue
		name=$(basename "$p")
		if ! git_src am -q "$p" >/dev/null 2>&1; then
			git_src am --abort >/dev/null 2>&1 || true
			echo "rt-bpf: error: patch '$name' does not apply to $base_tag:" >&2
			show_failing_hunk "$p"
			git_src reset -q --hard "$base_tag"
			exit 1
		fi
		n=$((n + 1))
	done < <(series_patches)
	restore_mtimes "$head"
	echo "$want $(git_src rev-parse HEAD)" >"$state"
	log "tree at $base_tag + $n patch(es) ($(variant))"
}

# After 'make patches': the work tree's commits are the series now, so
# record that, and the next build keeps every file as it is.
adopt() {
	[ -d "$SRC/.git" ] || die "no work tree at $SRC; run 'make tree'"
	[ -z "$(git_src status --porcelain --untracked-files=no)" ] ||
		die "$SRC has uncommitted changes"
	echo "$(variant) $(series_id) $(git_src rev-parse HEAD)" >"$SRC/.git/rtbpf-state"
}

case ${1:-} in
'') ;;
--adopt) adopt; exit 0 ;;
*) die "usage: tree.sh [--adopt]" ;;
esac

[ -d "$SRC/.git" ] || unpack
# The tree must be the version the package claims, whatever is in the cache.
kv=$(make -s -C "$SRC" kernelversion 2>/dev/null || true)
[ "$kv" = "${ver%%-*}" ] ||
	die "tree at $SRC is version '${kv:-unknown}', but $DEB_PKG $ver is installed; remove it and run again"
apply_series
