package qspec

import (
	"encoding/hex"
	"errors"
	"testing"
)

// checkError fails unless err is an *Error inside the input, naming an
// RFC 9204 section, or (for a stream) ErrIncomplete.
func checkError(t *testing.T, what string, err error, n int, incompleteOK bool) {
	t.Helper()
	if incompleteOK && errors.Is(err, ErrIncomplete) {
		return
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%s: error %v is not an *Error", what, err)
	}
	if e.Section == "" || e.Reason == "" || e.Offset < 0 || e.Offset > n {
		t.Fatalf("%s: %q: want a section, a reason and an offset in [0, %d]", what, err, n)
	}
}

// FuzzWalk reads arbitrary octets as a field section, an encoder stream
// and a decoder stream: the walker must never panic, every error must be
// an *Error naming its section, and every instruction read must move on.
func FuzzWalk(f *testing.F) {
	for _, seed := range []string{
		"0000510b2f696e6465782e68746d6c",
		"03811011",
		"3fbd01c00f7777772e6578616d706c652e636f6d",
		"8441013f01",
		"00002361626381ff",
	} {
		b, _ := hex.DecodeString(seed)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, lines, err := WalkSection(data, 64); err != nil {
			checkError(t, "WalkSection", err, len(data), false)
		} else if len(lines) > len(data) {
			t.Fatalf("%d lines from %d octets", len(lines), len(data))
		}
		readers := map[string]func([]byte, int) (Instruction, int, error){
			"ReadEncoderInstruction": ReadEncoderInstruction,
			"ReadDecoderInstruction": ReadDecoderInstruction,
		}
		for name, read := range readers {
			for p := 0; p < len(data); {
				_, next, err := read(data, p)
				if err != nil {
					checkError(t, name, err, len(data), true)
					if next != p {
						t.Fatalf("%s: error at %d moved the offset to %d", name, p, next)
					}
					break
				}
				if next <= p || next > len(data) {
					t.Fatalf("%s: from %d to %d in %d octets", name, p, next, len(data))
				}
				p = next
			}
		}
	})
}
