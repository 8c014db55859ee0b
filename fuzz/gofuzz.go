//go:build gofuzz

package fuzz

// Entry points for go-fuzz (github.com/dvyukov/go-fuzz): FuzzGoX runs CheckX.
// go-fuzz-build puts all seven in one archive; go-fuzz -func picks one:
//
//	go-fuzz-build -o fuzz-gofuzz.zip ./fuzz
//	go-fuzz -bin fuzz-gofuzz.zip -func FuzzGoHuffman -workdir /tmp/gofuzz-huffman
//
// They do not reuse the native targets' names, nor contain them: OSS-Fuzz's
// coverage build compiles the package's tests with -tags gofuzz, where both
// would be visible, and compile_native_go_fuzzer greps for a target's name
// (see the package doc). go-fuzz cannot build cgo, so these see the strict
// and x/net oracles only.
// Each runs its check with a kept checker, as the native targets do, and
// returns 1 for an input worth keeping and panics on a failure, as
// go-fuzz expects. The blank import keeps go-fuzz-dep, which go-fuzz-build
// links into the instrumented binary, required in go.mod.

import (
	_ "github.com/dvyukov/go-fuzz/go-fuzz-dep"

	_ "github.com/hpackcert/hpackcert/oracle/all"
)

func run(err error) int {
	if err != nil {
		panic(err)
	}
	return 1
}

func FuzzGoEncodeRoundTrip(data []byte) int { return run(check((*checker).encodeRoundTrip, data)) }

func FuzzGoHuffman(data []byte) int { return run(check((*checker).huffman, data)) }

func FuzzGoInteger(data []byte) int { return run(check((*checker).integer, data)) }

func FuzzGoDecoderDifferential(data []byte) int {
	return run(check((*checker).decoderDifferential, data))
}

func FuzzGoCertifyXNetEncoder(data []byte) int {
	return run(check((*checker).certifyXNetEncoder, data))
}

func FuzzGoQPACKEncodeRoundTrip(data []byte) int {
	return run(CheckQPACKEncodeRoundTrip(data, newQPACKEncoder, qpackDecoders))
}

func FuzzGoQPACKDecoders(data []byte) int { return run(CheckQPACKDecoders(data, qpackDecoders)) }
