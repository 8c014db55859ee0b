#!/usr/bin/env bash
# ab.sh compares our encoder at two git revisions on the workloads of
# package bench: it builds the bench test binary at each revision and runs
# the two alternately, ROUNDS times each, pinned to one CPU, so that the
# machine's slow and fast seconds fall on both alike; then benchstat
# compares them (the cpu-ns/op rows are the ones BENCHMARKS.md quotes).
#
# Usage: bench/ab.sh REV_A REV_B [bench-regexp]
#   REV_B may be "." for the working tree. The default regexp is every
#   workload of ours: 'Batch/impl=ours|Stories/impl=ours|Churn/impl=ours|Huffman/.*/impl=ours'.
#
# Environment:
#   ROUNDS=20        alternating rounds
#   BENCHTIME=0.1s   -benchtime of each run
#   CPU=0            the CPU to pin to (taskset); CPU= to let the scheduler pick
#   TAGS=nghttp2     build tags (TAGS= without libnghttp2)
#   PKG=./bench/     the package whose benchmarks run (e.g. PKG=./decoder/)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 2 ]; then
	echo "usage: bench/ab.sh REV_A REV_B [bench-regexp]" >&2
	exit 2
fi
rev_a=$1 rev_b=$2
pattern=${3:-'Batch/impl=ours|Stories/impl=ours|Churn/impl=ours|Huffman/.*/impl=ours'}
rounds=${ROUNDS:-20}
benchtime=${BENCHTIME:-0.1s}
tags=${TAGS-nghttp2}
pkg=${PKG:-./bench/}
cpu=${CPU-0}
pin=()
if [ -n "$cpu" ]; then
	pin=(taskset -c "$cpu")
fi
benchstat=(go run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da)

work=$(mktemp -d -t hpackcert-ab.XXXXXX)
trees=()
cleanup() {
	for t in "${trees[@]}"; do
		git worktree remove --force "$t" >/dev/null 2>&1 || true
	done
	rm -rf "$work"
}
trap cleanup EXIT

# Both binaries run in this checkout's bench/, so that they read the same
# hpack-test-case data (../shared, or $HPACKCERT_TESTCASE_DIR).

# build REV OUT: the test binary of $pkg at REV ("." for the working tree).
build() {
	local rev=$1 out=$2 dir=.
	if [ "$rev" != "." ]; then
		dir=$work/tree-$(basename "$out" .test)
		git worktree add --detach --quiet "$dir" "$rev"
		trees+=("$dir")
	fi
	(cd "$dir" && go test -tags "$tags" -c -o "$out" "$pkg")
}
build "$rev_a" "$work/a.test"
build "$rev_b" "$work/b.test"

echo "== $rounds alternating rounds of: ${pin[*]}${pin:+ }<bench.test> -test.bench '$pattern' -test.benchtime $benchtime"
echo "   A = $rev_a ($(git rev-parse --short "$rev_a" 2>/dev/null || echo "$rev_a")), B = $rev_b"
for r in $(seq "$rounds"); do
	echo "-- round $r of $rounds" >&2
	for side in a b; do
		(cd bench && "${pin[@]}" "$work/$side.test" -test.run '^$' -test.bench "$pattern" -test.benchtime "$benchtime" -test.count 1) >>"$work/$side.txt"
	done
done
"${benchstat[@]}" A="$work/a.txt" B="$work/b.txt"
