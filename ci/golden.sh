#!/usr/bin/env bash
# Behaviour kept: writes the grades (one "target, case, grade" line each,
# go run ./ci/grades) of both sides to DIR, one file per part:
#
#   builtin.txt            the built-in encoders, with the recorded
#                          directories of hpack-test-case
#   matrix.txt             the encoder adapters (ci/matrix.sh)
#   live.txt               the live targets' encoders (ci/live.sh)
#   decoders-builtin.txt   the built-in decoders (hpackcert decoders)
#   decoders-adapters.txt  the decoder programs of adapters/decoders.txt
#   decoders-live.txt      the live decoder targets; these two from one
#                          run of ci/decoders.sh, told apart by kind
#
# Run it before and after a change that moves code, then compare:
#
#   ci/golden.sh /tmp/before; (make the change); ci/golden.sh /tmp/after
#   diff -r /tmp/before /tmp/after
#
# cmd/hpackcert's TestGradesGolden checks builtin.txt's grades in every
# test run. GOLDEN_SKIP leaves parts out, by the words matrix, live,
# decoders-builtin, decoders-adapters and decoders-live (the slow ones are
# matrix, live and the last two); a word it does not know is an error.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 1 ] || {
	echo "usage: ci/golden.sh DIR" >&2
	exit 2
}
dir=$1
skip=" ${GOLDEN_SKIP:-} "
for word in ${GOLDEN_SKIP:-}; do
	case $word in
	matrix | live | decoders-builtin | decoders-adapters | decoders-live) ;;
	*)
		echo "ci/golden.sh: GOLDEN_SKIP: unknown part \"$word\" (want matrix, live, decoders-builtin, decoders-adapters or decoders-live)" >&2
		exit 2
		;;
	esac
done
wanted() { [[ $skip != *" $1 "* ]]; }
mkdir -p "$dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -tags nghttp2,nghttp3 -o "$tmp/hpackcert" ./cmd/hpackcert
go build -o "$tmp/grades" ./ci/grades

# A run that grades has exit status 1 when a case fails: the grades are
# written all the same.
shared=../shared/hpack-test-case
"$tmp/hpackcert" run --encoder builtin:ref --encoder builtin:xnet --encoder builtin:nghttp2 \
	--stories "$shared/go-hpack" --stories "$shared/nghttp2" --stories "$shared/python-hpack" \
	--json "$tmp/builtin.json" >/dev/null || [ $? -eq 1 ]
"$tmp/grades" "$tmp/builtin.json" >"$dir/builtin.txt"

# script NAME ARGS... runs ci/NAME.sh (with the environment its caller
# sets), its output in a log shown (its end) when it fails.
script() {
	local name=$1
	shift
	"./ci/$name.sh" "$@" >"$tmp/$name.log" 2>&1 || [ $? -eq 1 ] || {
		tail -20 "$tmp/$name.log" >&2
		exit 2
	}
}
if wanted matrix; then
	MATRIX_OUT="$tmp" MATRIX_JSON="$tmp/matrix.json" script matrix
	"$tmp/grades" "$tmp/matrix.json" >"$dir/matrix.txt"
fi
if wanted live; then
	LIVE_JSON="$tmp/live.json" script live --out "$tmp/live.md"
	"$tmp/grades" "$tmp/live.json" >"$dir/live.txt"
fi

if wanted decoders-builtin; then
	"$tmp/hpackcert" decoders --decoder builtin:strict --decoder builtin:xnet --decoder builtin:nghttp2 \
		--decoder builtin:ref --json "$tmp/decoders-builtin.json" >/dev/null || [ $? -eq 1 ]
	"$tmp/grades" "$tmp/decoders-builtin.json" >"$dir/decoders-builtin.txt"
fi
if wanted decoders-adapters || wanted decoders-live; then
	DECODERS_OUT="$tmp" DECODERS_JSON="$tmp/decoders.json" script decoders
	if wanted decoders-adapters; then
		"$tmp/grades" -kind stdio "$tmp/decoders.json" >"$dir/decoders-adapters.txt"
	fi
	if wanted decoders-live; then
		"$tmp/grades" -kind live "$tmp/decoders.json" >"$dir/decoders-live.txt"
	fi
fi
wc -l "$dir"/*.txt
