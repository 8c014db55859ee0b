#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script for hpackcert's fuzz targets.
#
# It follows the OSS-Fuzz convention for native Go fuzz targets: one
# compile_native_go_fuzzer call per target (package, function, fuzzer name),
# and a <fuzzer>_seed_corpus.zip per target in $OUT. Use it as the project's
# build.sh (ClusterFuzzLite: .clusterfuzzlite/build.sh; OSS-Fuzz:
# projects/hpackcert/build.sh), with a Dockerfile on the base-builder-go image
# that copies the repository to $SRC/hpackcert and sets WORKDIR there.
#
# The targets are built without -tags nghttp2, as compile_native_go_fuzzer
# passes no build tags: they fuzz against the strict and x/net oracles. To
# add libnghttp2, install libnghttp2-dev in the Dockerfile and build with
# go-118-fuzz-build -tags nghttp2 and -lnghttp2 as ci/libfuzzer.sh does.
#
# ci/libfuzzer.sh builds and runs the same binaries on a plain machine.

cd "$SRC/hpackcert"

# compile_native_go_fuzzer rewrites the testing import to this shim, which
# must be in go.mod (go-118-fuzz-build's documented requirement).
go get github.com/AdamKorcz/go-118-fuzz-build/testing@v0.0.0-20250520111509-a70c2aa677fa

# The targets are the func FuzzX(f *testing.F) of fuzz/fuzz_test.go. They are
# not listed here by name: compile_native_go_fuzzer greps the package
# directory, this file included, for the name, and needs it in one file only.
targets=$(sed -n 's/^func \(Fuzz[A-Za-z0-9]*\)(f \*testing\.F) {$/\1/p' fuzz/fuzz_test.go)
for target in $targets; do
	compile_native_go_fuzzer github.com/hpackcert/hpackcert/fuzz "$target" "$target"
done

# Seed corpora: the raw seeds of corpus/<Target>/, framed the way binaries
# built by go-118-fuzz-build read a []byte argument (a 4-octet big-endian
# length, then the octets).
seeds=$(mktemp -d)
go run ./corpus/cmd/corpussync -libfuzzer "$seeds"
for target in $targets; do
	(cd "$seeds/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
done
rm -rf "$seeds"
