package fuzz

import (
	"testing"

	"github.com/hpackcert/hpackcert/oracle"
	_ "github.com/hpackcert/hpackcert/oracle/all"
)

// The targets take one []byte so that every engine can drive them,
// OSS-Fuzz's native Go builder included. Their seeds are the files under
// testdata/fuzz/<Target>/, kept in step with corpus/<Target>/ by
// go run ./corpus/cmd/corpussync. Helpers live in non-test files, which
// go-118-fuzz-build needs.

func FuzzEncodeRoundTrip(f *testing.F) {
	oracles := oracle.Available()
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := CheckEncodeRoundTrip(data, oracles); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzHuffman(f *testing.F) {
	oracles := oracle.Available()
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := CheckHuffman(data, oracles); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzInteger(f *testing.F) {
	oracles := oracle.Available()
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := CheckInteger(data, oracles); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzDecoderDifferential(f *testing.F) {
	oracles := oracle.Available()
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := CheckDecoderDifferential(data, oracles); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzCertifyXNetEncoder(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := CheckCertifyXNetEncoder(data); err != nil {
			t.Fatal(err)
		}
	})
}
