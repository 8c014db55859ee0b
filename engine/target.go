package engine

import (
	"fmt"
	"slices"
)

// What a target (or, on the decoder side, one of its decoding contexts)
// can say of itself beyond what its side asks, through small interfaces
// rather than by its concrete type, so that a source of another package
// declares it.
type (
	// InProcess marks targets that run in this process: their
	// allocations can be counted, and they are graded alone.
	InProcess interface{ InProcess() }

	// Live marks targets driven over a live HTTP/2 connection (a server
	// or proxy hpackcert talks to): a decoder then is held to RFC 9113
	// as well as RFC 7541.
	Live interface{ Live() }

	// StderrTail is implemented by targets whose diagnostics are
	// captured: StderrTail returns the end of what they wrote since the
	// last restart, for the report.
	StderrTail interface{ StderrTail() string }

	// Breakdowner is implemented by targets whose source knows of a
	// breakdown as a whole (a program that broke the protocol at hello, a
	// live target that stopped early): Breakdown returns it, nil for
	// none.
	Breakdowner interface{ Breakdown() error }
)

// KindOf says how a target is driven, from its markers: "in-process"
// (InProcess), "live" (Live) or, for any other, "stdio" (a program
// driven out of process).
func KindOf(t any) string {
	switch t.(type) {
	case InProcess:
		return "in-process"
	case Live:
		return "live"
	}
	return "stdio"
}

// TailOf returns the first non-empty stderr tail of xs, each asked
// through StderrTail (a decoding context, then its target), "" when none
// has one.
func TailOf(xs ...any) string {
	for _, x := range xs {
		if s, ok := x.(StderrTail); ok {
			if tail := s.StderrTail(); tail != "" {
				return tail
			}
		}
	}
	return ""
}

// SourceBreakdown returns the breakdown t's source describes (Breakdowner),
// nil for none.
func SourceBreakdown(t any) error {
	if b, ok := t.(Breakdowner); ok {
		return b.Breakdown()
	}
	return nil
}

// UniqueName returns name, or "name #2", "name #3"... when taken already
// holds it: two targets of one run under one name (the same program
// twice, two versions reporting one name) are both graded, apart.
func UniqueName(taken []string, name string) string {
	out := name
	for i := 2; slices.Contains(taken, out); i++ {
		out = fmt.Sprintf("%s #%d", name, i)
	}
	return out
}

// Names returns the names of a run's targets, of either side, in order.
func Names[T interface{ Name() string }](targets []T) []string {
	names := make([]string, len(targets))
	for i, t := range targets {
		names[i] = t.Name()
	}
	return names
}
