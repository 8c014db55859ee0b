package fuzz

import (
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/oracle"
	"github.com/hpackcert/hpackcert/oracle/strict"
	"github.com/hpackcert/hpackcert/vectors"
)

// alteredDecoder is a registered oracle whose decoded values are all
// changed, to show that the differential judges it.
type alteredDecoder struct{ oracle.Decoder }

func (d alteredDecoder) DecodeBlock(block []byte) ([]oracle.Field, error) {
	fields, err := d.Decoder.DecodeBlock(block)
	for i := range fields {
		fields[i].Value += "!"
	}
	return fields, err
}

// TestDifferentialJudgesEveryOracle checks that the decoder differential
// (the native target, go-fuzz's and the OSS-Fuzz binaries, which
// all take the oracles registered by oracle/all) compares every
// registered oracle but strict with strict, with no leniency excusing a
// wrong field: each in turn, its values altered, must fail the RFC 7541
// C.3 session, named. An oracle registered later, such as the reference
// decoder's, joins the differential by joining oracle/all, and this test
// with it.
func TestDifferentialJudgesEveryOracle(t *testing.T) {
	var session Session
	for _, seq := range vectors.RFCAppendixC() {
		if seq.Section == "C.3" {
			for _, step := range seq.Steps {
				session.Steps = append(session.Steps, Step{Block: step.Wire})
			}
		}
	}
	data, err := session.Bytes()
	if err != nil || len(session.Steps) == 0 {
		t.Fatalf("RFC 7541 C.3 session: %d blocks, %v", len(session.Steps), err)
	}
	if err := CheckDecoderDifferential(data, oracle.Available()); err != nil {
		t.Fatalf("the registered oracles disagree on RFC 7541 C.3: %v", err)
	}
	judged := 0
	for i, name := range oracle.Names() {
		if name == strict.Name {
			continue
		}
		factories := oracle.Available()
		orig := factories[i]
		factories[i] = func() oracle.Decoder { return alteredDecoder{orig()} }
		err := CheckDecoderDifferential(data, factories)
		if err == nil || !strings.Contains(err.Error(), name+" and strict disagree") {
			t.Errorf("oracle %s with its values altered: the differential says %v; want a disagreement naming it", name, err)
		}
		judged++
	}
	t.Logf("the differential judges %d oracles against strict: %v", judged, oracle.Names())
	if judged == 0 {
		t.Error("no oracle but strict is registered; the differential judges nothing")
	}
}
