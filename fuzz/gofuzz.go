//go:build gofuzz

package fuzz

// Entry points for go-fuzz (github.com/dvyukov/go-fuzz), one per target:
//
//	go-fuzz-build -func FuzzHuffman ./fuzz
//	go-fuzz -bin fuzz-fuzz.zip -workdir /tmp/gofuzz-huffman
//
// go-fuzz cannot build cgo, so these see the strict and x/net oracles only.
// Each returns 1 for an input worth keeping and panics on a failure, as
// go-fuzz expects. The blank import keeps go-fuzz-dep, which go-fuzz-build
// links into the instrumented binary, required in go.mod.

import (
	_ "github.com/dvyukov/go-fuzz/go-fuzz-dep"

	"github.com/hpackcert/hpackcert/oracle"
	_ "github.com/hpackcert/hpackcert/oracle/all"
)

func run(err error) int {
	if err != nil {
		panic(err)
	}
	return 1
}

func FuzzEncodeRoundTrip(data []byte) int {
	return run(CheckEncodeRoundTrip(data, oracle.Available()))
}

func FuzzHuffman(data []byte) int { return run(CheckHuffman(data, oracle.Available())) }

func FuzzInteger(data []byte) int { return run(CheckInteger(data, oracle.Available())) }

func FuzzDecoderDifferential(data []byte) int {
	return run(CheckDecoderDifferential(data, oracle.Available()))
}

func FuzzCertifyXNetEncoder(data []byte) int { return run(CheckCertifyXNetEncoder(data)) }
