package live

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/vectors"
)

// DecoderView declares how a live decoder target shows the fields it
// decoded, and what its role does to them on the way, so that what it
// shows is compared exactly with what the block carries after these
// declared changes and nothing else. A proxy shows them as it relays the
// request to hpackcert's origin; a server hpackcert starts, through its
// app, which echoes the request's fields to the origin (EchoHeader).
type DecoderView struct {
	// How says in a few words how the target shows the fields, for the
	// report ("relays the request to the origin over HTTP/1.1").
	How string
	// OverHTTP1 is set when the fields reach the origin over HTTP/1.1:
	// :scheme is not shown, :authority is shown as host, and the
	// whitespace at a value's ends is not kept (RFC 9112 §5.1).
	OverHTTP1 bool
	// AuthorityAsHost is set when :authority is shown as host among the
	// other fields (as OverHTTP1 does, without its other changes).
	AuthorityAsHost bool
	// Pseudo lists the pseudo-headers the view shows, in the order it
	// shows them, before the other fields; nil shows every pseudo-header
	// where the block has it (an app that sees the raw list). With
	// OverHTTP1, :authority is shown as host among the other fields.
	Pseudo []string
	// ByName is set when the role keeps the order of the fields of one
	// name but not across names (a header map): both lists are then
	// compared sorted by name, stably.
	ByName bool
	// JoinCookies is set when the role joins the cookie fields into one,
	// separated by "; ", as RFC 9113 §8.2.3 has a proxy do for HTTP/1.1.
	JoinCookies bool
	// JoinRepeats is set when the role joins the fields of one name into
	// the first, separated by ", " (RFC 9110 §5.3 lets a proxy): they are
	// compared joined on both sides.
	JoinRepeats bool
	// CookieLast is set when the role writes the joined cookie after the
	// other fields: it is compared there on both sides.
	CookieLast bool
	// Lower is set when the role shows names in any case (HTTP/1.1's
	// names are case-insensitive): shown names are compared in lower
	// case.
	Lower bool
	// Transform is what the role drops (hop-by-hop fields), adds (via,
	// x-forwarded-for) and replaces (host), by the names of the view.
	Transform Transform
}

// EchoHeader is the field in which an app under certification echoes to
// the origin the request it was given: its fields in the order the app
// saw them, each as hex(name)=hex(value), separated by commas, so that
// every octet survives HTTP/1.1. The origin shows such a request as the
// echoed fields, not as the request it is (Origin.ShownSince).
const EchoHeader = "x-hpackcert-echo"

// project returns the fields of sent as v shows them, with, for each, the
// index in sent of the field it stands for (-1 for none).
func (v *DecoderView) project(sent []certify.Field) ([]vectors.Field, []int) {
	var pseudo, regular []vectors.Field
	var pseudoAt, regularAt []int
	for i, f := range sent {
		name := f.Name
		if (v.OverHTTP1 || v.AuthorityAsHost) && name == ":authority" {
			name = "host"
		}
		g := vectors.Field{Name: name, Value: f.Value}
		if v.OverHTTP1 {
			g.Value = strings.Trim(g.Value, " \t")
		}
		if strings.HasPrefix(name, ":") {
			if v.Pseudo != nil || (v.OverHTTP1 && name == ":scheme") {
				continue
			}
			pseudo, pseudoAt = append(pseudo, g), append(pseudoAt, i)
			continue
		}
		regular, regularAt = append(regular, g), append(regularAt, i)
	}
	// The pseudo-headers the view shows, in its order.
	for _, p := range v.Pseudo {
		for i, f := range sent {
			if f.Name == p && !((v.OverHTTP1 || v.AuthorityAsHost) && p == ":authority") {
				pseudo, pseudoAt = append(pseudo, vectors.Field{Name: p, Value: f.Value}), append(pseudoAt, i)
			}
		}
	}
	if v.JoinCookies {
		regular, regularAt = joinCookies(regular, regularAt)
	}
	return append(pseudo, regular...), append(pseudoAt, regularAt...)
}

// joinCookies joins the cookie fields of list into the first, crumb by
// crumb: each value split at ";" and the crumbs, their whitespace
// trimmed, joined with "; " (RFC 9113 §8.2.3 lets an intermediary split
// a cookie into crumbs and join them again).
func joinCookies(list []vectors.Field, at []int) ([]vectors.Field, []int) {
	first := -1
	var crumbs []string
	var out []vectors.Field
	var outAt []int
	for i, f := range list {
		if f.Name != "cookie" {
			out, outAt = append(out, f), append(outAt, at[i])
			continue
		}
		for _, c := range strings.Split(f.Value, ";") {
			if c = strings.Trim(c, " \t"); c != "" {
				crumbs = append(crumbs, c)
			}
		}
		if first < 0 {
			first = len(out)
			out, outAt = append(out, f), append(outAt, at[i])
		}
	}
	if first >= 0 {
		out[first].Value = strings.Join(crumbs, "; ")
	}
	return out, outAt
}

// Compare returns the fields the target decoded as its view shows them:
// sent, the block as the certifier's strict decoder decodes it, when
// shown is what v makes of sent; otherwise sent changed where shown
// departs from it, so that the dec/ cases name the field the target
// decoded otherwise. what says how the view differs, "" when it does not.
func (v *DecoderView) Compare(sent []certify.Field, shown []vectors.Field) (fields []certify.Field, what string) {
	want, at := v.project(sent)
	got := slices.Clone(shown)
	for i := range got {
		// The mark a relay's own encoder set says nothing of the target's
		// decoding (dec/7.1.3/1 is n/a).
		got[i].Sensitive = false
		if v.Lower {
			got[i].Name = strings.ToLower(got[i].Name)
		}
	}
	if v.Pseudo != nil {
		got = v.pseudoFirst(got)
	}
	if v.JoinCookies {
		// A field may come split again (an HTTP/2 client splits cookie
		// for compression, RFC 9113 §8.2.3): the values are compared
		// joined on both sides.
		got, _ = joinCookies(got, make([]int, len(got)))
	}
	want, at = v.transform(want, at, false, nil)
	got, _ = v.transform(got, make([]int, len(got)), true, want)
	if v.JoinRepeats {
		want, at = joinRepeats(want, at)
		got, _ = joinRepeats(got, make([]int, len(got)))
	}
	if v.CookieLast {
		want, at = cookieLast(want, at)
		got, _ = cookieLast(got, make([]int, len(got)))
	}
	if v.ByName {
		want, at = sortByName(want, at)
		got, _ = sortByName(got, make([]int, len(got)))
	}
	fields = slices.Clone(sent)
	for i := 0; i < len(want) || i < len(got); i++ {
		switch {
		case i >= len(got):
			// Left out: the field the target did not show is not decoded.
			return slices.Delete(fields, at[i], at[i]+1), fmt.Sprintf("the target shows %d fields, not %d: %s is missing", len(got), len(want), quoteView(want[i]))
		case i >= len(want):
			return append(fields, certify.Field{Name: got[i].Name, Value: got[i].Value}), fmt.Sprintf("the target shows %d fields, not %d: %s is extra", len(got), len(want), quoteView(got[i]))
		case got[i] != want[i]:
			fields[at[i]] = certify.Field{Name: got[i].Name, Value: got[i].Value, Sensitive: fields[at[i]].Sensitive}
			return fields, fmt.Sprintf("the target shows %s where %s was sent", quoteView(got[i]), quoteView(want[i]))
		}
	}
	return fields, ""
}

// pseudoFirst returns list with the pseudo-headers v shows first, in the
// order of v.Pseudo, and without the others: a role may write them in
// any order, which carries nothing of the decoding.
func (v *DecoderView) pseudoFirst(list []vectors.Field) []vectors.Field {
	var out []vectors.Field
	for _, p := range v.Pseudo {
		for _, f := range list {
			if f.Name == p {
				out = append(out, f)
			}
		}
	}
	for _, f := range list {
		if !strings.HasPrefix(f.Name, ":") {
			out = append(out, f)
		}
	}
	return out
}

// joinRepeats joins the fields of each name but cookie into its first,
// with ", ", and at with them.
func joinRepeats(list []vectors.Field, at []int) ([]vectors.Field, []int) {
	first := map[string]int{}
	var out []vectors.Field
	var outAt []int
	for i, f := range list {
		if j, ok := first[f.Name]; ok && f.Name != "cookie" {
			out[j].Value += ", " + f.Value
			continue
		}
		first[f.Name] = len(out)
		out, outAt = append(out, f), append(outAt, at[i])
	}
	return out, outAt
}

// cookieLast moves the cookie fields of list after the others, and at
// with them.
func cookieLast(list []vectors.Field, at []int) ([]vectors.Field, []int) {
	var out, cookies []vectors.Field
	var outAt, cookiesAt []int
	for i, f := range list {
		if f.Name == "cookie" {
			cookies, cookiesAt = append(cookies, f), append(cookiesAt, at[i])
			continue
		}
		out, outAt = append(out, f), append(outAt, at[i])
	}
	return append(out, cookies...), append(outAt, cookiesAt...)
}

// transform applies v's declared Transform to list: it removes the
// fields dropped (Drop) and replaced (Replace) and, on the side shown
// (shown set, sent the side sent), the fields of a name
// Add allows when sent has none of that name.
func (v *DecoderView) transform(list []vectors.Field, at []int, shown bool, sent []vectors.Field) ([]vectors.Field, []int) {
	t := v.Transform
	var out []vectors.Field
	var outAt []int
	for i, f := range list {
		switch {
		case t.Has(t.Drop, f.Name), t.Has(t.Replace, f.Name), t.DropEmpty && f.Value == "":
			continue
		case shown && t.Has(t.Add, f.Name) && !slices.ContainsFunc(sent, func(g vectors.Field) bool { return g.Name == f.Name }):
			continue
		}
		out, outAt = append(out, f), append(outAt, at[i])
	}
	return out, outAt
}

// sortByName sorts list by name, stably, pseudo-headers first, and at
// with it.
func sortByName(list []vectors.Field, at []int) ([]vectors.Field, []int) {
	idx := make([]int, len(list))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return strings.Compare(list[a].Name, list[b].Name) })
	out, outAt := make([]vectors.Field, len(list)), make([]int, len(list))
	for i, j := range idx {
		out[i], outAt[i] = list[j], at[j]
	}
	return out, outAt
}

func quoteView(f vectors.Field) string {
	return fmt.Sprintf("%q: %q", f.Name, cutView(f.Value))
}

// cutView cuts a value to a readable length for a report.
func cutView(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}
