//go:build nghttp2

package bench

import (
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// TestCompressionVsNghttp2 holds our encoder to issue 7's compression
// target: on the raw-data stories, one fresh context per story, it puts no
// more bytes on the wire than libnghttp2's deflater.
func TestCompressionVsNghttp2(t *testing.T) {
	w, err := Stories(testenv.TestCaseDir(t))
	if err != nil {
		t.Fatal(err)
	}
	table, err := MeasureCompression(w, []Impl{Impls()[0], nghttp2Impl})
	if err != nil {
		t.Fatal(err)
	}
	_, raw, wire := table.Totals()
	ours, nghttp2 := wire[0], wire[1]
	t.Logf("raw %d bytes; ours %d (%.4f); nghttp2 %d (%.4f)",
		raw, ours, float64(ours)/float64(raw), nghttp2, float64(nghttp2)/float64(raw))
	if ours > nghttp2 {
		t.Errorf("ours encodes the raw-data stories to %d bytes (%.4f of raw); want at most nghttp2's %d (%.4f)",
			ours, float64(ours)/float64(raw), nghttp2, float64(nghttp2)/float64(raw))
		for _, r := range table.Rows {
			if r.Wire[0] > r.Wire[1] {
				t.Logf("%s: ours %d bytes, nghttp2 %d", r.Conn, r.Wire[0], r.Wire[1])
			}
		}
	}
}
