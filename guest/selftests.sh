#!/bin/sh
# Guest side of 'make selftests': run test_progs in batches, then
# test_verifier and test_maps.  Logs go to $RTBPF_OUT for the host summary.
#
# usage: selftests.sh [TESTS] [BATCH]   TESTS comma separated, default all
tests=$1 batch=${2:-25}
cd /payload/selftests || exit 1
[ -n "$tests" ] || tests=$(./test_progs -l | tr '\n' ,)
echo "$tests" | tr , '\n' | sed '/^$/d' >/tmp/list
total=$(wc -l </tmp/list)
echo "# test_progs: $total tests in batches of $batch"
i=0
while [ -s /tmp/list ]; do
	i=$((i + 1))
	sel=$(head -n "$batch" /tmp/list | tr '\n' , | sed 's/,$//')
	sed -i "1,${batch}d" /tmp/list
	timeout 1800 ./test_progs -t "$sel" >"$RTBPF_OUT/test_progs-$i.log" 2>&1
	echo "# batch $i: exit $? ($(grep -c '^#[0-9]* ' "$RTBPF_OUT/test_progs-$i.log") results)"
done
# A mini build (MINI=1) has test_progs only.
if [ -x ./test_verifier ]; then
	timeout 1800 ./test_verifier >"$RTBPF_OUT/test_verifier.log" 2>&1
	echo "# test_verifier: exit $? $(grep '^Summary' "$RTBPF_OUT/test_verifier.log")"
fi
if [ -x ./test_maps ]; then
	timeout 1800 ./test_maps >"$RTBPF_OUT/test_maps.log" 2>&1
	echo "# test_maps: exit $? $(tail -n1 "$RTBPF_OUT/test_maps.log")"
fi
exit 0
