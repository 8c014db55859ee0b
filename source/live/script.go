package live

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"strconv"
	"strings"

	"github.com/hpackcert/hpackcert/vectors"
)

// Step is one request of a script: settings changes, each acknowledged,
// then one request, whose response the origin takes from the step.
type Step struct {
	// Label names the step in reports, such as "story_23 block 4".
	Label string
	// Settings are the SETTINGS_HEADER_TABLE_SIZE values hpackcert sends
	// before the request, one SETTINGS frame each (all in one with
	// ServerOptions.SettingsInOneFrame); the request waits until
	// the peer has acknowledged every one.
	Settings []uint32
	// Response is the header list the origin answers with, ":status"
	// first, as the script gives it; Origin sends what OriginResponse
	// makes of it.
	Response []vectors.Field
}

// ScriptConn is the steps of one connection, in order.
type ScriptConn struct {
	Name  string
	Steps []Step
	// StartsAtZero puts SETTINGS_HEADER_TABLE_SIZE = 0 in the connection's
	// first SETTINGS frame, so that its first block already follows a
	// setting of 0 (a new connection that goes on after a graceful GOAWAY
	// starts at the default).
	StartsAtZero bool
	// Traffic is set on a connection that plays a story of real traffic
	// (the embedded raw-data); the others play lists built for the cases,
	// graded as generated stories (transcript.Story.Generated).
	Traffic bool
	// ReplayOf names the connection this one plays again, step for step
	// with the same settings and responses, from a fresh context: the
	// target's two recordings of the same input (transcript.Story.ReplayOf).
	// When it is the connection just before, CaptureServer plays the two
	// at once, in lockstep: each step of this one right after the same
	// step of that one, so that what the target adds of its own (a date,
	// an age) is most likely the same on both.
	ReplayOf string
}

// Script is what one certification asks of a target: connections, one
// after the other (a connection and its replay side by side), each a
// sequence of steps.
type Script struct {
	Conns []ScriptConn
}

// pathPrefix begins the path of every request of a script.
const pathPrefix = "/hpackcert/"

// Path returns the request path of step s of connection c,
// "/hpackcert/C/S".
func Path(c, s int) string { return fmt.Sprintf("%s%d/%d", pathPrefix, c, s) }

// Lookup returns the step a request path names, or false.
func (sc *Script) Lookup(path string) (*Step, bool) {
	rest, ok := strings.CutPrefix(path, pathPrefix)
	if !ok {
		return nil, false
	}
	cs, ss, ok := strings.Cut(rest, "/")
	if !ok {
		return nil, false
	}
	c, err1 := strconv.Atoi(cs)
	s, err2 := strconv.Atoi(ss)
	if err1 != nil || err2 != nil || c < 0 || c >= len(sc.Conns) || s < 0 || s >= len(sc.Conns[c].Steps) {
		return nil, false
	}
	return &sc.Conns[c].Steps[s], true
}

// Steps returns the number of steps of the script.
func (sc *Script) Steps() int {
	n := 0
	for _, c := range sc.Conns {
		n += len(c.Steps)
	}
	return n
}

// scheduleChanges are the settings changes of Schedule, in order.
var scheduleChanges = [...][]uint32{
	{0},              // down to 0: nothing may be indexed, references must stop
	{4096},           // back up
	{1024, 4096},     // down then up: the smallest must be signalled (§4.2)
	{2048},           // below the table's size: entries are evicted
	{512, 8192},      // down, then above 4096
	{16384},          // above 4096: the encoder may keep its size
	{256, 100, 4096}, // three changes, the smallest in the middle
	{0, 1024, 4096},  // three changes, the smallest first: two updates suffice
}

// sizeChanges are the settings changes of the sizes connection, one per
// request from the second, and of a client's requests after
// scheduleChanges: one equal to the current size, then, each lower than
// the last so that the update is due, the values at the continuation-octet
// transitions of a size update's 5-bit prefix (§5.1) the coverage line
// lists below 4096: 2^5-1+128, 2^5-1+127 and 2^5-1.
var sizeChanges = [...][]uint32{
	{4096},     // equal to the current size: an update is allowed, not needed
	{159},      // 31+128: two continuation octets
	{158},      // 31+127: the largest with one
	{31},       // below the smallest entry: the first with a continuation octet
	{30, 4096}, // down and up before one block
}

// clientChanges are the settings changes of ClientSchedule.
var clientChanges = append(scheduleChanges[:len(scheduleChanges):len(scheduleChanges)], sizeChanges[:]...)

// Schedule returns the SETTINGS_HEADER_TABLE_SIZE values sent before
// request i of n on one connection: none before the first, then each
// change of the schedule once, spread evenly over the requests (every
// request from the second carries one when n is 9 or less).
func Schedule(i, n int) []uint32 { return spread(scheduleChanges[:], i, n) }

// ClientSchedule is Schedule for a client's requests, which also go
// through the changes of the sizes connection: every request from the
// second carries one when n is DefaultRequests or less.
func ClientSchedule(i, n int) []uint32 { return spread(clientChanges, i, n) }

// spread returns the changes sent before request i of n: none before the
// first, then each of changes once, spread evenly over the requests.
func spread(changes [][]uint32, i, n int) []uint32 {
	if i <= 0 || i >= n {
		return nil
	}
	k := len(changes)
	if n <= k+1 {
		if i <= k {
			return changes[i-1]
		}
		return nil
	}
	for j := 1; j <= k; j++ {
		if i == j*n/(k+1) {
			return changes[j-1]
		}
	}
	return nil
}

// ScheduleText describes the schedule, for reports.
func ScheduleText() string {
	text := func(changes [][]uint32) string {
		parts := make([]string, len(changes))
		for i, c := range changes {
			parts[i] = fmt.Sprint(c)
		}
		return strings.Join(parts, ", ")
	}
	return "SETTINGS_HEADER_TABLE_SIZE changes, each acknowledged before the next request, spread over each connection: " + text(scheduleChanges[:]) +
		"; then, on a connection of their own for servers and proxies and after those for clients: " + text(sizeChanges[:]) +
		"; and, for servers and proxies, a connection whose first SETTINGS frame sets 0, later [4096]"
}

// DefaultScript returns the script hpackcert live plays against servers
// and proxies: one connection of targeted lists (repeated fields,
// credentials and cookies, fields too large for the table, every octet an
// HTTP/1.1 field value can carry, many fields that evict each other),
// then one connection per response story of the embedded traffic
// (vectors.RawData, context "response"), at most stories of them, each
// cut to at most blocks requests, all following Schedule, the first
// played twice (ScriptConn.ReplayOf); then the
// exercise connection (exerciseResponses: every field octet
// Huffman-coded, the static table, integer boundaries, eviction by
// insertion), which changes no setting, the sizes connection, one of
// sizeChanges before each request from the second, and one that starts at
// a SETTINGS_HEADER_TABLE_SIZE of 0 (StartsAtZero).
func DefaultScript(stories, blocks int) (*Script, error) {
	raw, err := vectors.RawData()
	if err != nil {
		return nil, err
	}
	sc := &Script{}
	sc.add("targeted", targetedResponses())
	n := 0
	for _, s := range raw {
		if s.Context != "response" || n >= stories {
			continue
		}
		n++
		name := strings.TrimSuffix(s.Path[strings.LastIndexByte(s.Path, '/')+1:], ".json")
		var lists []labelled
		for i, c := range s.Cases {
			if i >= blocks {
				break
			}
			lists = append(lists, labelled{fmt.Sprintf("%s block %d", name, i), c.Headers})
		}
		sc.add(name, lists)
		sc.Conns[len(sc.Conns)-1].Traffic = true
		if n == 1 {
			// The first story of traffic again, on a fresh connection
			// played in lockstep with the first (CaptureServer): the
			// same input in a fresh context (enc/2.2/1), each block
			// close enough in time to its twin that a target's own date
			// is likely the same.
			first := sc.Conns[len(sc.Conns)-1]
			again := ScriptConn{Name: fmt.Sprintf("c%02d-again-%s", len(sc.Conns), name), Traffic: true, ReplayOf: first.Name}
			for _, st := range first.Steps {
				again.Steps = append(again.Steps, Step{Label: st.Label + " again", Settings: st.Settings, Response: st.Response})
			}
			sc.Conns = append(sc.Conns, again)
		}
	}
	sc.addSettings("exercise", exerciseResponses(), nil)
	sizes := sizeResponses()
	settings := make([][]uint32, len(sizes))
	for i := 1; i < len(sizes); i++ {
		settings[i] = sizeChanges[i-1]
	}
	sc.addSettings("sizes", sizes, settings)
	sc.addSettings("start-at-zero", startAtZeroResponses(), startAtZeroSettings)
	sc.Conns[len(sc.Conns)-1].StartsAtZero = true
	return sc, nil
}

type labelled struct {
	label  string
	fields []vectors.Field
}

func (sc *Script) add(name string, lists []labelled) {
	settings := make([][]uint32, len(lists))
	for i := range lists {
		settings[i] = Schedule(i, len(lists))
	}
	sc.addSettings(name, lists, settings)
}

// addSettings adds a connection of lists, settings[i] sent before list
// i (none when settings is nil).
func (sc *Script) addSettings(name string, lists []labelled, settings [][]uint32) {
	c := ScriptConn{Name: fmt.Sprintf("c%02d-%s", len(sc.Conns), name)}
	for i, l := range lists {
		var s []uint32
		if settings != nil {
			s = settings[i]
		}
		c.Steps = append(c.Steps, Step{Label: l.label, Settings: s, Response: l.fields})
	}
	sc.Conns = append(sc.Conns, c)
}

func fields(pairs ...string) []vectors.Field {
	out := make([]vectors.Field, len(pairs)/2)
	for i := range out {
		out[i] = vectors.Field{Name: pairs[2*i], Value: pairs[2*i+1]}
	}
	return out
}

// filler returns n octets of text beginning with tag.
func filler(tag string, n int) string {
	return (tag + strings.Repeat("0123456789abcdef", n/16+1))[:n]
}

// targetedResponses are the lists of the targeted connection.
func targetedResponses() []labelled {
	baseline := fields(":status", "200", "content-type", "text/html; charset=utf-8", "cache-control", "private, max-age=0", "x-hpackcert", "baseline")
	repeated := fields(":status", "200",
		"set-cookie", "a=1; Path=/", "set-cookie", "b=2; Path=/; HttpOnly", "set-cookie", "c=3",
		"vary", "accept-encoding", "vary", "origin", "x-dup", "same", "x-dup", "same")
	credentials := fields(":status", "200",
		"authorization", "Basic aHBhY2s6Y2VydA==", "cookie", "sid=31d4",
		"set-cookie", "session=38afes7a8; HttpOnly; Secure", "www-authenticate", `Basic realm="hpackcert"`,
		"x-api-key", "k-31d4-38afes7a8")
	// Sensitive: an origin reached over h2c sends them never-indexed, and
	// a proxy must relay them so (RFC 7541 §6.2.3); over HTTP/1.1 the mark
	// cannot reach the proxy, and it is dropped (Capture.Transcript).
	for i := range credentials {
		switch credentials[i].Name {
		case "authorization", "x-api-key":
			credentials[i].Sensitive = true
		}
	}
	var visible, obsText strings.Builder
	for b := 0x21; b <= 0x7e; b++ {
		visible.WriteByte(byte(b))
	}
	for b := 0x80; b <= 0xff; b++ {
		obsText.WriteByte(byte(b))
	}
	octets := fields(":status", "200",
		"x-octets-visible", visible.String(),
		"x-octets-space", "a b\tc  d\t\te",
		"x-octets-obs-text", obsText.String())
	many := fields(":status", "200")
	for i := range 48 {
		many = append(many, vectors.Field{Name: fmt.Sprintf("x-fill-%02d", i), Value: filler(fmt.Sprintf("v%02d-", i), 90)})
	}
	return []labelled{
		{"baseline", baseline},
		{"repeated fields", repeated},
		{"credentials and cookies", credentials},
		{"a field over 4096 octets", fields(":status", "200", "x-giant-a", filler("a", 4100))},
		{"baseline again", baseline},
		{"a field of 3500 octets", fields(":status", "200", "x-giant-b", filler("b", 3500))},
		{"every octet of HTTP/1.1 values", octets},
		{"48 fields evicting each other", many},
		{"repeated fields again", repeated},
		{"credentials and cookies again", credentials},
		{"not found", fields(":status", "404", "content-type", "text/plain", "x-hpackcert", "missing")},
		{"a field of 30000 octets, past one frame", fields(":status", "200", "x-giant-c", filler("c", 30000))},
		{"redirect", fields(":status", "301", "location", "https://example.com/hpackcert/moved", "content-type", "text/html")},
		{"octets again", octets},
		{"baseline once more", baseline},
	}
}

// hopByHop are the fields HTTP/2 forbids (RFC 9113 §8.2.2) and HTTP/1.1
// intermediaries consume; an origin does not send them.
var hopByHop = []string{"connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer"}

// MaxBody bounds the body an origin sends for one response, and what a
// client target reads of one.
const MaxBody = 16 << 10

// OriginResponse returns what an origin sends for a step's response list:
// the header list, ":status" first, and the body. Fields HTTP/1.1 cannot
// carry as given are left out (a name that is not a token, a value with a
// control octet) or trimmed (white space at either end), the fields HTTP/2
// forbids are left out, and "content-length" gives the length of the body,
// which is the list's content-length (at most 16 KiB) of filler, gzip- or
// zlib-compressed under a content-encoding of gzip or deflate. A status
// without a body (1xx, 204, 304) has neither.
func OriginResponse(list []vectors.Field) ([]vectors.Field, []byte) {
	status := "200"
	if len(list) > 0 && list[0].Name == ":status" {
		status = list[0].Value
	}
	code, err := strconv.Atoi(status)
	if err != nil || code < 200 || code > 599 {
		status, code = "200", 200
	}
	noBody := code == 204 || code == 304
	out := []vectors.Field{{Name: ":status", Value: status}}
	size, encoding, lengthAt := 64, "", -1
	for _, f := range list {
		name := strings.ToLower(f.Name)
		value := strings.Trim(f.Value, " \t")
		switch {
		case strings.HasPrefix(name, ":"), !isToken(name), !isFieldValue(value), contains(hopByHop, name):
			continue
		case name == "content-length":
			if n, err := strconv.Atoi(value); err == nil && n >= 0 {
				size = min(n, MaxBody)
			}
			if lengthAt < 0 {
				lengthAt = len(out)
			}
			continue
		case name == "content-encoding":
			encoding = strings.ToLower(value)
		}
		out = append(out, vectors.Field{Name: name, Value: value, Sensitive: f.Sensitive})
	}
	if noBody {
		return out, nil
	}
	body := encodeBody(encoding, size)
	if lengthAt < 0 {
		lengthAt = len(out)
	}
	out = append(out[:lengthAt], append([]vectors.Field{{Name: "content-length", Value: strconv.Itoa(len(body))}}, out[lengthAt:]...)...)
	return out, body
}

// encodeBody returns size octets of filler, compressed as encoding says
// when it is gzip or deflate, so that a proxy that looks inside finds what
// the header says.
func encodeBody(encoding string, size int) []byte {
	plain := []byte(filler("hpackcert ", size))
	var b bytes.Buffer
	switch encoding {
	case "gzip", "x-gzip":
		w := gzip.NewWriter(&b)
		w.Write(plain)
		w.Close()
	case "deflate":
		w := zlib.NewWriter(&b)
		w.Write(plain)
		w.Close()
	default:
		return plain
	}
	return b.Bytes()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// isToken reports whether s is an RFC 9110 token in lower case, a field
// name HTTP/1.1 and HTTP/2 both carry.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// isFieldValue reports whether s is an RFC 9110 field value without
// white space at its ends: visible octets, obs-text, and SP or HTAB
// inside.
func isFieldValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}
