#!/usr/bin/env bash
# compare.sh runs the benchmarks of package bench and prints how many times
# faster our encoder is than x/net's encoder and nghttp2's deflater, all
# measured in the same run, then the compression table. BENCHMARKS.md shows
# its output and explains every number.
#
# The test binary is built once and run COUNT times with -count=1, so the
# runs of the three implementations interleave: a burst of load from other
# processes then spreads over all of them instead of skewing one.
#
# Environment:
#   COUNT=10      runs of each benchmark (benchstat wants at least 6)
#   BENCHTIME=1s  -benchtime of each run
#   BENCH=.       -bench regexp, e.g. BENCH='Batch|Stories'
#   OUT=file      where the raw `go test -bench` output goes (default: a temp file)
#   TAGS=nghttp2  build tags; set TAGS= to run without libnghttp2
#   CPU=n         run every round on CPU n only (taskset -c n), so that all
#                 three implementations run on the same core; unset: the
#                 scheduler picks. On a virtual machine the vCPUs may run at
#                 different speeds (on ours, vCPU 1 ran 1.5x slower than 0).
#   PUREGO=1      also build ours with -tags purego (no package unsafe) and
#                 run it in every round, ours alone, as impl=ours-purego;
#                 the ratio tables then give its cost (its median / ours).
set -euo pipefail
cd "$(dirname "$0")/.."

count=${COUNT:-10}
benchtime=${BENCHTIME:-1s}
pattern=${BENCH:-.}
tags=${TAGS-nghttp2}
pin=()
if [ -n "${CPU:-}" ]; then
	pin=(taskset -c "$CPU")
fi
out=${OUT:-$(mktemp -t hpackcert-bench.XXXXXX)}
benchstat=(go run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da)

bin=$(mktemp -d -t hpackcert-bench.XXXXXX)/bench.test
trap 'rm -rf "$(dirname "$bin")"' EXIT
go test -tags "$tags" -c -o "$bin" ./bench/
echo "== $count rounds of: ${pin[*]}${pin:+ }go test -tags '$tags' -run '^\$' -bench '$pattern' -benchtime $benchtime -count 1 ./bench/"
if [ -n "${PUREGO:-}" ]; then
	go test -tags "$tags purego" -c -o "$bin.purego" ./bench/
	echo "   then: ${pin[*]}${pin:+ }go test -tags '$tags purego' -run '^\$' -bench '$pattern' -benchtime $benchtime -count 1 ./bench/ -impls ours (as impl=ours-purego)"
fi
go version
: >"$out"
for round in $(seq "$count"); do
	echo "-- round $round of $count" >&2
	(cd bench && "${pin[@]}" "$bin" -test.run '^$' -test.bench "$pattern" -test.benchtime "$benchtime" -test.count 1) | tee -a "$out"
	if [ -n "${PUREGO:-}" ]; then
		(cd bench && "${pin[@]}" "$bin.purego" -test.run '^$' -test.bench "$pattern" -test.benchtime "$benchtime" -test.count 1 -impls ours) |
			sed -E 's#/impl=ours(-[0-9]+)?([[:space:]])#/impl=ours-purego\1\2#' | tee -a "$out"
	fi
done
echo "raw output: $out"

echo
echo "== benchstat -col /impl (first column is ours; 'vs base' is the peer's change from ours)"
"${benchstat[@]}" -col /impl "$out"

# ratios prints, for the benchstat unit $1 (sec/op or cpu-sec/op), each
# peer's median divided by ours: how many times faster ours is.
ratios() {
	"${benchstat[@]}" -col /impl -format csv "$out" 2>/dev/null | awk -F, -v unit="$1" '
		# benchstat prints one CSV table per unit: a row naming the
		# columns (",ours,,xnet,...") then a row of units
		# (",sec/op,CI,..."). Only the table of unit is read.
		/^,/ && $2 != "" && $2 !~ /\// { for (i = 2; i <= NF; i++) impl[i] = $i; next }
		/^,/ { intable = ($2 == unit); next }
		/^$/ { intable = 0; next }
		!intable || $1 == "geomean" { next }
		{
			name = $1; sub(/-[0-9]+$/, "", name)
			ours = ""; xnet = ""; ng = ""; pg = ""
			for (i = 2; i <= NF; i++) {
				if (impl[i] == "ours") ours = $i
				if (impl[i] == "xnet") xnet = $i
				if (impl[i] == "nghttp2") ng = $i
				if (impl[i] == "ours-purego") pg = $i
			}
			target = "-"
			if (name ~ /^(Batch|Stories)$/) target = "xnet >= 5x, nghttp2 >= 2.5x"
			if (name ~ /^Churn$/) target = "xnet >= 4x"
			if (name ~ /^Huffman.*varied$/) target = "xnet >= 3x"
			rows[++n] = sprintf("%-28s %12s %12s %9s %13s %9s %13s   %s", name,
				ns(ours), ns(xnet), ratio(xnet, ours), ns(ng), ratio(ng, ours), ratio(pg, ours), target)
		}
		function ns(v) { return v == "" ? "-" : sprintf("%.1f", v * 1e9) }
		function ratio(peer, base) { return (peer == "" || base == "" || base == 0) ? "-" : sprintf("%.2fx", peer / base) }
		END {
			printf "%-28s %12s %12s %9s %13s %9s %13s   %s\n", "benchmark", "ours ns/op", "xnet ns/op", "xnet/ours", "nghttp2 ns/op", "ng/ours", "purego/ours", "target (issue 16)"
			for (i = 1; i <= n; i++) print rows[i]
		}'
}

echo
echo "== speed ratios, wall time: peer's median / our median (how many times faster ours is)"
ratios sec/op
echo
echo "== speed ratios, CPU time of the benchmark thread (cpu-ns/op; steadier on a shared machine)"
ratios cpu-sec/op

echo
echo "== compression on the raw-data stories: wire bytes / raw bytes of names and values"
go run -tags "$tags" ./bench/cmd/compression
