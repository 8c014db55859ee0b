package live

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestPeerText(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"plain", "nginx/1.22.1", "nginx/1.22.1"},
		{"C0 and DEL", "a\x1b[31mb\a\x00\x7f", `a\x1b[31mb\a\x00\x7f`},
		{"C1 CSI", "x\u009b2J", `x\u009b2J`},
		{"bidirectional override and isolate", "a\u202eb\u2066c\u200f", `a\u202eb\u2066c\u200f`},
		{"line breaks become spaces", "one\ntwo\r\tthree", "one two  three"},
		{"invalid UTF-8", "a\xffb", `a\xffb`},
		{"other non-ASCII kept", "café ü", "café ü"},
	} {
		if got := PeerText(tc.in); got != tc.want {
			t.Errorf("%s: PeerText(%q) = %q; want %q", tc.name, tc.in, got, tc.want)
		}
	}
	long := PeerText(strings.Repeat("\x1b", 4*maxPeerLine))
	if len(long) > maxPeerLine+64 || !strings.HasSuffix(long, "(2048 octets in all)") {
		t.Errorf("PeerText of %d octets: %d octets, ending %q; want it cut near %d octets, with the length", 4*maxPeerLine, len(long), long[len(long)-30:], maxPeerLine)
	}
}

func TestQuotePeer(t *testing.T) {
	if got, want := quotePeer([]byte("\x1b[2J\u202e")), `"\x1b[2J\u202e"`; got != want {
		t.Errorf("quotePeer = %s; want %s", got, want)
	}
	got := quotePeer([]byte(strings.Repeat("a", 1<<20)))
	if len(got) > maxPeerText+40 || !strings.HasSuffix(got, "(1048576 octets in all)") {
		t.Errorf("quotePeer of 1 MiB: %d octets %q...; want it cut to %d octets, with the length", len(got), got[:20], maxPeerText)
	}
}

func TestCleanErr(t *testing.T) {
	err := cleanErr(errors.Join(io.EOF, errors.New("its output ends: \x1b]0;owned\a")))
	if !errors.Is(err, io.EOF) {
		t.Errorf("cleanErr hides the error it wraps")
	}
	if strings.ContainsAny(err.Error(), "\x1b\a\n") {
		t.Errorf("cleanErr text %q holds control characters", err.Error())
	}
	if cleanErr(nil) != nil {
		t.Errorf("cleanErr(nil) is not nil")
	}
}
