package hpackstdio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// EncoderLackNames are the lacks an encoder may declare in its answer to
// hello ("lacks": [...]), each a feature its library cannot express, as
// docs/STDIO.md defines them.
var EncoderLackNames = []string{"never-index", "pseudo-first", "one-size-update", "empty-block", "uppercase-names", "empty-name", "grouped-names", "pseudo-order", "token-names", "request-head"}

// DecoderLackNames are the lacks a decoder may declare in its answer to
// hello: "never-indexed", it does not tell a never-indexed literal from
// the others (its decode answers may then leave never_indexed out), and
// "max-header-list", it cannot be given a header-list limit.
var DecoderLackNames = []string{"never-indexed", "max-header-list"}

// Lacks is what an encoder declares in its answer to hello that its
// library cannot express: Names, among EncoderLackNames, each once, and
// Refuses, the octet values it refuses in a name or value (the "refuses"
// member). The protocol gives the lacks no meaning beyond their names:
// the certifier maps them to what it leaves out of its scenarios.
type Lacks struct {
	Names   []string
	Refuses []OctetRange
}

// OctetRange is a range of octet values, Lo to Hi inclusive.
type OctetRange struct{ Lo, Hi byte }

// checkLackNames returns an error naming the first of names that is not
// among known, or is there twice; role names the program in it.
func checkLackNames(role string, names, known []string) error {
	for i, name := range names {
		switch {
		case !slices.Contains(known, name):
			return fmt.Errorf("hpackstdio: the %s lacks name %q, not a lack hpack-stdio/1 defines (%s)", role, name, strings.Join(known, ", "))
		case slices.Contains(names[:i], name):
			return fmt.Errorf("hpackstdio: the %s lacks name %q twice", role, name)
		}
	}
	return nil
}

// helloLacks returns l as the "lacks" and "refuses" members of the
// answer to hello spell it, nil for none.
func helloLacks(l Lacks) ([]string, [][2]int) {
	var refuses [][2]int
	for _, r := range l.Refuses {
		refuses = append(refuses, [2]int{int(r.Lo), int(r.Hi)})
	}
	return slices.Clone(l.Names), refuses
}

// parseLacks returns the lacks an encoder's answer to hello declares in
// its "lacks" and "refuses" members, JSON arrays or nil, or what is
// wrong with them.
func parseLacks(lacksJSON, refusesJSON json.RawMessage) (Lacks, string) {
	var lacks, refuses []json.RawMessage
	json.Unmarshal(lacksJSON, &lacks) // an array or nothing, as checked before
	json.Unmarshal(refusesJSON, &refuses)
	var l Lacks
	for i, raw := range lacks {
		var name string
		if kind := jsonKind(raw); kind != '"' {
			return Lacks{}, fmt.Sprintf(`the "lacks" of the answer to hello has %s at index %d, not a string`, valueKind(kind, false), i)
		}
		json.Unmarshal(raw, &name)
		switch {
		case !slices.Contains(EncoderLackNames, name):
			return Lacks{}, fmt.Sprintf(`the "lacks" of the answer to hello has %s at index %d, not a lack hpack-stdio/1 defines (%s)`,
				quoteName(name), i, strings.Join(EncoderLackNames, ", "))
		case slices.Contains(l.Names, name):
			return Lacks{}, fmt.Sprintf(`the "lacks" of the answer to hello has %q twice`, name)
		}
		l.Names = append(l.Names, name)
	}
	for i, raw := range refuses {
		r, what, why := octetRange(raw)
		if what != "" {
			return Lacks{}, fmt.Sprintf(`the "refuses" of the answer to hello has %s at index %d, %s`, what, i, why)
		}
		l.Refuses = append(l.Refuses, OctetRange{byte(r[0]), byte(r[1])})
	}
	return l, ""
}

// octetRange returns the range raw, an item of "refuses", is, or what it
// is instead and why that is no range.
func octetRange(raw json.RawMessage) (r [2]int, what, why string) {
	const notRange = "not a range [LO, HI] of two integers"
	var items []json.RawMessage
	if kind := jsonKind(raw); kind != '[' {
		return r, valueKind(kind, false), notRange
	}
	json.Unmarshal(raw, &items)
	if len(items) != 2 {
		return r, fmt.Sprintf("an array of %d values", len(items)), notRange
	}
	var texts [2]string
	integers := true
	for j, item := range items {
		if kind := jsonKind(item); kind != '-' && (kind < '0' || kind > '9') {
			return r, "an array with " + valueKind(kind, false), notRange
		}
		texts[j] = string(bytes.TrimSpace(item))
		// Only whether it is an octet matters, so a number past the
		// range of float64 counts as one past 255.
		f, _ := strconv.ParseFloat(texts[j], 64)
		switch {
		case f != math.Trunc(f):
			integers = false
		case f < -1:
			r[j] = -1
		case f > 256:
			r[j] = 256
		default:
			r[j] = int(f)
		}
	}
	shown := "[" + texts[0] + ", " + texts[1] + "]"
	switch {
	case !integers:
		return r, shown, notRange
	case r[0] < 0 || r[1] > 255 || r[0] > r[1]:
		return r, shown, "not two octet values 0-255, the first at most the second"
	}
	return r, "", ""
}

// parseDecoderLacks returns the lacks the "lacks" of a decoder's answer
// to hello declares, a JSON array or nil, or what is wrong with them.
func parseDecoderLacks(raw json.RawMessage) ([]string, *lineError) {
	var list []json.RawMessage
	json.Unmarshal(raw, &list) // an array or nothing, as checked before
	var names []string
	for i, item := range list {
		fail := func(format string, args ...any) ([]string, *lineError) {
			return nil, &lineError{what: fmt.Sprintf(`the "lacks" of the answer to hello has `+format, args...)}
		}
		var name string
		if kind := jsonKind(item); kind != '"' {
			return fail("%s at index %d, not a string", valueKind(kind, false), i)
		}
		json.Unmarshal(item, &name)
		switch {
		case slices.Contains(names, name):
			return fail("%q twice", name)
		case !slices.Contains(DecoderLackNames, name):
			return fail("%s at index %d: unknown decoder lack %q (known: %s)", quoteName(name), i, name, strings.Join(DecoderLackNames, ", "))
		}
		names = append(names, name)
	}
	return names, nil
}
