#!/usr/bin/env bash
# Native Go fuzzing gate: checks that corpus/ and fuzz/testdata/fuzz/ are in
# step, replays every seed and saved crasher with go test, then fuzzes each
# target for a short fixed budget. A failing input found here is written by
# the go command to fuzz/testdata/fuzz/<Target>/; commit it (after
# go run ./corpus/cmd/corpussync) so that go test replays it forever after.
# The reference decoder's own targets (decoder/FuzzDecode, decoder/FuzzHuffman,
# in package decoder's tests) run the same way; their seeds and saved inputs
# are decoder/testdata/fuzz/<Target>/, which corpussync does not touch.
# The QPACK targets (FuzzQPACKEncodeRoundTrip, FuzzQPACKDecoders) are ./fuzz
# targets like the HPACK ones, with their seeds in corpus/ too.
#
# Run from anywhere: ./ci/fuzz.sh
#
# Environment:
#   FUZZ_TIME     budget per target, a go test -fuzztime value (default 10s)
#   FUZZ_TARGETS  space-separated targets (default: all nine): a name alone
#                 is a target of ./fuzz, PKG/Name one of ./PKG
#   FUZZ_MINIMIZE_TIME  -fuzzminimizetime (default 1s): the go command
#                 minimizes every new interesting input, for up to 60s by
#                 default; the targets' bounds keep that to seconds
#                 (docs/FUZZING.md), still most of a 10-second run
#   FUZZ_TAGS     build tags (default nghttp2: all three oracles; needs
#                 libnghttp2-dev; set FUZZ_TAGS= for strict and x/net only)
set -euo pipefail
cd "$(dirname "$0")/.."

fuzz_time=${FUZZ_TIME:-10s}
minimize_time=${FUZZ_MINIMIZE_TIME:-1s}
targets=${FUZZ_TARGETS:-FuzzEncodeRoundTrip FuzzHuffman FuzzInteger FuzzDecoderDifferential FuzzCertifyXNetEncoder FuzzQPACKEncodeRoundTrip FuzzQPACKDecoders decoder/FuzzDecode decoder/FuzzHuffman}
tags=${FUZZ_TAGS-nghttp2}
# GOFLAGS from the caller (ci/test.sh sets -tags) would clash with -tags here.
export GOFLAGS=

step() { printf '\n== fuzz: %s\n' "$*"; }

step "corpus/ and fuzz/testdata/fuzz/ in step (go run ./corpus/cmd/corpussync -check)"
go run ./corpus/cmd/corpussync -check

step "replay every seed and saved crasher (go test -tags '$tags' -run '^Fuzz' ./fuzz ./decoder)"
go test -count=1 -tags "$tags" -run '^Fuzz' ./fuzz ./decoder

summary=()
for target in $targets; do
	pkg=fuzz
	name=$target
	if [[ $target == */* ]]; then
		pkg=${target%/*}
		name=${target##*/}
	fi
	step "$target for $fuzz_time (go test -tags '$tags' -run '^\$' -fuzz '^$name\$' -fuzztime $fuzz_time -fuzzminimizetime $minimize_time ./$pkg)"
	log=$(mktemp)
	saved=$pkg/testdata/fuzz/$name
	# A target may have no saved inputs yet (decoder/FuzzHuffman has none).
	before=$(ls "$saved" 2>/dev/null | sort || true)
	if ! go test -tags "$tags" -run '^$' -fuzz "^$name\$" -fuzztime "$fuzz_time" -fuzzminimizetime "$minimize_time" "./$pkg" >"$log" 2>&1; then
		new=$(comm -13 <(echo "$before") <(ls "$saved" 2>/dev/null | sort))
		if [ -z "$new" ] && grep -q 'context deadline exceeded' "$log"; then
			# Go 1.26's fuzz coordinator can report its own -fuzztime
			# deadline as a failure when a worker is mid-call
			# (go.dev/issue/75804, fixed in Go 1.27). No input was saved, so
			# nothing failed.
			tail -n 4 "$log"
			echo "fuzz: $target: 'context deadline exceeded' with no failing input saved: the go.dev/issue/75804 race, not a failure" >&2
		else
			cat "$log"
			echo "fuzz: $target failed; the input is in $saved/: $new" >&2
			echo "fuzz: replay it with go test -run '$name/<file>' ./$pkg; rerun with FUZZ_MINIMIZE_TIME=60s to minimize;" >&2
			if [ "$pkg" = fuzz ]; then
				echo "fuzz: then go run ./corpus/cmd/corpussync, rename the raw twin corpus/$target/finding-<what>, sync again and commit." >&2
			else
				echo "fuzz: then commit it in $saved/." >&2
			fi
			rm -f "$log"
			exit 1
		fi
	fi
	tail -n 3 "$log"
	# The last progress line: "fuzz: elapsed: 15s, execs: 12345 (823/sec), new interesting: ..."
	last=$(grep 'fuzz: elapsed' "$log" | tail -n 1 || true)
	execs=$(sed -n 's/.*execs: \([0-9]*\) .*/\1/p' <<<"$last")
	interesting=$(sed -n 's/.*(total: \([0-9]*\)).*/\1/p' <<<"$last")
	rate=?
	if [[ $fuzz_time =~ ^([0-9]+)s$ && -n $execs ]]; then rate=$((execs / BASH_REMATCH[1])); fi
	summary+=("$(printf '%-26s %10s execs in %s (%s/s), corpus %s' "$target" "${execs:-?}" "$fuzz_time" "$rate" "${interesting:-?}")")
	rm -f "$log"
done

step "summary"
printf '%s\n' "${summary[@]}"
