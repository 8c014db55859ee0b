package oracle_test

import (
	"slices"
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
	"github.com/hpackcert/hpackcert/oracle"
)

func TestRegistryAlwaysHasStrictAndXnet(t *testing.T) {
	names := oracle.Names()
	for _, want := range []string{"strict", "x/net"} {
		if !slices.Contains(names, want) {
			t.Errorf("oracle.Names() = %v; want it to contain %q", names, want)
		}
	}
	if !slices.IsSorted(names) {
		t.Errorf("oracle.Names() = %v; want sorted", names)
	}
}

// TestRegistryNghttp2 checks that a binary built with -tags nghttp2 holds
// the nghttp2 oracle, and one built without does not.
func TestRegistryNghttp2(t *testing.T) {
	has := slices.Contains(oracle.Names(), "nghttp2")
	if has != builtWithNghttp2 {
		t.Fatalf("oracle.Names() = %v; built with nghttp2 tag: %v", oracle.Names(), builtWithNghttp2)
	}
	if !builtWithNghttp2 {
		testenv.Missing(t, "built without -tags nghttp2")
	}
}

// TestAvailableMatchesNames checks that each factory makes a decoder of the
// name at the same position, and a fresh one at each call.
func TestAvailableMatchesNames(t *testing.T) {
	names := oracle.Names()
	factories := oracle.Available()
	if len(factories) != len(names) {
		t.Fatalf("got %d factories and %d names", len(factories), len(names))
	}
	// A literal with incremental indexing of a: b (RFC 7541 §6.2.1).
	addEntry := []byte{0x40, 0x01, 'a', 0x01, 'b'}
	for i, newDecoder := range factories {
		first := newDecoder()
		if got := first.Name(); got != names[i] {
			t.Errorf("Available()[%d]().Name() = %q; want %q", i, got, names[i])
		}
		if _, err := first.DecodeBlock(addEntry); err != nil {
			t.Fatalf("%s: %v", names[i], err)
		}
		if got := len(first.Table()); got != 1 {
			t.Errorf("%s: table has %d entries after one insertion; want 1", names[i], got)
		}
		if got := newDecoder().Table(); len(got) != 0 {
			t.Errorf("%s: a second decoder from the factory has table %v; want a fresh, empty one", names[i], got)
		}
	}
}

func TestRegisterDuplicatePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Register of an existing name did not panic")
		}
	}()
	oracle.Register("strict", func() oracle.Decoder { return nil })
}
