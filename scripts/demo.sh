#!/bin/bash
# make run: boot the profile's kernel under icount, probe the three 2019
# problems and print the report.  Also writes it to results/ as markdown,
# with a PNG latency histogram.
#
# usage: demo.sh PROFILE
. "$(dirname "$0")/lib.sh"

profile=${1:?usage: demo.sh PROFILE}
OUT=$(out_dir "$profile")
name=demo-$profile-$(variant)
RUN=$OUT/runs/demo
set +e
TIMEOUT=${TIMEOUT:-1800} "$RTBPF_ROOT/scripts/boot.sh" "$profile" latency demo rtbpf.mode=run \
	>"$OUT/demo.txt"
boot_rc=$?
set -e
[ -d "$RUN" ] || die "the demo boot did not start (status $boot_rc)"
cp "$OUT/demo.txt" "$RUN/report.txt"
val() { sed -n "s/^$1=//p" "$OUT/demo.txt" | tail -n1; }

timer=$(val bpf_timer)
idle=$(val latency_idle_us)
bpf=$(val latency_bpf_us)
runs=$(val loop_runs)
[ -n "$idle" ] && [ -n "$bpf" ] || die "the guest reported no latency (boot status $boot_rc); see $RUN"
if [ -s "$RUN/splats.txt" ]; then
	splat="$(wc -l <"$RUN/splats.txt") line(s): $(head -n1 "$RUN/splats.txt" | cut -c1-60)"
else
	splat="none"
fi

mkdir -p "$RTBPF_ROOT/results"
md=$RTBPF_ROOT/results/$name.md
png=$RTBPF_ROOT/results/$name.png
{
	echo "# make run: $profile profile, $(variant) tree"
	echo
	echo "Kernel: \`$(val kernel)\`, booted under QEMU TCG with \`-icount shift=0,sleep=off -smp 1\`"
	echo "(1 instruction = 1 ns of guest time, so the numbers repeat)."
	echo
	echo "| 2019 problem | probe | result |"
	echo "|---|---|---|"
	echo "| 1. preemption off around programs | cyclictest max, SCHED_FIFO 95, no BPF | ${idle} us |"
	echo "| 1. preemption off around programs | same, raw_tp/sys_enter bpf_loop($(val bpf_loop_iterations)) on the same CPU ($runs runs) | ${bpf} us |"
	echo "| 2. allocation in atomic context | does a bpf_timer program load? | ${timer:-no answer} |"
	echo "| 3. \`up_read_non_owner()\` | user stack top frames with a build ID, from a cpu-clock perf_event program (irqs off) | $(val build_id_valid) |"
	echo "| 3. \`up_read_non_owner()\` | \`bpf_find_vma()\` from the same program | $(val find_vma) |"
	echo "| any | kernel splats during the run | $splat |"
	echo
	echo "![latency histogram]($name.png)"
} >"$md"

if command -v gnuplot >/dev/null; then
	gnuplot <<GP || warn "gnuplot failed; no histogram"
set terminal pngcairo size 900,500 noenhanced
set output "$png"
set title "cyclictest latency, $profile profile, $(variant) tree (icount)"
set xlabel "latency (us)"
set ylabel "samples"
set logscale xy
set xrange [1:100000]
set key top right
plot "< grep -v '^#' $RUN/out/hist-idle.txt | awk '\$2 > 0'" using (\$1+1):2 with impulses lw 2 title "no BPF", \
     "< grep -v '^#' $RUN/out/hist-bpf.txt | awk '\$2 > 0'" using (\$1+1):2 with impulses lw 2 title "raw_tp bpf_loop"
GP
fi

echo
sed -n '/^| /p' "$md" | column -t -s '|'
echo
echo "report: $md"
[ -f "$png" ] && echo "histogram: $png"
exit $boot_rc
