package live

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hpackcert/hpackcert/vectors"
)

// The lists of this file drive a peer's encoder through what the cases
// judge and the coverage line counts: every octet a field value may
// carry, Huffman-coded; the static table's entries and names; string
// lengths and indices at the integer boundaries of §5.1; a dynamic table
// filled past its size by insertions, and fields larger than it.

// obsText returns n octets of obs-text (0x80-0xff) from start on, in
// turn; their Huffman codes are 19 to 26 bits long, so a coder that
// chooses the shorter form writes such a value raw, its length on the
// wire the value's.
func obsText(start, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(0x80 + (start+i)%0x80)
	}
	return string(b)
}

// longCodeText returns n visible octets whose Huffman codes are 11 to 14
// bits long, in turn: a coder that chooses the shorter form writes such a
// value raw, its length on the wire the value's, and every target passes
// them (some refuse obs-text, gRPC metadata is printable ASCII).
func longCodeText(n int) string {
	const codes = "#$@^~|"
	b := make([]byte, n)
	for i := range b {
		b[i] = codes[i%len(codes)]
	}
	return string(b)
}

// huffmanText returns a value of 'a's (a 5-bit code) whose Huffman
// coding is exactly n octets, shorter than the value itself, so that a
// coder that chooses the shorter form writes n on the wire: 8n/5 codes,
// rounded down, leave less than an octet of padding.
func huffmanText(n int) string { return strings.Repeat("a", 8*n/5) }

// spreadOctets returns fields that carry, between them, HTAB and every
// octet from 0x20 to 0x7e and from 0x80 to 0xff inside enough five-bit
// letters that their Huffman coding is shorter than the raw value: a
// coder that Huffman-codes when it saves octets codes each of them.
func spreadOctets(prefix string) []vectors.Field {
	var out []vectors.Field
	add := func(octets string) {
		// Eight letters of five bits a long code save the coding 24 bits,
		// more than the 18 a 26-bit code costs above its octet.
		v := "v" + strings.Repeat("aeiotsc0", len(octets)) + octets + "z"
		out = append(out, vectors.Field{Name: fmt.Sprintf("%s-%02d", prefix, len(out)), Value: v})
	}
	var visible strings.Builder
	for b := 0x20; b <= 0x7e; b++ {
		visible.WriteByte(byte(b))
	}
	add(visible.String()[:48])
	add(visible.String()[48:])
	add("a\tb\tc")
	for b := 0x80; b <= 0xff; b += 8 {
		add(obsText(b-0x80, 8))
	}
	return out
}

// responseStatics are the static table's names (RFC 7541 Appendix A) an
// origin's response can carry over HTTP/1.1, with a value each; the
// pseudo-header fields, content-length (the origin's own), and
// host, transfer-encoding, proxy-authenticate and proxy-authorization
// (which proxies consume, hop by hop: nghttpx drops host, Go's proxy the
// proxy-* fields) are not among them.
var responseStatics = []string{
	"accept-charset", "utf-8", "accept-encoding", "gzip, deflate", "accept-language", "en",
	"accept-ranges", "bytes", "accept", "text/html", "access-control-allow-origin", "*",
	"age", "30", "allow", "GET, HEAD", "authorization", "Basic aHBhY2s6Y2VydA==",
	"cache-control", "no-cache", "content-disposition", "inline", "content-language", "en",
	"content-location", "/hpackcert/here", "content-range", "bytes 0-63/64",
	"content-type", "text/plain", "cookie", "sid=31d4", "date", "Wed, 02 Dec 2026 02:00:00 GMT",
	"etag", `"hpackcert"`, "expect", "100-continue", "expires", "Thu, 01 Jan 2027 00:00:00 GMT",
	"from", "hpackcert@example.com", "if-match", `"a"`,
	"if-modified-since", "Tue, 01 Dec 2026 00:00:00 GMT", "if-none-match", `"b"`,
	"if-range", `"c"`, "if-unmodified-since", "Tue, 01 Dec 2026 00:00:00 GMT",
	"last-modified", "Tue, 01 Dec 2026 00:00:00 GMT", "link", "</style.css>; rel=preload",
	"location", "https://example.com/hpackcert/", "max-forwards", "10",
	"range", "bytes=0-", "referer", "https://example.com/", "refresh", "5",
	"retry-after", "120", "server", "hpackcert-origin", "set-cookie", "k=v; Path=/",
	"strict-transport-security", "max-age=31536000", "user-agent", "hpackcert",
	"vary", "accept-encoding", "via", "1.1 hpackcert", "www-authenticate", `Basic realm="hpackcert"`,
}

// staticNames returns the fields of responseStatics with their values,
// or with empty ones (the static table's entries 15 to 61 are names with
// empty values).
func staticNames(empty bool) []vectors.Field {
	out := []vectors.Field{{Name: ":status", Value: "200"}}
	for i := 0; i < len(responseStatics); i += 2 {
		name, v := responseStatics[i], responseStatics[i+1]
		if empty {
			if strings.HasPrefix(name, "content-") || name == "link" {
				// A proxy acts on the body's fields and on link (h2o's
				// preload): empty, it drops them.
				continue
			}
			v = ""
		}
		out = append(out, vectors.Field{Name: name, Value: v})
	}
	return out
}

// The string lengths at the continuation-octet transitions of a 7-bit
// prefix (§5.1), as the coverage line lists them: 2^7-1 (the first with a
// continuation octet), 2^7-1+127 and 2^7-1+128 (one octet to two), and
// 2^7-1+2^14-1 and 2^7-1+2^14 (two to three).
var (
	shortBoundaries = []int{127, 127 + 127, 127 + 128}
	longBoundaries  = []int{127 + 1<<14 - 1, 127 + 1<<14}
)

// boundaryLengths returns fields whose strings are, on the wire, of the
// given lengths, raw (longCodeText) and Huffman-coded (huffmanText).
func boundaryLengths(lengths ...int) []vectors.Field {
	out := []vectors.Field{{Name: ":status", Value: "200"}}
	for _, n := range lengths {
		out = append(out,
			vectors.Field{Name: fmt.Sprintf("x-len-raw-%d", n), Value: longCodeText(n)},
			vectors.Field{Name: fmt.Sprintf("x-len-huff-%d", n), Value: huffmanText(n)})
	}
	return out
}

// smallFields returns n short distinct fields: over 4096 octets of them
// fill the table, and sent again they are referenced at indices up to 151,
// past 127 (the 7-bit prefix's first transition), while they are still in
// it.
func smallFields(tag string, n int) []vectors.Field {
	out := []vectors.Field{{Name: ":status", Value: "200"}}
	for i := range n {
		out = append(out, vectors.Field{Name: fmt.Sprintf("x-%s%03d", tag, i), Value: "1"})
	}
	return out
}

// nameReuse returns a list that refers to names inserted just before,
// at dynamic indices 62, 63 and 64 (the 6-bit prefix's transitions), with
// new values.
func nameReuse() []vectors.Field {
	return fields(":status", "200",
		"x-name-a", "1", "x-name-a", "2",
		"x-name-b", "1", "x-name-c", "1", "x-name-b", "2",
		"x-name-d", "1", "x-name-e", "1", "x-name-f", "1", "x-name-d", "2")
}

// deepNames returns 90 small fields, then, in the same list, two fields
// over the table's 4096 octets named after the 10th and the 9th of them:
// once the 90 are inserted in order, those names are at dynamic indices
// 142 and 143, and an encoder that writes a field it cannot index as a
// literal without indexing that refers to its name (§6.2.2) writes the 4-bit
// prefix's transitions 2^4-1+127 and 2^4-1+128 (§5.1). Fields the target
// adds before or after the list move neither index.
func deepNames() []vectors.Field {
	out := smallFields("d", 90)
	return append(out,
		vectors.Field{Name: "x-d009", Value: filler("g", 4070)},
		vectors.Field{Name: "x-d008", Value: filler("h", 4070)})
}

// churn returns n distinct fields of about 100 octets each, tagged so
// that two lists never share one: past 40 of them, a table of 4096
// octets evicts by insertion.
func churn(tag string, n int) []vectors.Field {
	out := []vectors.Field{{Name: ":status", Value: "200"}}
	for i := range n {
		out = append(out, vectors.Field{Name: fmt.Sprintf("x-churn-%s-%02d", tag, i), Value: filler(fmt.Sprintf("%s%02d-", tag, i), 60)})
	}
	return out
}

// exerciseResponses are the lists of the exercise connection, which
// drive a server's or proxy's encoder through every case and coverage
// item a response can reach. The connection changes no setting, so that
// an encoder that mishandles a lower one (h2o) is graded on the rest; the
// small fields come first, into an empty table.
func exerciseResponses() []labelled {
	octets := append(fields(":status", "200"), spreadOctets("x-octet")...)
	out := []labelled{
		{"90 small fields", smallFields("s", 90)},
		{"the 90 small fields again", smallFields("s", 90)},
	}
	// Three groups of 30 more, each twice: an encoder that, once its
	// history of fields is full, indexes only a field its history holds
	// (ls-hpack indexed 40 of the 90) indexes each group the second
	// time, and the third fills its table past 4096, evicting by
	// insertion (enc/4.4/1).
	for _, tag := range []string{"t", "u", "v"} {
		group := smallFields(tag, 30)
		out = append(out, labelled{"30 small fields " + tag, group}, labelled{"the 30 small fields " + tag + " again", group})
	}
	out = append(out, []labelled{
		{"names at dynamic indices 62-64", nameReuse()},
		{"every field octet, Huffman-coded", octets},
		{"static names with values", staticNames(false)},
		{"static names with empty values", staticNames(true)},
		{"no content", fields(":status", "204", "x-hpackcert", "204")},
		{"partial content", fields(":status", "206", "content-range", "bytes 0-63/64")},
		{"not modified", fields(":status", "304", "etag", `"hpackcert"`)},
		{"bad request", fields(":status", "400", "content-type", "text/plain")},
		{"not found", fields(":status", "404", "content-type", "text/plain")},
		{"server error", fields(":status", "500", "content-type", "text/plain")},
		{"string lengths at 127, 254, 255", boundaryLengths(shortBoundaries...)},
		// The second on a static name: a literal without indexing that
		// refers to it writes 15, the 4-bit prefix's first transition.
		{"fields over 4096 octets", fields(":status", "200", "x-giant-e", filler("e", 4100), "accept-charset", filler("c", 4100))},
		{"60 fields evicting by insertion", churn("a", 60)},
		{"60 other fields evicting by insertion", churn("b", 60)},
		{"the first 60 again", churn("a", 60)},
		{"every field octet again", octets},
		{"static names again", staticNames(false)},
	}...)
	// Last, responses of a content-type each, which an encoder that
	// indexes only the fields it writes itself (nginx: server, date,
	// content-type, content-length) also inserts: with the steps above,
	// more than 4096 octets of those, so that its table fills and an
	// insertion evicts (enc/4.4/1) on a connection that changes no
	// setting.
	for i := range 12 {
		out = append(out, labelled{fmt.Sprintf("own fields %02d", i), fields(":status", "200", "content-type", fmt.Sprintf("text/x-hpackcert-%02d", i))})
	}
	// After the rest, since its 90 insertions would change what the
	// steps above find in the table.
	return append(out, labelled{"names at dynamic indices 142-143, not indexed", deepNames()})
}

// sizeResponses are the lists of the sizes connection: the same few
// fields, and one new each time, so that every setting finds entries to
// evict or to keep.
func sizeResponses() []labelled {
	out := make([]labelled, len(sizeChanges)+1)
	for i := range out {
		out[i] = labelled{fmt.Sprintf("sizes %d", i), fields(":status", "200", "cache-control", "private", "x-size-step", strconv.Itoa(i))}
	}
	return out
}

// WithoutOver returns a copy of sc without the steps whose response list
// is larger than limit octets (names and values, and 32 octets a field),
// and how many it left out: for a target that cannot send a block that
// large (its finding), graded on the rest. Connections keep their names,
// so that they are compared with the same connections elsewhere.
func (sc *Script) WithoutOver(limit int) (*Script, int) {
	out := &Script{}
	dropped := 0
	for _, c := range sc.Conns {
		kept := c
		kept.Steps = nil
		for _, st := range c.Steps {
			size := 0
			for _, f := range st.Response {
				size += int(f.Size())
			}
			if size <= limit {
				kept.Steps = append(kept.Steps, st)
			} else {
				dropped++
			}
		}
		out.Conns = append(out.Conns, kept)
	}
	return out, dropped
}

// WithLarge returns a copy of sc with one more connection, last: a
// response whose strings are of 16510 and 16511 octets on the wire, raw
// and Huffman-coded (the 7-bit prefix's transition from two continuation
// octets to three). It is last because a proxy that refuses it stops
// the target; the targets that do are certified without it.
func (sc *Script) WithLarge() *Script {
	out := &Script{Conns: sc.Conns[:len(sc.Conns):len(sc.Conns)]}
	out.addSettings("large", []labelled{{"string lengths at 16510, 16511", boundaryLengths(longBoundaries...)}}, nil)
	return out
}

// startAtZeroResponses are the lists of the connection that starts at a
// SETTINGS_HEADER_TABLE_SIZE of 0: its first block must start with a size
// update to 0 (RFC 7541 §4.2) and nothing may be indexed until the
// setting rises again.
func startAtZeroResponses() []labelled {
	zero := fields(":status", "200", "x-hpackcert", "zero", "cache-control", "private")
	return []labelled{
		{"at size 0", zero},
		{"still at size 0", zero},
		{"after the rise to 4096", churn("z", 50)},
		{"the same again", churn("z", 50)},
	}
}

// startAtZeroSettings are the settings before each step of
// startAtZeroResponses, after the first SETTINGS frame's 0.
var startAtZeroSettings = [][]uint32{nil, nil, {4096}, nil}

// ClientHeaders returns the fields a client target is told to add to
// every request (a client command line's -H options, the Go client's
// header). Since a client sends them all on every request, in the same
// order, fields of more than a table's 4096 octets would evict each other
// before each is referenced again; so the fields an encoder indexes fit
// in 4096 octets, and a lower setting (2048 in Schedule) makes the next
// request evict by insertion. Besides name's own field, credentials and a
// cookie, they are: the static names a request may carry, raw strings of
// 127, 254 and 255 octets, names reused at dynamic indices 62 to 64,
// and enough small fields that over 66 entries are in the table (indices
// past 128), with one field of every field octet, Huffman-coded, larger
// than the table, which no encoder indexes. large adds strings of 16510
// and 16511 octets on the wire, raw and Huffman-coded, for a client that
// takes them other than on a command line.
func ClientHeaders(name string, large bool) []vectors.Field {
	out := fields("x-hpackcert", name, "authorization", "Basic aHBhY2s6Y2VydA==", "cookie", "sid=31d4")
	out = append(out, fields(
		"accept-charset", "utf-8", "accept-encoding", "gzip, deflate", "accept-language", "en", "cache-control", "no-cache",
		"if-match", `"a"`, "if-none-match", `"b"`, "if-modified-since", "Tue, 01 Dec 2026 00:00:00 GMT",
		"if-unmodified-since", "Tue, 01 Dec 2026 00:00:00 GMT", "if-range", `"c"`, "range", "bytes=0-",
		"referer", "https://example.com/", "from", "hpackcert@example.com", "max-forwards", "10",
		"proxy-authorization", "Basic cHJveHk6cGFzcw==", "via", "1.1 hpackcert", "date", "Wed, 02 Dec 2026 02:00:00 GMT",
		"content-type", "text/plain", "link", "</a>; rel=preload", "forwarded", "for=127.0.0.1")...)
	// Raw strings only: the Huffman-coded ones would take room in the
	// table that the small fields need.
	for _, n := range shortBoundaries {
		out = append(out, vectors.Field{Name: fmt.Sprintf("x-len-raw-%d", n), Value: longCodeText(n)})
	}
	out = append(out, nameReuse()[1:]...)
	indexed := 0
	for _, f := range out {
		indexed += len(f.Name) + len(f.Value) + 32
	}
	for i := 0; indexed+len("x-c000")+1+32 <= clientIndexed; i++ {
		f := vectors.Field{Name: fmt.Sprintf("x-c%03d", i), Value: "1"}
		out = append(out, f)
		indexed += len(f.Name) + len(f.Value) + 32
	}
	var octets strings.Builder
	for _, f := range spreadOctets("x") {
		octets.WriteString(f.Value)
	}
	for octets.Len() < 4200 {
		octets.WriteString("aeiotsc0")
	}
	out = append(out, vectors.Field{Name: "x-octets", Value: octets.String()})
	if large {
		out = append(out, boundaryLengths(longBoundaries...)[1:]...)
	}
	return out
}

// clientIndexed bounds the octets of the fields of ClientHeaders that an
// encoder indexes: above the 2048 of Schedule, and under the table's 4096
// with room for the fields a client adds (:authority, user-agent,
// accept).
const clientIndexed = 3800

// GeneratedClientHeaders returns the fields a client target is told to
// add to every request of its generated run (ClientRun.Generated): the
// lists of the targeted connection that servers and proxies answer
// (targetedResponses) as request fields, after "x-hpackcert" with name.
// They are a baseline, fields repeated in one list (set-cookie, vary,
// x-dup), credentials and cookies (their sensitive marks kept: a client
// that marks fields by name sends those never-indexed, and the capture of
// any other expects them as any field), fields of 4100 and 3500 octets, every
// octet of an HTTP/1.1 value, and 48 fields of 131 octets that evict
// each other inside one block; each list's fields come once, in order,
// without ":status", and a name an earlier list gave is not given again
// (a client may take one value of content-type or location). large adds
// the field of 30000 octets, past one frame, for a client that takes
// fields other than on a command line.
func GeneratedClientHeaders(name string, large bool) []vectors.Field {
	out := fields("x-hpackcert", name)
	given := map[string]bool{"x-hpackcert": true}
	seen := map[string]bool{}
	for _, l := range targetedResponses() {
		key := fmt.Sprint(l.fields)
		if seen[key] {
			continue
		}
		seen[key] = true
		here := map[string]bool{}
		for _, f := range l.fields {
			if strings.HasPrefix(f.Name, ":") || (given[f.Name] && !here[f.Name]) {
				continue
			}
			if !large && len(f.Value) > 16<<10 {
				continue
			}
			here[f.Name], given[f.Name] = true, true
			out = append(out, vectors.Field{Name: f.Name, Value: f.Value, Sensitive: f.Sensitive})
		}
	}
	return out
}
