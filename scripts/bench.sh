#!/bin/bash
# make bench: boot the profile's kernel under icount and record the
# benchmark values (tracepoint hit cost, latency) in results/.
#
# usage: bench.sh PROFILE
. "$(dirname "$0")/lib.sh"

profile=${1:?usage: bench.sh PROFILE}
OUT=$(out_dir "$profile")
name=bench-$profile-$(variant)
set +e
TIMEOUT=${TIMEOUT:-1800} "$RTBPF_ROOT/scripts/boot.sh" "$profile" latency bench \
	rtbpf.mode=bench >"$OUT/bench.txt"
rc=$?
set -e
grep -q '^hit_raw_tp_ns=' "$OUT/bench.txt" || die "the guest reported no benchmark values; see $OUT/runs/bench"
mkdir -p "$RTBPF_ROOT/results"
{
	echo "# make bench: $profile profile, $(variant) tree (icount, 1 insn = 1 ns)"
	echo
	echo "| value | |"
	echo "|---|---|"
	grep -E '^[a-z_]+=' "$OUT/bench.txt" | sed 's/^\([^=]*\)=\(.*\)$/| \1 | \2 |/'
} >"$RTBPF_ROOT/results/$name.md"
cat "$RTBPF_ROOT/results/$name.md"
exit $rc
