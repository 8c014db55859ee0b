#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script for hpackcert's fuzz targets, and
# the one ci/libfuzzer.sh runs on a plain machine.
#
# It follows the OSS-Fuzz build environment: the repository in
# $SRC/hpackcert, binaries to $OUT, scratch space in $WORK, and $CXX,
# $CXXFLAGS, $LIB_FUZZING_ENGINE and $SANITIZER as the base-builder-go image
# sets them. .clusterfuzzlite/build.sh runs it; for OSS-Fuzz, use it as
# projects/hpackcert/build.sh with the Dockerfile of .clusterfuzzlite/.
#
# Each native target (func FuzzX(f *testing.F) in fuzz/fuzz_test.go) is
# built as ci/libfuzzer.sh proves it: go-118-fuzz-build -tags nghttp2 turns
# it into a C archive, which is linked with the libFuzzer engine and with
# libnghttp2's static library (the runner image has no libnghttp2), so the
# binaries decode through all three oracles. A coverage build ($SANITIZER
# coverage) goes through OSS-Fuzz's compile_native_go_fuzzer instead, which
# passes no build tags: strict and x/net only. Next to each binary go
# <Target>_seed_corpus.zip (corpus/<Target>/, framed for go-118-fuzz-build,
# which reads a []byte argument as a 4-octet big-endian length and the
# octets).
#
# go-118-fuzz-build rewrites the package it builds (it swaps the testing
# import): run this on a copy of the repository, as the OSS-Fuzz container
# and ci/libfuzzer.sh do.

cd "$SRC/hpackcert"
go118_version=v0.0.0-20250520111509-a70c2aa677fa # github.com/AdamKorcz/go-118-fuzz-build
work=${WORK:-$(mktemp -d)}

# The targets are not listed here by name: compile_native_go_fuzzer greps
# the package directory, this file included, for the name, and needs it in
# one file only. BUILD_TARGETS (ci/libfuzzer.sh) may name a subset.
targets=${BUILD_TARGETS:-$(sed -n 's/^func \(Fuzz[A-Za-z0-9]*\)(f \*testing\.F) {$/\1/p' fuzz/fuzz_test.go)}

# Both ways of building rewrite the testing import to go-118-fuzz-build's
# shim, which must be in go.mod.
go get "github.com/AdamKorcz/go-118-fuzz-build/testing@$go118_version"

if [ "${SANITIZER:-}" = coverage ]; then
	for target in $targets; do
		compile_native_go_fuzzer github.com/hpackcert/hpackcert/fuzz "$target" "$target"
	done
else
	GOBIN=$work/bin go install "github.com/AdamKorcz/go-118-fuzz-build@$go118_version"
	nghttp2=$(pkg-config --variable=libdir libnghttp2)/libnghttp2.a
	for target in $targets; do
		"$work/bin/go-118-fuzz-build" -tags nghttp2 -o "$work/$target.a" -func "$target" ./fuzz
		# shellcheck disable=SC2086 # the flags are lists
		$CXX $CXXFLAGS $LIB_FUZZING_ENGINE "$work/$target.a" "$nghttp2" -o "$OUT/$target"
		rm -f "$work/$target.a" "$work/$target.h"
	done
fi

seeds=$(mktemp -d)
go run ./corpus/cmd/corpussync -libfuzzer "$seeds"
for target in $targets; do
	rm -f "$OUT/${target}_seed_corpus.zip"
	(cd "$seeds/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
done
rm -rf "$seeds"
