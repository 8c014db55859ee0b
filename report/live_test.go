package report_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/report"
)

// liveReport is hostileReport with its hostile encoder captured live:
// payload in the target's version, encoder, address, transport,
// transformation and notes, as a hostile server or a started program's
// output could put it there.
func liveReport(payload string) *certify.Report {
	rep := hostileReport(payload)
	info := rep.Targets[payload]
	info.Kind = "live"
	info.Live = &certify.LiveInfo{
		Version: "1.0 " + payload, Role: "server", Encoder: payload, Where: "https://127.0.0.1/" + payload,
		Transport: "h2c" + payload, Transform: "drops " + payload, Declared: true,
		Blocks: 3, Conns: 1, Notes: []string{"GOAWAY from the peer: " + payload, payload}, Elapsed: time.Second,
	}
	rep.Targets[payload] = info
	rep.LiveSchedule = "schedule " + payload
	return rep
}

// TestLiveHostile checks that what a live target controls reaches no
// report raw: the live sections of the text and Markdown reports hold no
// control character (line breaks aside), no bidirectional
// control and no invalid UTF-8, and the JSON report keeps every string
// of the live section, invalid octets written as \xNN.
func TestLiveHostile(t *testing.T) {
	forEachHostile(t, func(t *testing.T, payload string, _ *certify.Report) {
		rep := liveReport(payload)
		for _, format := range []string{"text", "md"} {
			var buf bytes.Buffer
			if err := report.Write(&buf, format, rep); err != nil {
				t.Fatal(err)
			}
			// The live section comes before the verdict; the rest is
			// checked by the tests of each writer, which keep tabs in
			// multi-line text.
			out, _, found := strings.Cut(buf.String(), map[string]string{"text": "verdict: ", "md": "## hpackcert: "}[format])
			if !found {
				t.Fatalf("%s report has no verdict", format)
			}
			if bad, ok := badRune(out, "\n"); ok {
				t.Errorf("%s report's live section holds %s", format, bad)
			}
			for _, mark := range []string{"schedule ", "GOAWAY from the peer"} {
				if !strings.Contains(out, mark) {
					t.Errorf("%s report lacks the live section's %q", format, mark)
				}
			}
		}
		var buf bytes.Buffer
		if err := report.WriteJSON(&buf, rep); err != nil {
			t.Fatal(err)
		}
		doc, err := report.ReadJSON(&buf)
		if err != nil {
			t.Fatal(err)
		}
		var live int
		for _, e := range doc.Encoders {
			if e.Live == nil {
				continue
			}
			live++
			if !strings.HasPrefix(e.Live.Version, "1.0 ") || len(e.Live.Notes) != 2 {
				t.Errorf("JSON live section = %+v; want the version and both notes", e.Live)
			}
		}
		if live != 1 {
			t.Errorf("JSON report has %d live sections; want 1", live)
		}
	})
}
