#!/bin/bash
# Build a small test_progs from the tree's own tools/testing/selftests/bpf
# that holds only the given prog_tests and the BPF programs they need: a few
# minutes instead of the full selftests build (see selftests.sh).
#
# usage: selftests-mini.sh PROFILE [TEST...]
#   TEST          prog_tests/TEST.c (default: timer timer_crash timer_lockup
#                 timer_mim wq task_local_storage cgrp_local_storage find_vma)
#   EXTRA_PROGS   more progs/NAME.c to build, for tests that open a BPF
#                 object by a computed file name (those found as a literal
#                 "NAME.bpf.o" in a test are added on their own)
#   TESTMOD=0|1   build bpf_testmod.ko, whose kfuncs some BPF programs call
#                 (wq does); default: when a test or program names it
#
#   MINI_OUT      the output dir (default $(out_dir PROFILE)/selftests-mini)
#
# Output: test_progs, *.bpf.o and bpf_testmod.ko (test_progs loads it from
# its working dir) and build.log, in the output dir.
#
# How: the selftests Makefile takes the tests from $(TRUNNER_TESTS_DIR)/*.c
# and the BPF programs from $(TRUNNER_BPF_PROGS_DIR)/*.c.  Both are set on
# the make command line (which beats the Makefile's assignments) to the
# trimmed directories of a mirror of the selftests dir in src/ below the
# output dir; the tree itself is only read.
. "$(dirname "$0")/lib.sh"

profile=${1:?usage: selftests-mini.sh PROFILE [TEST...]}
shift
[ $# -gt 0 ] || set -- timer timer_crash timer_lockup timer_mim wq \
	task_local_storage cgrp_local_storage find_vma
SRC=$(src_dir)
B=$(build_dir "$profile")
M=${MINI_OUT:-$(out_dir "$profile")/selftests-mini}
ST=$SRC/tools/testing/selftests/bpf
S=$M/src
need_cmd make gcc clang-19 llc-19 llvm-strip-19 git rsync realpath
[ -f "$B/vmlinux" ] || die "no vmlinux in $B; build the kernel first"
[ -f "$ST/Makefile" ] || die "no BPF selftests in $ST"
# Like boot.sh: the build dir is shared by the stock and patched trees.
built=$(cat "$B/rtbpf-tree" 2>/dev/null || echo unknown)
[ "$built" = "$(cat "$SRC/.git/rtbpf-state" 2>/dev/null)" ] ||
	warn "the kernel in $B was built from another tree ($built); vmlinux.h and bpf_testmod.ko follow that kernel"
case $M$ST in *[[:space:]]*) die "make cannot cope with blanks in $M or $ST" ;; esac

# mk_var NAME: the value of 'NAME := ...' in the selftests Makefile.
mk_var() {
	awk -v v="$1" '{ while (sub(/\\$/, "") && (getline nxt) > 0) $0 = $0 " " nxt }
		$1 == v && $2 == ":=" { $1 = $2 = ""; print }' "$ST/Makefile" | xargs
}
# includes FILE: the file names that FILE #includes.
includes() {
	sed -n -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]([^>"]+)[>"].*/\1/p' "$1"
}

# A test that calls a function another test file defines needs that file
# built in too.  It is then a test of this test_progs as well, but the
# guest runs only the tests it is asked for.
helpers() {
	local t
	for t in "$@"; do
		case $t in
		iters | bpf_cookie) echo test_lsm ;;	# stack_mprotect()
		esac
	done
}
# shellcheck disable=SC2046
set -- $(printf '%s\n' "$@" $(helpers "$@") | sort -u)

# Which BPF programs the tests need: one progs/X.c per X.skel.h, X.lskel.h
# or X.subskel.h they include, or the parts of a linked skeleton; plus
# btf_data, which the Makefile runs resolve_btfids with on test_progs.
linked_all=" $(mk_var LINKED_SKELS) "
read -r -a progs <<<"btf_data ${EXTRA_PROGS:-}"
skel=() lskel=() linked=()
for t in "$@"; do
	[ -f "$ST/prog_tests/$t.c" ] || die "no test $t (prog_tests/$t.c)"
	[ "$t" != bpf_attr_size ] ||
		die "prog_tests/bpf_attr_size.c does not build in this tree"
	for h in $(includes "$ST/prog_tests/$t.c"); do
		case $h in
		*/*) ;;
		*.lskel.h) lskel+=("${h%.lskel.h}") ;;
		*.skel.h | *.subskel.h)
			n=${h%.skel.h}; n=${n%.subskel.h}
			if [[ $linked_all == *" $n.skel.h "* ]]; then
				linked+=("$n.skel.h")
				for o in $(mk_var "$n.skel.h-deps"); do progs+=("${o%.bpf.o}"); done
			else
				skel+=("$n")
			fi ;;
		esac
	done
	read -r -a objs <<<"$(grep -ohE '"[A-Za-z0-9_]+\.bpf\.o"' "$ST/prog_tests/$t.c" |
		sed 's/"\(.*\)\.bpf\.o"/\1/' | xargs)"
	progs+=("${objs[@]}")
done
progs+=("${skel[@]}" "${lskel[@]}")
# A program that #includes another program's .c needs that one too.
i=0
while [ $i -lt ${#progs[@]} ]; do
	p=${progs[i]}
	[ -f "$ST/progs/$p.c" ] || die "no BPF program progs/$p.c (needed by $*)"
	for h in $(includes "$ST/progs/$p.c"); do
		case $h in
		*/*) ;;
		*.c) [[ " ${progs[*]} " == *" ${h%.c} "* ]] || progs+=("${h%.c}") ;;
		esac
	done
	i=$((i + 1))
done
uniq_words() { printf '%s\n' "$@" | sed '/^$/d' | sort -u | xargs; }
read -r -a progs <<<"$(uniq_words "${progs[@]}")"
# Programs wanted as light skeletons only go into LSKELS (no libbpf
# skeleton); those wanted as both into LSKELS_EXTRA, as in the Makefile.
lskels='' lskels_extra=''
for n in $(uniq_words "${lskel[@]}"); do
	if printf '%s\n' "${skel[@]}" | grep -qx "$n"; then
		lskels_extra+=" $n.c"
	else
		lskels+=" $n.c"
	fi
done

# tracked DIR GLOB: the files of the tree (not what a build left there).
tracked() { git -C "$ST" ls-files -- "$1/$2"; }

# The mirror: src/prog_tests and src/progs hold links to the wanted files
# only, everything else in src/ links to the tree, so that includes relative
# to a linked file (../bpf_testmod/..., ../bpf_experimental.h) resolve as
# in the tree.
mkdir -p "$S/prog_tests" "$S/progs"
find "$S" -maxdepth 1 -type l -delete
find "$S/progs" "$S/prog_tests" -mindepth 1 ! -name tests.h -delete
git -C "$ST" ls-files | cut -d/ -f1 | sort -u | grep -vx 'prog_tests\|progs' |
	while read -r f; do ln -s "$ST/$f" "$S/$f"; done
for t in "$@"; do ln -sf "$ST/prog_tests/$t.c" "$S/prog_tests/"; done
tracked prog_tests '*.h' | while read -r f; do ln -s "$ST/$f" "$S/prog_tests/"; done
for p in "${progs[@]}"; do ln -s "$ST/progs/$p.c" "$S/progs/"; done
tracked progs '*.h' | while read -r f; do ln -s "$ST/$f" "$S/progs/"; done
# tests.h, the list of tests, is only remade when a test is newer.
list="$(uniq_words "$@")"
[ "$(cat "$S/tests.list" 2>/dev/null)" = "$list" ] || rm -f "$S/prog_tests/tests.h"
echo "$list" >"$S/tests.list"

# Drop what an earlier run with other tests built, so that the output dir
# holds only these tests' objects.
keep=" ${progs[*]} ${linked[*]%.skel.h} "
for f in "$M"/*.test.o "$M"/*.test.d; do
	[ -e "$f" ] || continue
	n=${f##*/}; n=${n%.test.?}
	[[ " $list " == *" $n "* ]] || rm -f "$f"
done
for f in "$M"/*.bpf.o "$M"/*.skel.h "$M"/*.lskel.h "$M"/*.subskel.h; do
	[ -e "$f" ] || continue
	n=${f##*/}; n=${n%%.*}
	[[ $keep == *" $n "* ]] || rm -f "$f"
done
# The Makefile builds the parts of a linked skeleton for every flavour.
[ ${#linked[@]} -gt 0 ] || rm -rf "$M/no_alu32" "$M/cpuv4" "$M/bpf_gcc"
# The compiler writes the skeletons a test object depends on by bare file
# name (it runs in the output dir), which make looks for in the tree: give
# them the output dir, so that a changed BPF program rebuilds the tests that
# embed it.  The dependencies of a test object whose build was cut short
# are not to be trusted at all.
for d in "$M"/*.test.d; do
	[ -e "$d" ] || continue
	if [ -f "${d%.d}.o" ]; then
		sed -i -E "s#(^|[[:space:]])([^/[:space:]:\\\\]+\\.h)#\\1$M/\\2#g" "$d"
	else
		rm -f "$d"
	fi
done

# Path from the selftests dir to the mirror: the Makefile compiles a test as
# $(CURDIR)/$(TRUNNER_TESTS_DIR)/X.c, so the dirs must be relative.
rel=$(realpath --relative-to="$(realpath "$ST")" "$(realpath "$S")")
# Per-program CFLAGS are keyed by progs/X.c; give them to the mirror's X.c.
cflags=()
for p in "${progs[@]}"; do
	v=$(mk_var "progs/$p.c-CFLAGS")
	[ -z "$v" ] || cflags+=("$rel/progs/$p.c-CFLAGS=$v")
done

log "building a mini test_progs with: $list"
log "BPF programs: ${progs[*]}${linked:+ (linked: ${linked[*]})}"
# TRUNNER_EXTRA_FILES: none of bpf_testmod.ko, urandom_read, uprobe_multi...
# LIBELF_CFLAGS comes first in CFLAGS: it puts the mirror ahead of the tree
# for test_progs.c's <prog_tests/tests.h>, which a full build leaves there.
start=$SECONDS
make -C "$ST" -j"$JOBS" \
	O="$B" KDIR="$B" VMLINUX_BTF="$B/vmlinux" OUTPUT="$M" \
	CLANG=clang-19 LLC=llc-19 LLVM_STRIP=llvm-strip-19 \
	TRUNNER_TESTS_DIR="$rel/prog_tests" TRUNNER_BPF_PROGS_DIR="$rel/progs" \
	TRUNNER_EXTRA_FILES= \
	LSKELS="${lskels# }" LSKELS_EXTRA="${lskels_extra# }" \
	LINKED_SKELS="${linked[*]}" \
	LIBELF_CFLAGS="-I$S $(pkg-config libelf --cflags 2>/dev/null || true)" \
	"${cflags[@]}" test_progs >"$M/build.log" 2>&1 ||
	{ tail -40 "$M/build.log" >&2; die "mini selftests build failed; log: $M/build.log"; }

# bpf_testmod.ko, built as an external module of the profile's kernel from
# links in testmod/, so that kbuild writes nothing into the tree.
srcs=()
for t in "$@"; do srcs+=("$ST/prog_tests/$t.c"); done
for p in "${progs[@]}"; do srcs+=("$ST/progs/$p.c"); done
testmod=${TESTMOD:-}
if [ -z "$testmod" ]; then
	if grep -qs bpf_testmod "${srcs[@]}"; then testmod=1; else testmod=0; fi
fi
if [ "$testmod" = 1 ]; then
	need_cmd pahole
	log "building bpf_testmod.ko against $B"
	# Built in its own directory, as the full selftests build does: a copy
	# built from links elsewhere loads but fails its init with -EINVAL.
	# kbuild's output there is ignored by the tree's .gitignore.
	testmod_clean "$SRC"
	make -C "$B" M="$ST/bpf_testmod" -j"$JOBS" modules >>"$M/build.log" 2>&1 ||
		{ tail -40 "$M/build.log" >&2; die "bpf_testmod build failed; log: $M/build.log"; }
	cp -p "$ST/bpf_testmod/bpf_testmod.ko" "$M/"
	rm -rf "$M/testmod"
else
	rm -rf "$M/bpf_testmod.ko" "$M/testmod"
fi

# The binary must list exactly the tests of the wanted files.
want=$(sed -n -E 's/^DEFINE_TEST\((.*)\)$/\1/p' "$S/prog_tests/tests.h" | sort)
have=$("$M/test_progs" -l | sort)
if [ -z "$want" ] || [ "$want" != "$have" ]; then
	die "test_progs lists '$(xargs <<<"$have")', expected '$(xargs <<<"$want")'"
fi
log "built $M/test_progs in $((SECONDS - start))s; tests: $(xargs <<<"$have")"
