package report_test

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/report"
)

// TestWriteJSONHostile checks that the JSON report parses, keeps each
// encoder under its own key, and carries what the encoder wrote without
// loss: exactly when it is valid UTF-8, else with no U+FFFD and each
// invalid octet written \xNN.
func TestWriteJSONHostile(t *testing.T) {
	forEachHostile(t, func(t *testing.T, payload string, rep *certify.Report) {
		var buf bytes.Buffer
		if err := report.WriteJSON(&buf, rep); err != nil {
			t.Fatal(err)
		}
		doc, err := report.ReadJSON(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("JSON report does not read: %v\n%s", err, buf.Bytes())
		}
		if len(doc.Encoders) != len(rep.Encoders) {
			t.Fatalf("%d encoders; want %d", len(doc.Encoders), len(rep.Encoders))
		}
		want := func(what, got, sent string) {
			if utf8.ValidString(sent) {
				if got != sent {
					t.Errorf("%s = %q; want %q", what, got, sent)
				}
				return
			}
			if strings.ContainsRune(got, utf8.RuneError) || !strings.Contains(got, `\xff`) {
				t.Errorf("%s = %q; want the invalid octets of %q as \\xNN", what, got, sent)
			}
		}
		var key string
		for k := range doc.Encoders {
			if k != "ref" && k != "x/net" {
				key = k
			}
		}
		want("encoder name", key, payload)
		want("reported name", doc.Encoders[key].Reported, rep.Targets[payload].Reported)
		if je := doc.Encoders[key]; je.Kind != "stdio" || !je.Binary {
			t.Errorf("kind %q, binary %v; want stdio, true", je.Kind, je.Binary)
		}
		res := rep.Results[payload]["enc/4.2/1"]
		got := doc.Encoders[key].Cases["enc/4.2/1"]
		want("detail", got.Detail, res.Detail)
		want("repro", got.Repro, res.Repro)
		want("stderr", got.Stderr, res.Stderr)
		want("traffic", doc.Traffic, rep.TrafficSource)
		want("breakdown", doc.Encoders[key].Breakdown, rep.Targets[payload].Breakdown)
		if u := doc.Encoders[key].Ungraded; len(u) != 1 || u[0].Case != "enc/2.3.2/2" {
			t.Errorf("ungraded %+v; want enc/2.3.2/2", u)
		} else {
			want("ungraded why", u[0].Why, rep.Results[payload]["enc/2.3.2/2"].Detail)
		}
		if cq := got.Consequences; len(cq) != 2 {
			t.Errorf("consequences %+v; want 2", cq)
		} else {
			want("consequence detail", cq[1].Detail, res.Consequences[1].Detail)
		}
		want("declared", doc.Encoders[key].Cases["enc/6.3/1"].Declared, rep.Results[payload]["enc/6.3/1"].Declared)
		if len(doc.StaleExpectations) != 1 {
			t.Fatalf("stale expectations %q; want one", doc.StaleExpectations)
		}
		want("stale expectation", doc.StaleExpectations[0], payload)
	})
}
