package bench

import (
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// TestOursDecodeAllocs asserts that ours allocates nothing on the rows of
// issue 38: a pass of decode-batch and decode-stories (the decoder
// Reset between connections), of hop-stories and
// hop-churn (the encoder Reset per connection), and an operation of
// huffman-decode. ours-new allocates by design (decoder.New per
// connection) and is left out.
func TestOursDecodeAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	const runs = 100
	stories, err := Stories(testenv.TestCaseDir(t))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		run  decodeRun
	}{
		{"decode-batch", newOursDecoding(recordWire(Batch()), false, false)},
		{"decode-stories", newOursDecoding(recordWire(stories), false, false)},
		{"hop-stories", newOursDecoding(recordWire(stories), false, true)},
		{"hop-churn", newOursDecoding(recordWire(Churn()), false, true)},
		{"huffman-decode", huffmanDecodeRuns()[0]},
	}
	for _, c := range cases {
		if c.run.impl != "ours" {
			t.Fatalf("%s: runs %s; want ours", c.name, c.run.impl)
		}
		var err error
		if _, err = c.run.pass(1); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := testing.AllocsPerRun(runs, func() { _, err = c.run.pass(1) }); got != 0 || err != nil {
			t.Errorf("%s: %v allocs per operation (error %v); want 0", c.name, got, err)
		}
	}
}
