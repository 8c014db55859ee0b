package qdecoders_test

import (
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify/qdecoders"
	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/source/inprocess"
)

func builtin(t *testing.T, name string) qpack.DecoderTarget {
	t.Helper()
	target, err := inprocess.BuiltinQPACKDecoder(name)
	if err != nil {
		t.Fatal(err)
	}
	return target
}

// TestBuiltinDecoders: the built-in strict decoder passes every case;
// quic-go/qpack is graded without a breakdown, every case it cannot be
// judged on unsupported through its declared lacks, not passed.
func TestBuiltinDecoders(t *testing.T) {
	// libnghttp3's joins them in a build with -tags nghttp3.
	if names := strings.Join(inprocess.BuiltinQPACKDecoderNames(), " "); names != "strict quicgo" && names != "strict nghttp3 quicgo" {
		t.Errorf("built-in QPACK decoders %q", names)
	}
	cases, graded, err := qdecoders.Run([]qpack.DecoderTarget{builtin(t, "strict"), builtin(t, "quicgo")}, qdecoders.Options{TrafficLists: 12})
	if err != nil {
		t.Fatal(err)
	}
	strict, quic := graded[0], graded[1]
	for _, g := range graded {
		if g.Breakdown != "" || g.Kind != "in-process" {
			t.Errorf("%s: kind %s, breakdown %q", g.Name, g.Kind, g.Breakdown)
		}
	}
	if quic.Lacks != "dynamic-table, never-indexed" {
		t.Errorf("quic-go lacks %q", quic.Lacks)
	}
	// What quic-go/qpack can be judged on: sections under settings
	// without a table.
	judged := map[string]qdecoders.Grade{
		"qdec/2.2/1": qdecoders.Pass, "qdec/3.1/1": qdecoders.Pass, "qdec/4.1.2/1": qdecoders.Pass,
		"qdec/4.5.1.1/1": qdecoders.Pass, "qdec/7.3/1": qdecoders.Pass, "qdec/4.1.1/1": qdecoders.Pass,
		// It reads the Delta Base's 7 bits without the sign, and
		// refuses any Base but 0.
		"qdec/4.5.1.2/1": qdecoders.Fail, "qdec/4.5.1.2/2": qdecoders.Fail,
	}
	for _, c := range cases {
		if res := strict.Results[c.ID]; res.Grade != qdecoders.Pass {
			t.Errorf("strict: %s graded %s: %s", c.ID, res.Grade, res.Detail)
		}
		res := quic.Results[c.ID]
		want, ok := judged[c.ID]
		switch {
		case ok && res.Grade != want:
			t.Errorf("quic-go: %s graded %s, want %s: %s", c.ID, res.Grade, want, res.Detail)
		case !ok && res.Grade != qdecoders.Unsupported:
			t.Errorf("quic-go: %s graded %s, want unsupported: %s", c.ID, res.Grade, res.Detail)
		case !ok && !strings.Contains(res.Detail, "lack"):
			t.Errorf("quic-go: %s unsupported without naming the lack: %s", c.ID, res.Detail)
		}
		t.Logf("quic-go %s: %s: %s", c.ID, res.Grade, res.Detail)
	}
}
