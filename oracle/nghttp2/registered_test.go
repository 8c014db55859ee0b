//go:build nghttp2

package nghttp2

import (
	"slices"
	"testing"

	"github.com/hpackcert/hpackcert/oracle"
)

// TestRegistered checks that importing the package registers "nghttp2",
// whose factory makes a *Decoder.
func TestRegistered(t *testing.T) {
	if !slices.Contains(oracle.Names(), "nghttp2") {
		t.Fatalf("oracle.Names() = %q; want it to contain nghttp2", oracle.Names())
	}
	for _, newDecoder := range oracle.Available() {
		d := newDecoder()
		if d.Name() != "nghttp2" {
			continue
		}
		if _, ok := d.(*Decoder); !ok {
			t.Fatalf("factory for nghttp2 returned %T; want *Decoder", d)
		}
		d.(*Decoder).Close()
		return
	}
	t.Fatal("no factory in oracle.Available() makes a decoder named nghttp2")
}
