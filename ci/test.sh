#!/usr/bin/env bash
# The project's test command (README quick start). It installs what the
# suite needs when it is missing, then runs every check CI gates on.
#
# Environment:
#   CI=true or HPACKCERT_REQUIRE_NGHTTP2=1  tests that need libnghttp2 or
#                                           ../shared fail instead of skipping
set -euo pipefail
cd "$(dirname "$0")/.."

# step prints a heading with the seconds since the start and since the
# previous step, so a CI log shows where the time goes.
t0=$(date +%s)
tp=$t0
step() {
	local now
	now=$(date +%s)
	printf '\n== %s  [%d s total, previous step %d s]\n' "$*" $((now - t0)) $((now - tp))
	tp=$now
}

# What the suite needs (libnghttp2-dev, libnghttp3-dev, Chromium, python3-hpack, the live
# targets), installed when missing: ci/install.sh, which ci/flaky.sh runs
# too.
./ci/install.sh
step "packages and live targets ready"

tags=nghttp2,nghttp3
# -trimpath keeps the checkout's directory out of the build cache's keys,
# so that ci/bare-clone.sh's copy of the repository reuses the packages
# this run compiled instead of compiling them all again.
export GOFLAGS="${GOFLAGS:-} -tags=$tags -trimpath"

step "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:" >&2
	echo "$unformatted" >&2
	exit 1
fi

step "go vet (tags: $tags)"
go vet ./...

step "go test (tags: $tags)"
go test -count=1 ./...

step "bare clone: go test in a copy of the repository with no ../shared beside it"
./ci/bare-clone.sh

# -short under -race: a test whose checks run in child processes (the
# hpackcert binary against hostile peers, the gate and action scripts),
# which the race detector does not instrument, skips there
# (testenv.ChildProcesses), and the few long batteries scale down; the run
# above ran them all in full.
step "go test -race -short (tags: $tags)"
go test -count=1 -race -short ./...

step "safe build: encoder, property and fuzz corpus replay with -tags purego (no package unsafe)"
go test -count=1 -tags "$tags,purego" ./encoder/ ./property/ ./fuzz/

step "the main command: go run ./cmd/hpackcert (built-in encoders; ours with --strict)"
go run ./cmd/hpackcert >/dev/null
go run ./cmd/hpackcert --encoder builtin:ref --strict >/dev/null
# The reference decoders: strict and libnghttp2 pass every dec/ case, x/net
# fails only its documented departures (ci/decoders-expect.txt).
go run -tags nghttp2,nghttp3 ./cmd/hpackcert decoders --expect-fail ci/decoders-expect.txt >/dev/null
# QPACK: the reference encoder passes every qenc/ case under --strict; the
# strict decoder and libnghttp3's pass every qdec/ case.
go run -tags nghttp2,nghttp3 ./cmd/hpackcert qpack --strict >/dev/null
go run -tags nghttp2,nghttp3 ./cmd/hpackcert qpack-decoders --decoder builtin:strict --decoder builtin:nghttp3 --strict >/dev/null

step "fuzz: corpus replay and a short run of every target (ci/fuzz.sh)"
./ci/fuzz.sh

step "fuzz farms: go-fuzz and libFuzzer builds, run briefly (ci/libfuzzer.sh)"
./ci/libfuzzer.sh

step "the conformance matrix of real encoders (ci/matrix.sh; fails if an adapter no longer starts)"
MATRIX_OUT="$(mktemp -d)" ./ci/matrix.sh

step "live certification of real servers, proxies and clients (ci/live.sh)"
./ci/live.sh --out "$(mktemp)"

step "the decoder matrix: built-in decoders, the adapters' decoder programs, live servers and proxies (ci/decoders.sh)"
DECODERS_OUT="$(mktemp -d)" ./ci/decoders.sh

step "the QPACK matrix: built-in encoders and decoders, the adapters, the qpack-05 recordings, live HTTP/3 peers (ci/qpack.sh)"
QPACK_OUT="$(mktemp -d)" ./ci/qpack.sh

step "ok"
