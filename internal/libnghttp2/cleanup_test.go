//go:build nghttp2

package libnghttp2

import (
	"runtime"
	"testing"
	"time"
)

// TestCleanupFreesDropped drops a Deflater and an Inflater, each after a
// block, without Close, and waits for the garbage collector's cleanup to
// give their C memory back.
func TestCleanupFreesDropped(t *testing.T) {
	for _, tt := range []struct {
		name string
		use  func() (any, error) // makes one and uses it
	}{
		{"Deflater", func() (any, error) {
			d := NewDeflater(4096)
			_, err := d.EncodeBlock(nil, []Field{{Name: "x-a", Value: "1"}})
			return d, err
		}},
		{"Inflater", func() (any, error) {
			d := NewInflater()
			_, err := d.DecodeBlock(mustHex(t, "40 01 61 01 62"))
			return d, err
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			start := liveCBytes()
			func() {
				held, err := tt.use()
				if err != nil {
					t.Fatal(err)
				}
				if liveCBytes() <= start {
					t.Fatalf("no counted C memory held: %d live bytes, %d before", liveCBytes(), start)
				}
				runtime.KeepAlive(held)
			}()
			// The cleanup runs after some collection, whenever that is:
			// the test waits for it without a deadline of its own, and a
			// cleanup that never comes is left to the test binary's
			// -timeout.
			for liveCBytes() != start {
				runtime.GC()
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}
