//go:build gofuzz

package fuzz

import (
	"github.com/hpackcert/hpackcert/oracle"
	"github.com/hpackcert/hpackcert/oracle/strict"
)

// Under go-fuzz the second decoder is the strict decoder again:
// internal/broken imports package certify, whose embedded files
// (vectors' raw-data) go-fuzz-build does not copy into its build tree, so
// the broken decoder cannot be built there. The go test, libFuzzer and
// OSS-Fuzz builds compare with the broken decoder (independent.go).

// bugSet is the set of planted bugs of the second decoder: none here.
type bugSet = uint32

type independentDecoder struct{ *strict.Decoder }

func newIndependent(bugSet) *independentDecoder {
	d := strict.New()
	return &independentDecoder{d}
}

// Table returns the strict decoder's table, as oracle.Decoder asks.
func (d *independentDecoder) Table() []oracle.Field { return d.Decoder.Table() }
