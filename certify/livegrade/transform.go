package livegrade

import (
	"fmt"
	"strings"
)

// Transform declares what a target does to the header lists that pass
// through it, so that a block is compared with what the target was meant
// to send. A field name is matched in lower case.
type Transform struct {
	// Drop names the fields the target removes from the lists it relays
	// (hop-by-hop fields, fields it consumes).
	Drop []string
	// Add names the fields the target may add when the list it relays
	// lacks them (date, content-type, a client's user-agent): such a field
	// is expected where and as the target wrote it.
	Add []string
	// Replace names the fields whose values the target sets itself,
	// whatever it was given and whether or not it was given one (server,
	// date, via, accept-ranges): they are expected where and as the
	// target wrote them. ParseTransform reads it as set=.
	Replace []string
	// Why says in a few words why, for the report.
	Why string
	// DropEmpty says the target removes every field whose value is empty
	// (lighttpd does), whatever its name.
	DropEmpty bool
}

// None reports whether t declares nothing the target does to the lists
// (its Why aside).
func (t Transform) None() bool {
	return len(t.Drop)+len(t.Add)+len(t.Replace) == 0 && !t.DropEmpty
}

// Has reports whether list, one of t's lists of names (Drop, Add,
// Replace), holds name, compared without regard to case.
func (t Transform) Has(list []string, name string) bool {
	for _, n := range list {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

// String describes the transformation in one line, as reports show it.
func (t Transform) String() string {
	var parts []string
	for _, p := range []struct {
		verb  string
		names []string
	}{{"drops", t.Drop}, {"adds", t.Add}, {"replaces", t.Replace}} {
		if len(p.names) > 0 {
			parts = append(parts, p.verb+" "+strings.Join(p.names, ", "))
		}
	}
	if t.DropEmpty {
		parts = append(parts, "drops fields with empty values")
	}
	if len(parts) == 0 {
		parts = append(parts, "relays header lists unchanged")
	}
	s := strings.Join(parts, "; ")
	if t.Why != "" {
		s += " (" + t.Why + ")"
	}
	return s
}

// TransformSyntax describes what ParseTransform reads, for the usage of
// the flag that takes it.
const TransformSyntax = "words separated by ';': drop=NAMES (fields the target removes), add=NAMES (fields it adds when the list lacks them), set=NAMES (fields whose values it sets itself, whether or not they were sent; replace= is the same), drop-empty (it removes every field whose value is empty); NAMES are field names separated by ','"

// ParseTransform reads a transformation written in TransformSyntax, such
// as "drop=keep-alive;add=date;set=server,accept-ranges;drop-empty": each
// word at most once, names in any case (they are compared in lower case).
// set fills Replace. An empty string is no transformation. An error names
// the word or the name it cannot take.
func ParseTransform(s string) (Transform, error) {
	var t Transform
	seen := map[string]bool{}
	for _, word := range strings.Split(s, ";") {
		word = strings.TrimSpace(word)
		if word == "" {
			continue
		}
		key, value, hasValue := strings.Cut(word, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		if key == "replace" {
			key = "set"
		}
		bad := func(format string, args ...any) (Transform, error) {
			return Transform{}, fmt.Errorf("transform %q: %s", s, fmt.Sprintf(format, args...))
		}
		switch {
		case key != "drop" && key != "add" && key != "set" && key != "drop-empty":
			return bad("unknown key %q (want drop=NAMES, add=NAMES, set=NAMES or drop-empty)", key)
		case seen[key]:
			return bad("%q: %s given twice (set and replace are one key)", word, key)
		case key == "drop-empty" && hasValue:
			return bad("%q: drop-empty takes no names (it drops every field whose value is empty)", word)
		case key == "drop-empty":
			seen[key], t.DropEmpty = true, true
			continue
		case !hasValue:
			return bad("%q: %s needs names, as %s=NAME,NAME", word, key, key)
		}
		seen[key] = true
		var names []string
		for _, n := range strings.Split(value, ",") {
			n = strings.ToLower(strings.TrimSpace(n))
			if n == "" {
				continue
			}
			if !isFieldName(n) {
				return bad("%q is not a field name (a token of RFC 9110 §5.1, or a pseudo-header such as :status)", n)
			}
			names = append(names, n)
		}
		if len(names) == 0 {
			return bad("%q names no field (want %s=NAME,NAME)", word, key)
		}
		switch key {
		case "drop":
			t.Drop = names
		case "add":
			t.Add = names
		case "set":
			t.Replace = names
		}
	}
	return t, nil
}

// isFieldName reports whether n is a field name as a target writes it: a
// token (RFC 9110 §5.6.2), after a ':' for a pseudo-header.
func isFieldName(n string) bool {
	n = strings.TrimPrefix(n, ":")
	if n == "" {
		return false
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9', strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}
