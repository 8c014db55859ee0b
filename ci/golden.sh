#!/usr/bin/env bash
# Behaviour kept: writes the grades (one "encoder, case, grade" line each,
# go run ./ci/grades) of the built-in encoders with the recorded
# directories of hpack-test-case, of the matrix adapters (ci/matrix.sh) and
# of the live targets (ci/live.sh) to DIR/{builtin,matrix,live}.txt. Run it
# before and after a change that moves code, then compare:
#
#   ci/golden.sh /tmp/before; (make the change); ci/golden.sh /tmp/after
#   diff -r /tmp/before /tmp/after
#
# cmd/hpackcert's TestGradesGolden checks the first of the three in every
# test run. GOLDEN_SKIP="matrix live" leaves those out.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 1 ] || {
	echo "usage: ci/golden.sh DIR" >&2
	exit 2
}
dir=$1
mkdir -p "$dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
skip=" ${GOLDEN_SKIP:-} "

shared=../shared/hpack-test-case
go run -tags nghttp2 ./cmd/hpackcert run --encoder builtin:ref --encoder builtin:xnet --encoder builtin:nghttp2 \
	--stories "$shared/go-hpack" --stories "$shared/nghttp2" --stories "$shared/python-hpack" \
	--json "$tmp/builtin.json" >/dev/null || [ $? -eq 1 ]
go run ./ci/grades "$tmp/builtin.json" >"$dir/builtin.txt"

if [[ $skip != *" matrix "* ]]; then
	MATRIX_OUT="$tmp" MATRIX_JSON="$tmp/matrix.json" ./ci/matrix.sh >"$tmp/matrix.log" 2>&1 ||
		{ tail -20 "$tmp/matrix.log" >&2; exit 2; }
	go run ./ci/grades "$tmp/matrix.json" >"$dir/matrix.txt"
fi
if [[ $skip != *" live "* ]]; then
	LIVE_JSON="$tmp/live.json" ./ci/live.sh --out "$tmp/live.md" >"$tmp/live.log" 2>&1 || [ $? -eq 1 ] ||
		{ tail -20 "$tmp/live.log" >&2; exit 2; }
	go run ./ci/grades "$tmp/live.json" >"$dir/live.txt"
fi
wc -l "$dir"/*.txt
