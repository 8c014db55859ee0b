#!/usr/bin/env bash
# Runs the whole suite (go test ./...) N times in a row with two
# CPU-bound processes beside it, as on a busy machine, and lists every
# test that failed in each run. A test that fails in one run and passes in
# another flakes: the suite's tests must not (README, "Testing").
#
# Usage: ci/flaky.sh [N]     N runs (default $FLAKY_RUNS, else 3)
#
# Environment:
#   FLAKY_RUNS      runs when no argument is given
#   FLAKY_TIMEOUT   go test's -timeout for each run (default 30m); the busy
#                   processes of a run end by themselves after it too
#   GOFLAGS         added to (-tags=nghttp2,nghttp3 -trimpath, as ci/test.sh)
# CI=true is set, as in ci/test.sh: a test missing what it needs fails.
#
# Exit status: 0 when every run passed, 1 when a run failed, 2 on a usage
# error.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${1:-${FLAKY_RUNS:-3}}
if ! [[ $runs =~ ^[1-9][0-9]*$ ]]; then
	echo "ci/flaky.sh: N must be a positive number of runs, not \"$runs\"" >&2
	exit 2
fi
limit=${FLAKY_TIMEOUT:-30m}
if ! [[ $limit =~ ^[1-9][0-9]*m$ ]]; then
	echo "ci/flaky.sh: FLAKY_TIMEOUT must be whole minutes such as 30m, not \"$limit\"" >&2
	exit 2
fi
export GOFLAGS="${GOFLAGS:-} -tags=nghttp2,nghttp3 -trimpath"
export CI=true

# Under CI=true a test missing what it needs fails: install it first, as
# ci/test.sh does, so that a fresh clone's runs count flakes only.
./ci/install.sh

logs=$(mktemp -d "${TMPDIR:-/tmp}/hpackcert-flaky.XXXXXX")
busy=()

# stop_busy ends the busy processes this script started, each by its pid.
stop_busy() {
	local pid
	for pid in "${busy[@]}"; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	busy=()
}
trap stop_busy EXIT
trap 'stop_busy; exit 130' INT
trap 'stop_busy; exit 143' TERM

# start_busy starts two shell loops that spin on a core each and end by
# themselves once the run's time limit has passed.
start_busy() {
	local seconds=$((${limit%m} * 60)) i
	for i in 1 2; do
		(
			end=$((SECONDS + seconds))
			while ((SECONDS < end)); do :; done
		) &
		busy+=($!)
	done
}

# failed_tests prints the tests a go test -json log says failed, one
# "package test" a line, leaving out a parent whose subtest is listed; a
# package that failed with no test failing (a build error, a panic in
# TestMain, the time limit) is listed as "package (package)".
failed_tests() {
	{ grep '"Action":"fail"' "$1" || true; } |
		sed -n 's/.*"Package":"\([^"]*\)"\(,"Test":"\([^"]*\)"\)\{0,1\}.*/\1 \3/p' |
		sort -u |
		awk '
			{ line[NR] = $0; pkg[NR] = $1; test[NR] = substr($0, length($1) + 2) }
			END {
				for (i = 1; i <= NR; i++) {
					covered = 0
					for (j = 1; j <= NR; j++) {
						if (j == i || pkg[j] != pkg[i]) continue
						if (test[i] == "" && test[j] != "") covered = 1
						if (test[i] != "" && index(test[j], test[i] "/") == 1) covered = 1
					}
					if (!covered) print (test[i] == "" ? pkg[i] " (package)" : line[i])
				}
			}'
}

failures=0
summary=()
for ((run = 1; run <= runs; run++)); do
	printf '\n== run %d of %d: go test -count=1 -timeout %s ./... beside two busy loops\n' "$run" "$runs" "$limit"
	log=$logs/run-$run.json
	start=$(date +%s)
	start_busy
	status=0
	go test -count=1 -timeout "$limit" -json ./... >"$log" 2>"$logs/run-$run.stderr" || status=$?
	stop_busy
	took=$(($(date +%s) - start))
	failed=$(failed_tests "$log")
	if [ $status -eq 0 ] && [ -z "$failed" ]; then
		summary+=("run $run: pass (${took}s)")
		echo "run $run: pass in ${took}s"
		continue
	fi
	failures=$((failures + 1))
	if [ -z "$failed" ]; then
		failed="(go test exited $status with no failing test named: see $logs/run-$run.stderr)"
	fi
	summary+=("run $run: FAIL (${took}s)")
	while IFS= read -r name; do
		summary+=("    $name")
	done <<<"$failed"
	echo "run $run: FAIL in ${took}s:"
	sed 's/^/    /' <<<"$failed"
done

printf '\n== ci/flaky.sh: %d runs, %d failed (GOFLAGS=%s, CI=true, %s cores)\n' "$runs" "$failures" "$GOFLAGS" "$(nproc)"
printf '%s\n' "${summary[@]}"
if [ $failures -gt 0 ]; then
	echo "the logs (go test -json) are in $logs"
	exit 1
fi
rm -rf "$logs"
