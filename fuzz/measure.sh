#!/usr/bin/env bash
# Measures the fuzz targets' throughput, the figures docs/FUZZING.md quotes:
#
#  1. replay: BenchmarkCorpus (bench_test.go), each target's check over its
#     committed corpus, uninstrumented, -count 5; the median ns/exec.
#  2. native: each target under go test -fuzz, one worker (-parallel 1),
#     from the committed seeds (a fresh -fuzzcachedir every run), with
#     -fuzzminimizetime MEASURE_MINIMIZE_TIME (default 0: no minimization,
#     so that the progress lines give the fuzzing rate; "go" leaves the go
#     command's default, 60s, for the stall runs). It reports the median of
#     the rates the 3-second progress lines print, the overall rate (execs
#     / elapsed, minimization included), execs per CPU-second of the
#     coordinator and worker together (with /usr/bin/time; steadier than
#     the rates on a shared machine), and three views of a stall: the
#     longest gap between two progress lines (the coordinator prints one
#     every 3 s, minimizing or not), the longest time the exec count stood
#     still, from the first progress line that shows a count to the first
#     that shows a larger one (so to within a 3-s tick: the coordinator
#     counts a minimization's execs when it ends), and the longest
#     minimization itself, as GODEBUG=fuzzdebug=1 makes the go command log
#     it ("minimizing took").
#  3. libFuzzer: the binaries ci/libfuzzer.sh builds, each run
#     MEASURE_SECONDS from the seeds with libFuzzer's defaults; the
#     average exec/s it prints (-print_final_stats=1).
#
# Each REV (a git revision, or "worktree", the default) is copied to a
# scratch directory and built there; with several, every target runs for
# each REV in turn, so that they share the machine's noise:
#
#	fuzz/measure.sh 6e16995 worktree
#
# The machine's CPU (lscpu) heads the output. Run two at most at a time on a
# two-core machine, and none beside other work when the rates matter.
#
# Environment:
#   MEASURE_SECONDS        native and libFuzzer run time per target (default 30)
#   MEASURE_TARGETS        space-separated targets (default: all, as fuzz_test.go lists them)
#   MEASURE_STEPS          which of "replay native libfuzzer" to run (default all three)
#   MEASURE_MINIMIZE_TIME  -fuzzminimizetime for the native runs (default 0, off; "go": the go command's default)
#   MEASURE_WORK           scratch directory to keep (default: a temporary one)
#   MEASURE_REUSE          1 to reuse the builds a run with the same MEASURE_WORK left
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

seconds=${MEASURE_SECONDS:-30}
steps=${MEASURE_STEPS:-replay native libfuzzer}
# The names are read, not written here: compile_native_go_fuzzer greps this
# directory for a target's name (see doc.go).
all_targets=$(sed -n 's/^func \(Fuzz[A-Za-z0-9]*\)(f \*testing\.F) {$/\1/p' fuzz/fuzz_test.go)
targets=${MEASURE_TARGETS:-$all_targets}
revs=("$@")
[ ${#revs[@]} -gt 0 ] || revs=(worktree)
export GOFLAGS=

if [ -n "${MEASURE_WORK:-}" ]; then
	work=$MEASURE_WORK
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi

has() { [[ " $steps " == *" $1 "* ]]; }
note() { printf '== measure: %s\n' "$*" >&2; }

lscpu | grep 'Model name' || true
echo "go: $(go version); $(nproc) CPUs; load average $(cut -d' ' -f1-3 /proc/loadavg); ${seconds}s a run"

# Copy and build every REV.
labels=()
for rev in "${revs[@]}"; do
	if [ "$rev" = worktree ]; then
		label=worktree
	else
		label=$(git rev-parse --short "$rev")
	fi
	labels+=("$label")
	dir=$work/$label
	if [ "${MEASURE_REUSE:-0}" = 1 ] && [ -d "$dir/src" ]; then
		note "$label: reusing the builds in $dir"
		continue
	fi
	rm -rf "$dir/src"
	mkdir -p "$dir/src"
	if [ "$rev" = worktree ]; then
		tar --exclude=./.git -cf - . | tar -C "$dir/src" -xf -
	else
		git archive --format=tar "$rev" | tar -C "$dir/src" -xf -
	fi
	note "$label: building the test binaries"
	(cd "$dir/src" && go test -c -tags nghttp2 -o "$dir/bench.test" ./fuzz)
	if has native; then
		(cd "$dir/src" && go test -c -tags nghttp2 -fuzz . -o "$dir/fuzz.test" ./fuzz)
	fi
	if has libfuzzer; then
		note "$label: building the libFuzzer binaries with its ci/libfuzzer.sh"
		(cd "$dir/src" && LIBFUZZER_WORK=$dir/lf LIBFUZZER_SECONDS=1 GOFUZZ_BUILD=0 LIBFUZZER_TARGETS="$targets" ./ci/libfuzzer.sh >"$dir/libfuzzer-build.log" 2>&1) ||
			{ tail -n 30 "$dir/libfuzzer-build.log"; exit 1; }
	fi
done

median() { sort -n | awk '{v[NR] = $1} END {if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# cpu runs a command and writes its user and system CPU seconds, with its
# children's (the fuzz worker's), to the file $1.
cpu() {
	local out=$1
	shift
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%U %S' -o "$out" "$@"
	else
		"$@"
		echo "0 0" >"$out"
	fi
}

# stamp prefixes every line with the wall-clock time in seconds.
stamp() { while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done; }

# native_stats reads a stamped go test -fuzz log and prints the number of
# progress lines, the overall rate, the longest time the count stood
# still, the longest gap between progress lines and the longest
# minimization, in seconds; the rates of the lines go to stderr.
native_stats() {
	awk '
	$2 == "fuzz:" && $3 == "elapsed:" {
		if (prev != "" && $1 - prev > gap) gap = $1 - prev
		prev = $1
	}
	/DEBUG input minimized/ {
		d = $NF; secs = 0
		if (d ~ /µs$/) secs = d / 1e6
		else if (d ~ /ns$/) secs = d / 1e9
		else if (d ~ /ms$/) secs = d / 1e3
		else { if (d ~ /m/) { split(d, p, "m"); secs = p[1] * 60; d = p[2] } secs += d }
		if (secs > minimize) minimize = secs
	}
	$2 == "fuzz:" && $3 == "elapsed:" && $5 == "execs:" {
		t = $1; n = $6; rate = $7; gsub(/[(),]|\/sec/, "", rate)
		if (n != last) {
			if (started && t - since > stall) stall = t - since
			since = t; last = n
		}
		if (!started) { started = 1; first_t = t; first_n = n }
		if (++lines > 1) rates[lines - 1] = rate
		end_t = t; end_n = n
	}
	END {
		if (end_t > since && end_t - since > stall) stall = end_t - since
		overall = (end_t > first_t) ? (end_n - first_n) / (end_t - first_t) : 0
		printf "%d %.0f %.0f %.1f %.1f\n", lines, overall, stall, gap, minimize
		for (i in rates) print rates[i] > "/dev/stderr"
	}' "$1"
}

if has replay; then
	echo
	echo "replay: BenchmarkCorpus, -count 5, median (bench_test.go)"
	printf '%-26s' target
	for label in "${labels[@]}"; do printf ' %22s' "$label ns/exec (execs/s)"; done
	echo
	for label in "${labels[@]}"; do
		dir=$work/$label
		note "$label: BenchmarkCorpus"
		(cd "$dir/src/fuzz" && "$dir/bench.test" -test.run '^$' -test.bench '^BenchmarkCorpus$' -test.benchtime 1s -test.count 5 >"$dir/bench.log" 2>&1) || true
	done
	for target in $targets; do
		printf '%-26s' "$target"
		for label in "${labels[@]}"; do
			ns=$(awk -v t="BenchmarkCorpus/$target-" 'index($1, t) == 1 { for (i = 2; i < NF; i++) if ($(i + 1) == "ns/exec") print $i }' "$work/$label/bench.log" | median)
			if [ "$ns" = - ]; then
				printf ' %22s' -
			else
				printf ' %22s' "$(awk -v ns="$ns" 'BEGIN {printf "%.0f (%.0f)", ns, 1e9 / ns}')"
			fi
		done
		echo
	done
fi

if has native; then
	echo
	minimize=${MEASURE_MINIMIZE_TIME:-0}
	echo "native: go test -fuzz, -parallel 1, ${seconds}s, -fuzzminimizetime $minimize: median line rate / overall execs/s, execs per CPU-second (coordinator and worker), longest: exec count still, gap between progress lines, minimization"
	for target in $targets; do
		printf '%-26s' "$target"
		for label in "${labels[@]}"; do
			dir=$work/$label
			note "$label: $target native ${seconds}s"
			cache=$(mktemp -d)
			log=$dir/native-$target.log
			flags=(-test.run '^$' -test.fuzz "^$target\$" -test.fuzztime "${seconds}s" -test.parallel 1 -test.fuzzcachedir "$cache")
			[ "$minimize" = go ] || flags+=(-test.fuzzminimizetime "$minimize")
			(cd "$dir/src/fuzz" && GODEBUG=${GODEBUG:+$GODEBUG,}fuzzdebug=1 cpu "$log.cpu" "$dir/fuzz.test" "${flags[@]}" 2>&1 | stamp >"$log") || true
			rm -rf "$cache"
			read -r lines overall stall gap minimized < <(native_stats "$log" 2>"$log.rates")
			rate=$(median <"$log.rates")
			execs=$(sed -n 's/.*execs: \([0-9]*\) .*/\1/p' "$log" | tail -n 1)
			per_cpu=$(awk -v n="${execs:-0}" '{t = $1 + $2} END {if (t > 0) printf "%.0f", n / t; else print "-"}' "$log.cpu")
			printf ' %s: %s / %s, %s per CPU-s, count still %ss, line gap %ss, minimization %ss' "$label" "$rate" "$overall" "$per_cpu" "$stall" "$gap" "$minimized"
			if grep -q -- '--- FAIL' "$log"; then printf ' (FAIL, see %s)' "$log"; fi
		done
		echo
	done
fi

if has libfuzzer; then
	echo
	echo "libFuzzer: binaries of ci/libfuzzer.sh, ${seconds}s from the seeds: average exec/s"
	for target in $targets; do
		printf '%-26s' "$target"
		for label in "${labels[@]}"; do
			dir=$work/$label
			note "$label: $target libFuzzer ${seconds}s"
			corpus=$(mktemp -d)
			log=$dir/libfuzzer-$target.log
			"$dir/lf/bin/$target" -max_total_time="$seconds" -print_final_stats=1 \
				-artifact_prefix="$dir/" "$corpus" "$dir/lf/seeds/$target" >"$log" 2>&1 || true
			rm -rf "$corpus"
			rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
			printf ' %s: %s' "$label" "${rate:--}"
			if grep -q '^==[0-9]*== ERROR\|panic:' "$log"; then printf ' (crash, see %s)' "$log"; fi
		done
		echo
	done
fi
