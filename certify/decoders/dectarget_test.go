package decoders

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestReject checks that Reject makes a decoder's own error a refusal of
// the block, keeps a refusal as it is and nil as nil, and that Rejected
// tells a refusal from a breakdown through wrapping.
func TestReject(t *testing.T) {
	own := errors.New("hpack: invalid indexed representation index 0")
	r := Reject(own)
	if !Rejected(r) || !errors.Is(r, own) {
		t.Errorf("Reject(%v) = %#v; want a *Rejection wrapping the decoder's error", own, r)
	}
	if got, want := r.Error(), "the decoder refused the block: "+own.Error(); got != want {
		t.Errorf("Error() = %q; want %q", got, want)
	}
	if again := Reject(fmt.Errorf("story 2: %w", r)); !errors.Is(again, own) || strings.Count(again.Error(), "refused") != 1 {
		t.Errorf("Reject of a wrapped refusal = %q; want it unchanged", again)
	}
	if Reject(nil) != nil {
		t.Error("Reject(nil) is not nil")
	}
	if Rejected(errors.New("encoder broke hpack-stdio at request 3: no answer")) {
		t.Error("a breakdown counts as a refusal")
	}
	if Rejected(nil) {
		t.Error("nil counts as a refusal")
	}
}

// TestDecoderFunc checks that a Go decoder's constructor that panics or
// returns nil is an error, not a crash of the certifier.
func TestDecoderFunc(t *testing.T) {
	panics := DecoderFunc("p", func() Decoder { panic("no table") })
	if _, err := panics.NewDecoder(); err == nil || !strings.Contains(err.Error(), "panicked: no table") {
		t.Errorf("a panicking constructor: error %v; want one saying it panicked", err)
	}
	null := DecoderFunc("n", func() Decoder { return nil })
	if _, err := null.NewDecoder(); err == nil || !strings.Contains(err.Error(), "returned nil") {
		t.Errorf("a nil constructor: error %v; want one saying it returned nil", err)
	}
	if panics.Name() != "p" || panics.Close() != nil {
		t.Errorf("Name %q, Close %v; want \"p\", nil", panics.Name(), panics.Close())
	}
}
