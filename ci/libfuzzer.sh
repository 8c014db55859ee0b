#!/usr/bin/env bash
# The fuzz-farm gate: proves that the fuzz targets build and run under the
# engines other than go test -fuzz.
#
#  1. libFuzzer, as OSS-Fuzz and ClusterFuzzLite build Go: each native target
#     is turned into a C archive by go-118-fuzz-build (what OSS-Fuzz's
#     compile_native_go_fuzzer runs) and linked with clang -fsanitize=fuzzer
#     (and -lnghttp2, since the targets link every oracle), then run for a few
#     seconds on the seed corpus.
#  2. go-fuzz: go-fuzz-build compiles the //go:build gofuzz entry points of
#     ./fuzz (no cgo, so strict and x/net only) into one archive holding all
#     five.
#
# go-118-fuzz-build rewrites the package it builds (it swaps the testing
# import), so step 1 works on a copy of the module in a scratch directory,
# where it also adds the go-118-fuzz-build/testing module to go.mod as
# OSS-Fuzz's build does; the checkout is left untouched. Tools come from the
# Go module proxy at pinned versions.
#
# Run from anywhere: ./ci/libfuzzer.sh
#
# Environment:
#   LIBFUZZER_SECONDS  run time per target (default 4)
#   LIBFUZZER_TARGETS  space-separated targets (default: all five)
#   LIBFUZZER_WORK     scratch directory to keep (default: a temporary one,
#                      removed at exit); binaries are left in $LIBFUZZER_WORK/bin
#   GOFUZZ_BUILD       0 to skip the go-fuzz step (default 1)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

go118_version=v0.0.0-20250520111509-a70c2aa677fa # github.com/AdamKorcz/go-118-fuzz-build
gofuzz_version=$(go list -m -f '{{.Version}}' github.com/dvyukov/go-fuzz)
seconds=${LIBFUZZER_SECONDS:-4}
targets=${LIBFUZZER_TARGETS:-FuzzEncodeRoundTrip FuzzHuffman FuzzInteger FuzzDecoderDifferential FuzzCertifyXNetEncoder}
export GOFLAGS=

step() { printf '\n== libfuzzer: %s\n' "$*"; }

need_pkgs=()
command -v clang >/dev/null 2>&1 || need_pkgs+=(clang)
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || need_pkgs+=(libclang-rt-14-dev)
pkg-config --exists libnghttp2 2>/dev/null || need_pkgs+=(libnghttp2-dev pkg-config)
if [ ${#need_pkgs[@]} -gt 0 ]; then
	./ci/apt-install.sh "${need_pkgs[@]}"
fi

if [ -n "${LIBFUZZER_WORK:-}" ]; then
	work=$LIBFUZZER_WORK
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work/bin"

step "copying the module to $work/src"
rm -rf "$work/src"
mkdir -p "$work/src"
tar --exclude=./.git -cf - . | tar -C "$work/src" -xf -

step "installing go-118-fuzz-build@$go118_version and adding its testing shim to the copy's go.mod"
GOBIN=$work/bin go install "github.com/AdamKorcz/go-118-fuzz-build@$go118_version"
(cd "$work/src" && go get "github.com/AdamKorcz/go-118-fuzz-build/testing@$go118_version")

step "exporting the seed corpus framed for go-118-fuzz-build (go run ./corpus/cmd/corpussync -libfuzzer)"
go run ./corpus/cmd/corpussync -libfuzzer "$work/seeds"

nghttp2_libs=$(pkg-config --libs libnghttp2)
summary=()
for target in $targets; do
	step "$target: go-118-fuzz-build -tags nghttp2 -func $target ./fuzz; clang -fsanitize=fuzzer ... $nghttp2_libs"
	(cd "$work/src" && "$work/bin/go-118-fuzz-build" -tags nghttp2 -o "$work/$target.a" -func "$target" ./fuzz)
	clang -fsanitize=fuzzer "$work/$target.a" -o "$work/bin/$target" $nghttp2_libs
	rm -f "$work/$target.a" "$work/$target.h"

	step "$target: running ${seconds}s on $(ls "$work/seeds/$target" | wc -l) seeds"
	mkdir -p "$work/corpus/$target" "$work/crashes/$target"
	log=$work/$target.log
	if ! "$work/bin/$target" -max_total_time="$seconds" -print_final_stats=1 \
		-artifact_prefix="$work/crashes/$target/" \
		"$work/corpus/$target" "$work/seeds/$target" >"$log" 2>&1; then
		tail -n 40 "$log"
		echo "libfuzzer: $target crashed; the input is in $work/crashes/$target/ (set LIBFUZZER_WORK to keep it)." >&2
		echo "libfuzzer: strip its 4-octet length prefix, add it to corpus/$target/ and run go run ./corpus/cmd/corpussync." >&2
		exit 1
	fi
	grep -E '^#[0-9]+ +(INITED|DONE)' "$log" || true
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	cov=$(sed -n "s/^#[0-9]*[[:space:]]*DONE[[:space:]]*cov: \([0-9]*\) ft: \([0-9]*\).*/cov \1, ft \2/p" "$log")
	summary+=("$(printf '%-26s %8s execs/s, %s' "$target" "${rate:-?}" "${cov:-?}")")
done

if [ "${GOFUZZ_BUILD:-1}" != 0 ]; then
	step "go-fuzz: installing go-fuzz-build@$gofuzz_version; go-fuzz-build ./fuzz (all five entry points, tag gofuzz)"
	GOBIN=$work/bin go install "github.com/dvyukov/go-fuzz/go-fuzz@$gofuzz_version" "github.com/dvyukov/go-fuzz/go-fuzz-build@$gofuzz_version"
	"$work/bin/go-fuzz-build" -o "$work/bin/fuzz-gofuzz.zip" ./fuzz
	ls -l "$work/bin/fuzz-gofuzz.zip"
	summary+=("go-fuzz-build ./fuzz ok ($work/bin/fuzz-gofuzz.zip)")
fi

step "summary"
printf '%s\n' "${summary[@]}"
