package bench

import (
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// TestMeasureDecoderMemory checks what the decoder memory table rests on:
// every decoder holds memory new and at least as much after its story,
// x/net's and nghttp2's more (their tables hold entries), and ours no
// more than new (decoder.New allocates everything it uses).
func TestMeasureDecoderMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes heap sizes")
	}
	w, err := Stories(testenv.TestCaseDir(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, impl := range DecoderMemoryImpls() {
		m, err := MeasureDecoderMemory(w, impl, 8)
		if err != nil {
			t.Fatalf("%s: %v", impl, err)
		}
		if m.New <= 0 || m.Decoded < m.New {
			t.Errorf("%s: %.0f bytes per connection new, %.0f after a story; want 0 < new <= after", impl, m.New, m.Decoded)
		}
		// A few bytes per connection of slack for the runtime's own
		// bookkeeping between the two measures.
		ours := strings.HasPrefix(impl, "ours")
		if ours && m.Decoded > m.New+64 {
			t.Errorf("%s: %.0f bytes per connection new, %.0f after a story; want the same", impl, m.New, m.Decoded)
		}
		if !ours && m.Decoded <= m.New {
			t.Errorf("%s: %.0f bytes per connection new, %.0f after a story; want more after", impl, m.New, m.Decoded)
		}
	}
	if _, err := MeasureDecoderMemory(w, "none", 8); err == nil {
		t.Error("an unknown decoder measured without error")
	}
}
