#!/bin/bash
# make selftests: build the tree's own tools/testing/selftests/bpf
# (test_progs, test_verifier, test_maps, bpf_testmod.ko) with clang-19
# against the profile's kernel, run them in the guest in batches and write
# a per-test summary to results/.
#
# usage: selftests.sh PROFILE [build|run|all]
#   SELFTESTS=a,b   run only these test_progs tests, in one boot; the
#                   summary goes to the cache, not to results/
#   SHARDS=N        without SELFTESTS, the full run boots N times for
#                   test_progs (a slice of its tests each), then once for
#                   test_verifier and once for test_maps (default 6)
#   RESUME=1        keep the boots of the last run that finished (guest
#                   exit 0) and boot only the others: an interrupted full
#                   run goes on where it stopped
#   BATCH=N         test_progs tests per run of test_progs (default 25)
#   TIMEOUT=S       seconds per boot (default 3600)
#   FROM=PROFILE    run the selftests built for PROFILE's kernel, with only
#                   their modules rebuilt for this one: the same binaries on
#                   RT and non-RT make the cleanest comparison (BPF CO-RE
#                   relocates them against the running kernel);
#                   FROM=test-stock takes them from the stock tree's build
#   MINI=1          build only test_progs, with only the SELFTESTS tests
#                   (default: tests/selftests-curated.txt), through
#                   selftests-mini.sh: minutes instead of the full build
. "$(dirname "$0")/lib.sh"

profile=${1:?usage: selftests.sh PROFILE [build|run|all]}
what=${2:-all}
SRC=$(src_dir)
B=$(build_dir "$profile")
OUT=$(out_dir "$profile")
# FROM=PROFILE or PROFILE-VARIANT: whose out dir has the selftests.
from_dir() {
	case ${FROM:-} in
	"") out_dir "$profile" ;;
	*-stock | *-patched) check_profile "${FROM%-*}"; echo "$RTBPF_CACHE/out/$FROM" ;;
	*) out_dir "$FROM" ;;
	esac
}
SO=$(from_dir)/selftests-build
name=selftests-$profile-$(variant)
# Full and curated runs are recorded in results/; a run of chosen tests
# (SELFTESTS without MINI) must not replace them, its summary stays in the
# cache.
sums=$RTBPF_ROOT/results
[ "${MINI:-0}" = 1 ] || [ -z "${SELFTESTS:-}" ] || sums=$OUT
if [ "${MINI:-0}" = 1 ]; then
	SO=$(from_dir)/selftests-mini-run
	SELFTESTS=${SELFTESTS:-$(grep -v '^#' "$RTBPF_ROOT/tests/selftests-curated.txt" | paste -sd,)}
	name=selftests-mini-$profile-$(variant)
fi
P=$OUT/payload
need_cmd clang-19 llc-19 llvm-strip-19
[ -f "$B/vmlinux" ] || die "no vmlinux in $B; build the kernel first"

# This tree's stable backport of prog_tests/bpf_attr_size.c includes the
# skeleton of progs/cgroup_skb_direct_packet_access.c, which the tree does
# not have, so test_progs cannot link with it.  Leave it out of the build
# and put it back afterwards, so that the work tree stays clean.
BROKEN=tools/testing/selftests/bpf/prog_tests/bpf_attr_size.c
restore_broken() { git -C "$SRC" checkout -q -- "$BROKEN"; }

build() {
	if [ "${MINI:-0}" = 1 ]; then
		# shellcheck disable=SC2046
		MINI_OUT=$SO "$RTBPF_ROOT/scripts/selftests-mini.sh" "$profile" $(tr , ' ' <<<"$SELFTESTS")
		return
	fi
	log "building BPF selftests against $B (this takes a while)"
	mkdir -p "$SO"
	# tests.h, the generated list of tests, must not name it either.
	rm -f "$SRC/$BROKEN" "$SO/bpf_attr_size.test.o" \
		"$SRC/tools/testing/selftests/bpf/prog_tests/tests.h"
	# Stale dependency files of an interrupted build name headers by bare
	# file name, which make then has no rule for.
	find "$SO" -maxdepth 1 -name "*.test.d" -delete
	trap restore_broken EXIT
	testmod_clean "$SRC"
	make -C "$SRC/tools/testing/selftests/bpf" -j"$JOBS" \
		O="$B" KDIR="$B" VMLINUX_BTF="$B/vmlinux" OUTPUT="$SO" \
		CLANG=clang-19 LLC=llc-19 LLVM_STRIP=llvm-strip-19 \
		test_progs test_verifier test_maps "$SO/bpf_testmod.ko" \
		>"$SO/build.log" 2>&1 ||
		{ tail -40 "$SO/build.log" >&2; die "selftests build failed; log: $SO/build.log"; }
	restore_broken
	trap - EXIT
	log "selftests built in $SO"
}

# summary RUNDIR...: results/NAME.md from the boots so far.
summary() {
	local f=$sums/$name.md
	"$RTBPF_ROOT/scripts/selftests-summary.sh" "$profile-$(variant)" "$@" >"$f.new"
	mv "$f.new" "$f"
	log "summary: ${f#"$RTBPF_ROOT"/}"
}

run() {
	[ -x "$SO/test_progs" ] || die "selftests not built; run 'make selftests'"
	log "copying the selftests into the payload"
	rsync -a --delete --exclude='*.o.d' --exclude='*.d' --exclude='/tools/' \
		--exclude='/bpftool/' --exclude='/resolve_btfids/' --exclude='*.skel.h' \
		--exclude='*.lskel.h' --exclude='*.subskel.h' --exclude='/no_alu32/' \
		--exclude='/cpuv4/' --exclude='/src/' "$SO/" "$P/selftests/"
	if [ "$(from_dir)" != "$OUT" ]; then
		# A module built for the other kernel does not load (ENOEXEC).
		log "rebuilding the selftests' modules for $B"
		testmod_clean "$SRC"
		: >"$OUT/bpf_testmod.log"
		for m in $TESTMODS; do
			[ -f "$SO/$m.ko" ] || continue
			make -s -C "$B" M="$SRC/tools/testing/selftests/bpf/$m" modules \
				>>"$OUT/bpf_testmod.log" 2>&1 ||
				{ tail -20 "$OUT/bpf_testmod.log" >&2; die "$m build failed"; }
			cp "$SRC/tools/testing/selftests/bpf/$m/$m.ko" "$P/selftests/"
		done
	fi
	copy_libs "$P/lib" "$P/selftests"
	# The payload may be older than the guest side of this checkout.
	guest_sync "$P"
	# The kernel command line holds 2047 bytes: the guest reads a list of
	# tests from the share instead.
	[ -z "${SELFTESTS:-}" ] || tr , '\n' <<<"$SELFTESTS" >"$P/selftests/selftests.list"

	# One boot per part; the summary is written again after each, so that
	# an interrupted run keeps what it measured.
	local parts=() part run runs=() rc=0 k
	if [ -n "${SELFTESTS:-}" ]; then
		parts=(progs)
	else
		for k in $(seq "${SHARDS:-6}"); do parts+=("progs:$k/${SHARDS:-6}"); done
		parts+=(verifier maps)
	fi
	for part in "${parts[@]}"; do
		runs+=("$OUT/runs/selftests-${part//[:\/]/-}")
	done
	[ "${RESUME:-0}" = 1 ] || rm -rf "${runs[@]}"
	for part in "${parts[@]}"; do
		run=selftests-${part//[:\/]/-}
		if [ "${RESUME:-0}" = 1 ] && [ "$(cat "$OUT/runs/$run/part" 2>/dev/null)" = "$part" ] &&
			[ "$(cat "$OUT/runs/$run/guest-exit" 2>/dev/null)" = 0 ]; then
			log "selftests $part: kept from the last run"
			continue
		fi
		set +e
		TIMEOUT=${TIMEOUT:-3600} "$RTBPF_ROOT/scripts/boot.sh" "$profile" functional "$run" \
			rtbpf.mode=selftests "rtbpf.part=$part" "rtbpf.tests=${SELFTESTS:+@selftests.list}" \
			"rtbpf.batch=${BATCH:-25}"
		k=$?
		set -e
		# boot.sh dies before booting (no kernel, no payload): stop here.
		[ -f "$OUT/runs/$run/guest-exit" ] || die "selftests $part: the guest did not boot"
		echo "$part" >"$OUT/runs/$run/part"
		[ $k -eq 0 ] || rc=$k
		summary "${runs[@]}"
	done
	head -n $(( ${#runs[@]} + 10 )) "$sums/$name.md"
	# With both the RT (test) and the non-RT run of this kind recorded,
	# the list of RT-only failures.
	local r=$sums rt=${name/-$profile-/-test-} nonrt=${name/-$profile-/-nonrt-}
	if [ -s "$r/$rt.md" ] && [ -s "$r/$nonrt.md" ]; then
		"$RTBPF_ROOT/scripts/selftests-parity.sh" "$r/$rt.md" "$r/$nonrt.md" \
			>"$r/${name/-$profile-/-parity-}.md"
		log "RT-only failures: results/${name/-$profile-/-parity-}.md"
	fi
	return $rc
}

# With FROM, the selftests are another kernel's: build them there.
[ "$(from_dir)" = "$OUT" ] || [ "$what" != build ] ||
	die "FROM=$FROM only runs; build with 'make selftests PROFILE=${FROM%-*}'"
case $what in
build) build ;;
run) run ;;
all) [ "$(from_dir)" != "$OUT" ] || build; run ;;
*) die "unknown selftests step '$what' (build, run, all)" ;;
esac
