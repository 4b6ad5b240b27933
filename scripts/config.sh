#!/bin/bash
# Generate the kernel .config of a profile: x86_64_defconfig plus the
# fragments the profile lists, then check that every requested option
# survived olddefconfig.  The .config is only replaced when it changes, so
# an unchanged profile costs the next build nothing.
#
# usage: config.sh PROFILE
. "$(dirname "$0")/lib.sh"

profile=${1:?usage: config.sh PROFILE}
check_profile "$profile"
SRC=$(src_dir)
B=$(build_dir "$profile")
[ -f "$SRC/Makefile" ] || die "no kernel tree at $SRC; run scripts/tree.sh"

frags=()
while read -r f; do
	f=${f%%#*}
	[ -n "${f// /}" ] || continue
	[ -f "$RTBPF_ROOT/config/$f.config" ] || die "profile $profile names missing fragment config/$f.config"
	frags+=("$RTBPF_ROOT/config/$f.config")
done <"$RTBPF_ROOT/config/$profile.profile"

tmp=$B.cfg
rm -rf "$tmp"
mkdir -p "$tmp" "$B"
make -s -C "$SRC" O="$tmp" x86_64_defconfig >/dev/null
KCONFIG_CONFIG="$tmp/.config" "$SRC/scripts/kconfig/merge_config.sh" \
	-m -O "$tmp" "$tmp/.config" "${frags[@]}" >"$tmp/merge.log" 2>&1 ||
	{ cat "$tmp/merge.log" >&2; die "merge_config failed for profile $profile"; }
make -s -C "$SRC" O="$tmp" olddefconfig >/dev/null

# Every option a fragment asks for must be in the final config.
lost=()
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		grep -qxF "$line" "$tmp/.config" || lost+=("$line") ;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }; opt=${opt%% *}
		! grep -q "^$opt=" "$tmp/.config" || lost+=("$line") ;;
	esac
done < <(cat "${frags[@]}")
if [ ${#lost[@]} -gt 0 ]; then
	printf '  %s\n' "${lost[@]}" >&2
	die "profile $profile: ${#lost[@]} requested option(s) did not survive olddefconfig"
fi

if cmp -s "$tmp/.config" "$B/.config"; then
	log "config $profile unchanged"
else
	cp "$tmp/.config" "$B/.config"
	log "config $profile written to $B/.config"
fi
rm -rf "$tmp"
