package targets

import (
	"errors"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/source/live"
)

// c31 is the request of RFC 7541 C.3.1: GET http://www.example.com/.
var c31 = []byte{0x82, 0x86, 0x84, 0x41, 0x0f, 'w', 'w', 'w', '.', 'e', 'x', 'a', 'm', 'p', 'l', 'e', '.', 'c', 'o', 'm'}

// decoderTarget returns the catalogue's target name as a decoder target,
// closed at the end of the test.
func decoderTarget(t *testing.T, name string, o DecoderOptions) certify.DecoderTarget {
	t.Helper()
	dt, err := DecoderTarget(installedTarget(t, name), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := dt.Close(); err != nil {
			t.Errorf("closing %s: %v", name, err)
		}
	})
	return dt
}

// checkDecoder holds a target to the three verdicts: a valid block
// accepted, index 0 refused with GOAWAY COMPRESSION_ERROR, and the
// target serving a new connection after the refusal.
func checkDecoder(t *testing.T, dt certify.DecoderTarget, wantMemory bool) {
	t.Helper()
	d, err := dt.NewDecoder()
	if err != nil {
		t.Fatal(err)
	}
	if err := d.SetMaxDynamicTableSize(4096); err != nil && !errors.Is(err, certify.ErrSettingUnsupported) {
		t.Errorf("SetMaxDynamicTableSize(4096): %v; want nil or ErrSettingUnsupported", err)
	}
	if _, err := d.DecodeBlock(c31); err != nil {
		t.Fatalf("RFC 7541 C.3.1: %v; want it accepted", err)
	}
	ld := d.(*live.Decoder)
	if ld.LastElapsed() <= 0 {
		t.Errorf("LastElapsed() = %v after a block", ld.LastElapsed())
	}
	if peak, ok := ld.PeakMemory(); ok != wantMemory || (ok && peak <= 0) {
		t.Errorf("PeakMemory() = %d, %v; want known %v", peak, ok, wantMemory)
	}
	if rise, ok := ld.PeakMemoryRise(); ok != wantMemory || rise < 0 {
		t.Errorf("PeakMemoryRise() = %d, %v; want known %v", rise, ok, wantMemory)
	}
	_, err = d.DecodeBlock([]byte{0x80})
	if !certify.Rejected(err) || !strings.Contains(err.Error(), "COMPRESSION_ERROR") {
		t.Errorf("index 0: %v; want a refusal naming COMPRESSION_ERROR", err)
	}
	d, err = dt.NewDecoder()
	if err != nil {
		t.Fatalf("a new connection after the refusal: %v", err)
	}
	if _, err := d.DecodeBlock(c31); err != nil {
		t.Errorf("RFC 7541 C.3.1 after the refusal: %v; want it accepted", err)
	}
}

func TestDecoderGoServer(t *testing.T) {
	checkDecoder(t, decoderTarget(t, "go-server", DecoderOptions{}), false)
}

func TestDecoderNghttpx(t *testing.T) {
	checkDecoder(t, decoderTarget(t, "nghttpx", DecoderOptions{}), true)
}

func TestDecoderNginxOverTLS(t *testing.T) {
	checkDecoder(t, decoderTarget(t, "nginx", DecoderOptions{TLS: true}), true)
}

func TestDecoderTargetsLeaveOutClientsAndRefServer(t *testing.T) {
	got, _ := DecoderTargets(DecoderOptions{})
	for _, dt := range got {
		spec, err := LookupTarget(dt.Name())
		if err != nil {
			t.Fatal(err)
		}
		if spec.Role == live.RoleClient {
			t.Errorf("DecoderTargets holds the client %s", dt.Name())
		}
	}
	for _, dt := range got {
		if dt.Name() == "ref-server" {
			t.Error("DecoderTargets holds ref-server, which answers blocks that do not decode")
		}
	}
	ref, err := LookupTarget("ref-server")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecoderTarget(ref, DecoderOptions{}); err == nil || !strings.Contains(err.Error(), "no decoder target") {
		t.Errorf("DecoderTarget(ref-server): %v; want it refused as no decoder target", err)
	}
	client, err := LookupTarget("go-client")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecoderTarget(client, DecoderOptions{}); err == nil {
		t.Error("DecoderTarget(go-client): no error; a client decodes no request")
	}
}
