#!/usr/bin/env bash
# The fuzz-farm gate: proves that the fuzz targets build and run under the
# engines other than go test -fuzz.
#
#  1. libFuzzer, as OSS-Fuzz and ClusterFuzzLite build Go: this runs the
#     very build script they run, fuzz/oss-fuzz/build.sh, in an OSS-Fuzz-like
#     environment ($SRC, $OUT, $WORK, CXX=clang++, LIB_FUZZING_ENGINE=
#     -fsanitize=fuzzer): each native target becomes a C archive by
#     go-118-fuzz-build -tags nghttp2, linked with libFuzzer and libnghttp2's
#     static library, plus its <Target>_seed_corpus.zip. Each binary then
#     runs for a few seconds on the unzipped seeds.
#  2. go-fuzz: go-fuzz-build compiles the //go:build gofuzz entry points of
#     ./fuzz (no cgo, so strict and x/net only) into one archive holding all
#     seven.
#
# go-118-fuzz-build rewrites the package it builds (it swaps the testing
# import), and the build script adds its testing shim to go.mod, so step 1
# works on a copy of the module in a scratch directory; the checkout is left
# untouched. Tools come from the Go module proxy at pinned versions.
#
# Run from anywhere: ./ci/libfuzzer.sh
#
# Environment:
#   LIBFUZZER_SECONDS  run time per target (default 4)
#   LIBFUZZER_TARGETS  space-separated targets (default: all seven)
#   LIBFUZZER_WORK     scratch directory to keep (default: a temporary one,
#                      removed at exit); binaries are left in $LIBFUZZER_WORK/bin
#   GOFUZZ_BUILD       0 to skip the go-fuzz step (default 1)
set -euo pipefail
cd "$(dirname "$0")/.."

gofuzz_version=$(go list -m -f '{{.Version}}' github.com/dvyukov/go-fuzz)
seconds=${LIBFUZZER_SECONDS:-4}
targets=${LIBFUZZER_TARGETS:-FuzzEncodeRoundTrip FuzzHuffman FuzzInteger FuzzDecoderDifferential FuzzCertifyXNetEncoder FuzzQPACKEncodeRoundTrip FuzzQPACKDecoders}
export GOFLAGS=

step() { printf '\n== libfuzzer: %s\n' "$*"; }

need_pkgs=()
command -v clang++ >/dev/null 2>&1 || need_pkgs+=(clang)
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || need_pkgs+=(libclang-rt-14-dev)
pkg-config --exists libnghttp2 2>/dev/null || need_pkgs+=(libnghttp2-dev pkg-config)
command -v zip >/dev/null 2>&1 || need_pkgs+=(zip)
command -v unzip >/dev/null 2>&1 || need_pkgs+=(unzip)
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

step "copying the module to $work/src/hpackcert"
rm -rf "$work/src"
mkdir -p "$work/src/hpackcert" "$work/build"
tar --exclude=./.git -cf - . | tar -C "$work/src/hpackcert" -xf -

step "fuzz/oss-fuzz/build.sh with SRC=$work/src OUT=$work/bin WORK=$work/build CXX=clang++ LIB_FUZZING_ENGINE=-fsanitize=fuzzer"
SRC=$work/src OUT=$work/bin WORK=$work/build CXX=clang++ CXXFLAGS= LIB_FUZZING_ENGINE=-fsanitize=fuzzer SANITIZER=address \
	BUILD_TARGETS=$targets "$work/src/hpackcert/fuzz/oss-fuzz/build.sh"

summary=()
for target in $targets; do
	rm -rf "$work/seeds/$target"
	mkdir -p "$work/seeds/$target" "$work/corpus/$target" "$work/crashes/$target"
	unzip -q "$work/bin/${target}_seed_corpus.zip" -d "$work/seeds/$target"
	step "$target: running ${seconds}s on $(ls "$work/seeds/$target" | wc -l) seeds"
	log=$work/$target.log
	if ! "$work/bin/$target" -max_total_time="$seconds" -print_final_stats=1 \
		-artifact_prefix="$work/crashes/$target/" \
		"$work/corpus/$target" "$work/seeds/$target" >"$log" 2>&1; then
		tail -n 40 "$log"
		echo "libfuzzer: $target crashed; the input is in $work/crashes/$target/ (set LIBFUZZER_WORK to keep it)." >&2
		echo "libfuzzer: copy it to DIR/$target/, run go run ./corpus/cmd/corpussync -from-libfuzzer DIR and rename the new corpus/$target/<hash> finding-<what>." >&2
		exit 1
	fi
	grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)' "$log" || true
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	cov=$(sed -n "s/^#[0-9]*[[:space:]]*DONE[[:space:]]*cov: \([0-9]*\) ft: \([0-9]*\).*/cov \1, ft \2/p" "$log")
	summary+=("$(printf '%-26s %8s execs/s, %s' "$target" "${rate:-?}" "${cov:-?}")")
done

if [ "${GOFUZZ_BUILD:-1}" != 0 ]; then
	step "go-fuzz: installing go-fuzz-build@$gofuzz_version; go-fuzz-build ./fuzz (all seven entry points, tag gofuzz)"
	GOBIN=$work/bin go install "github.com/dvyukov/go-fuzz/go-fuzz@$gofuzz_version" "github.com/dvyukov/go-fuzz/go-fuzz-build@$gofuzz_version"
	"$work/bin/go-fuzz-build" -o "$work/bin/fuzz-gofuzz.zip" ./fuzz
	ls -l "$work/bin/fuzz-gofuzz.zip"
	summary+=("go-fuzz-build ./fuzz ok ($work/bin/fuzz-gofuzz.zip)")
fi

step "summary"
printf '%s\n' "${summary[@]}"
