#!/bin/sh
# Guest side of 'make selftests': one part of the tree's BPF selftests.
# Logs go to $RTBPF_OUT for the host summary.
#
# usage: selftests.sh PART [TESTS] [BATCH]
#   PART    progs        test_progs, TESTS or all of its tests
#           progs:K/N    the Kth of N equal slices of that list
#           verifier     test_verifier
#           maps         test_maps
#   TESTS   test_progs tests, comma separated, or @FILE with one per line
#           (default: all of them)
#   BATCH   test_progs tests per run of test_progs (default 25)
#
# A batch that does not finish in BATCH_TIMEOUT seconds is killed.  test_progs
# runs the tests in the order of 'test_progs -l', and flushes each result
# line before it starts the next test, so the first test of the batch
# without a result is the one that hung (or crashed test_progs): it is
# logged as TIMEOUT (or ABORT) and the rest of the batch runs again.
part=${1:-progs} tests=$2 batch=${3:-25}
BATCH_TIMEOUT=1200
cd /payload/selftests || exit 1

# results LOG: the names of the tests with a result line in LOG.
results() {
	sed -n 's/^#[0-9-]* *\([^/:]*\):[A-Z]*.*/\1/p' "$1" | sort -u
}

progs() {
	if [ "${tests#@}" != "$tests" ]; then
		cat "${tests#@}"
	elif [ -n "$tests" ]; then
		echo "$tests" | tr , '\n'
	else
		./test_progs -l
	fi | sed '/^$/d' >/tmp/all
	case "$1" in
	*/*)	k=${1%/*} n=${1#*/}
		per=$(( ($(wc -l </tmp/all) + n - 1) / n ))
		sed -n "$(( (k - 1) * per + 1 )),$(( k * per ))p" /tmp/all >/tmp/list ;;
	*)	cp /tmp/all /tmp/list ;;
	esac
	echo "# test_progs: $(wc -l </tmp/list) tests in batches of $batch"
	i=0
	while [ -s /tmp/list ]; do
		i=$((i + 1))
		log=$RTBPF_OUT/test_progs-$i.log
		head -n "$batch" /tmp/list >"$RTBPF_OUT/test_progs-$i.list"
		sed -i "1,${batch}d" /tmp/list
		timeout "$BATCH_TIMEOUT" ./test_progs \
			-a "$(tr '\n' , <"$RTBPF_OUT/test_progs-$i.list" | sed 's/,$//')" \
			>"$log" 2>&1
		rc=$?
		results "$log" >/tmp/done
		echo "# batch $i: exit $rc ($(wc -l </tmp/done) results)"
		# 0 and 1 are test_progs' own verdicts: every test ran.
		[ $rc -le 1 ] && continue
		grep -vxF -f /tmp/done "$RTBPF_OUT/test_progs-$i.list" >/tmp/missing
		[ -s /tmp/missing ] || continue
		what=ABORT
		[ $rc -eq 124 ] || [ $rc -eq 143 ] && what=TIMEOUT
		echo "#- $(head -n1 /tmp/missing):$what (exit $rc)" | tee -a "$log"
		tail -n +2 /tmp/missing | cat - /tmp/list >/tmp/list.new
		mv /tmp/list.new /tmp/list
	done
}

case "$part" in
progs)		progs ;;
progs:*/*)	progs "${part#progs:}" ;;
verifier)	timeout 3600 ./test_verifier >"$RTBPF_OUT/test_verifier.log" 2>&1
		echo "# test_verifier: exit $? $(grep '^Summary' "$RTBPF_OUT/test_verifier.log")" ;;
maps)		timeout 3600 ./test_maps >"$RTBPF_OUT/test_maps.log" 2>&1
		echo "# test_maps: exit $? $(tail -n1 "$RTBPF_OUT/test_maps.log")" ;;
*)		echo "# unknown selftests part '$part'"; exit 2 ;;
esac
exit 0
