package fuzz

import (
	"fmt"
	"testing"

	"github.com/hpackcert/hpackcert/oracle"
)

// TestCheckerReuse checks that a checker kept from one execution to the
// next, as the targets keep them, gives every input the verdict a new
// checker gives it: each target's whole corpus in turn through one checker
// of the registered oracles, the malformed blocks that leave decoders
// broken included, then again in reverse; and inputs that planted faults
// fail on, before and after inputs that pass.
func TestCheckerReuse(t *testing.T) {
	type method func(*checker, []byte) error
	verdict := func(err error) string { return fmt.Sprint(err) }
	for _, target := range corpusTargets() {
		run := target.run
		names, inputs := readCorpus(t, target.name)
		reused := newChecker(oracle.Available())
		for pass := range 2 {
			for k := range inputs {
				i := k
				if pass == 1 {
					i = len(inputs) - 1 - k
				}
				if got, want := verdict(run(reused, inputs[i])), verdict(run(newChecker(oracle.Available()), inputs[i])); got != want {
					t.Errorf("%s: seed %s, pass %d, reused checker: %s; a new checker: %s", target.name, names[i], pass+1, got, want)
				}
			}
		}
	}

	roundTrip := scriptBytes(t, &Script{Capacity: 4096, Ops: []Op{
		{Kind: OpField, Name: "custom-key", Value: "custom-value"},
		{Kind: OpEndBlock},
		{Kind: OpField, Name: "custom-key", Value: "custom-value"},
	}})
	tests := []struct {
		label  string
		run    method
		fault  string
		inputs [][]byte // in this order through one checker
	}{
		{"round trip, forget newest entry", (*checker).encodeRoundTrip, "forget newest entry", [][]byte{{0}, roundTrip, {0}, roundTrip}},
		{"round trip, reject everything", (*checker).encodeRoundTrip, "reject everything", [][]byte{roundTrip, {0}, roundTrip}},
		{"differential, alter values", (*checker).decoderDifferential, "alter values", [][]byte{{1, 0x80}, {1, 0x82}, {1, 0x80}, {1, 0x82}}},
		{"differential, accept everything", (*checker).decoderDifferential, "accept everything", [][]byte{{1, 0x82}, {1, 0x80}, {1, 0x82}, {1, 0x80}}},
		{"Huffman, reject everything", (*checker).huffman, "reject everything", [][]byte{[]byte("www.example.com"), []byte("a"), nil}},
		{"integer, reject everything", (*checker).integer, "reject everything", [][]byte{{2, 0, 0, 0x01, 0x00}, {0, 0, 0, 0, 0}}},
	}
	for _, tt := range tests {
		reused := newChecker(faulty("faulty", tt.fault))
		failures := 0
		for i, in := range tt.inputs {
			got, want := verdict(tt.run(reused, in)), verdict(tt.run(newChecker(faulty("faulty", tt.fault)), in))
			if got != want {
				t.Errorf("%s: input %d %x, reused checker: %s; a new checker: %s", tt.label, i+1, in, got, want)
			}
			if want != "<nil>" {
				failures++
			}
		}
		if failures == 0 {
			t.Errorf("%s: the fault made no input fail", tt.label)
		}
	}
}
