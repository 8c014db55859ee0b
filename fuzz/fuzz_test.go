package fuzz

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/hpackcert/hpackcert/oracle/all"
)

// The targets take one []byte so that every engine can drive them,
// OSS-Fuzz's native Go builder included. Their seeds are the files under
// testdata/fuzz/<Target>/, kept in step with corpus/<Target>/ by
// go run ./corpus/cmd/corpussync. Helpers live in non-test files, which
// go-118-fuzz-build needs, and a target's name appears in this file only
// (see the package doc): other files use these constants. Each target runs
// its check with a checker of the registered oracles kept between
// executions (check in checker.go), so that decoders, encoders and buffers
// serve execution after execution.
const (
	targetEncodeRoundTrip      = "FuzzEncodeRoundTrip"
	targetHuffman              = "FuzzHuffman"
	targetInteger              = "FuzzInteger"
	targetDecoderDifferential  = "FuzzDecoderDifferential"
	targetCertifyXNetEncoder   = "FuzzCertifyXNetEncoder"
	targetQPACKEncodeRoundTrip = "FuzzQPACKEncodeRoundTrip"
	targetQPACKDecoders        = "FuzzQPACKDecoders"
)

func FuzzEncodeRoundTrip(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := check((*checker).encodeRoundTrip, data); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzHuffman(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := check((*checker).huffman, data); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzInteger(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := check((*checker).integer, data); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzDecoderDifferential(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := check((*checker).decoderDifferential, data); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzCertifyXNetEncoder(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := check((*checker).certifyXNetEncoder, data); err != nil {
			t.Fatal(err)
		}
	})
}

// The QPACK targets keep no checker: qstrict has no Reset, and a QPACK
// execution opens its encoder and decoders afresh.

func FuzzQPACKEncodeRoundTrip(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := CheckQPACKEncodeRoundTrip(data, newQPACKEncoder, qpackDecoders); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzQPACKDecoders(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := CheckQPACKDecoders(data, qpackDecoders); err != nil {
			t.Fatal(err)
		}
	})
}

// TestTargetNamesInOneFile keeps the fuzz directory buildable by OSS-Fuzz's
// compile_native_go_fuzzer, which greps it (recursively) for a target's
// name and rewrites the one file that has it.
func TestTargetNamesInOneFile(t *testing.T) {
	targets := []string{targetEncodeRoundTrip, targetHuffman, targetInteger, targetDecoderDifferential, targetCertifyXNetEncoder,
		targetQPACKEncodeRoundTrip, targetQPACKDecoders}
	found := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, target := range targets {
			if strings.Contains(string(b), target) {
				found[target] = append(found[target], path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range targets {
		if files := found[target]; len(files) != 1 || files[0] != "fuzz_test.go" {
			t.Errorf("%s appears in %v; want only fuzz_test.go", target, files)
		}
	}
}
