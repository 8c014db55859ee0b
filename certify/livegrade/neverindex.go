package livegrade

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// NeverIndexPolicy is the fields an HPACK library sends never-indexed by
// itself (RFC 7541 §7.1.3 leaves the choice to the encoder): every field of
// Names, and cookie fields whose value is shorter than ShortCookie octets
// when ShortCookie is above 0; with StaticFirst, not a field equal to a
// static entry (authorization, cookie and set-cookie with empty values are
// entries 23, 32 and 55), which the library sends by its index. Why says
// where the library does so. The libraries' policies are entries of the
// catalogue (source/live/targets).
type NeverIndexPolicy struct {
	Names       []string
	ShortCookie int
	StaticFirst bool
	Why         string
}

// Covers reports whether the policy sends the field never-indexed.
func (p *NeverIndexPolicy) Covers(name, value string) bool {
	if p.StaticFirst && slices.Contains(spec.StaticTable[:], spec.Field{Name: name, Value: value}) {
		return false
	}
	if slices.Contains(p.Names, name) {
		return true
	}
	return p.ShortCookie > 0 && name == "cookie" && len(value) < p.ShortCookie
}

// String describes the policy for a report's notes.
func (p *NeverIndexPolicy) String() string {
	s := strings.Join(p.Names, ", ")
	if p.ShortCookie > 0 {
		s += fmt.Sprintf(" and cookies under %d octets", p.ShortCookie)
	}
	if p.StaticFirst {
		s += ", but for fields equal to a static entry"
	}
	return s + " (" + p.Why + ")"
}
