package vectors

import (
	"fmt"
	"strings"
	"time"
)

// GeneratedSeed is the seed of the stories checked in under
// testdata/generated.
const GeneratedSeed = 7541

// GenerateStories returns n stories made from seed; the same seed and n
// always give the same stories, on every platform and Go version. Story i
// concentrates on one theme, taken in turn from: table size changes,
// sensitive fields, giant fields, empty names and values, every octet valid
// UTF-8 allows, duplicates, ordinary requests, ordinary responses. Every
// story mixes in ordinary traffic so that the dynamic table has something
// to index and evict. The cases carry no wire.
func GenerateStories(seed int64, n int) []*Story {
	base := rng{state: uint64(seed)}
	stories := make([]*Story, 0, n)
	for i := 0; i < n; i++ {
		t := themes[i%len(themes)]
		g := &generator{
			r:     rng{state: base.next()},
			acked: defaultTableSize,
			story: &Story{
				Context:     t.context,
				Description: fmt.Sprintf("hpackcert generated story %d (seed %d): %s", i, seed, t.description),
			},
		}
		cases := 50 + g.r.intn(t.maxExtraCases+1)
		for len(g.story.Cases) < cases {
			t.addCase(g)
		}
		stories = append(stories, g.story)
	}
	return stories
}

// defaultTableSize is the SETTINGS_HEADER_TABLE_SIZE both sides start with
// (RFC 7540 §6.5.2).
const defaultTableSize = 4096

type theme struct {
	context       string
	description   string
	maxExtraCases int
	addCase       func(g *generator)
}

var themes = []theme{
	{"request", "SETTINGS_HEADER_TABLE_SIZE changes between blocks: down to 0, down then up, several at once, above 4096", 50, (*generator).tableSizeCase},
	{"request", "fields marked sensitive (never indexed, RFC 7541 §7.1.3), also ones sent before or after without the mark", 50, (*generator).sensitiveCase},
	{"response", "fields whose entry exceeds the table, fills it exactly, or exceeds 3/4 of it, under several table sizes", 10, (*generator).giantCase},
	{"request", "empty names and empty values", 50, (*generator).emptyCase},
	{"request", "names and values using every octet valid UTF-8 allows", 40, (*generator).octetsCase},
	{"response", "many duplicate fields and names within and across blocks", 30, (*generator).duplicatesCase},
	{"request", "ordinary browser requests", 100, (*generator).requestCase},
	{"response", "ordinary server responses", 100, (*generator).responseCase},
}

// generator builds one story.
type generator struct {
	r     rng
	story *Story
	acked uint32 // the SETTINGS_HEADER_TABLE_SIZE in force
	clock int    // seconds since the story's first date
}

// add appends a case. sizes are the table sizes acked before it;
// sensitive may be nil.
func (g *generator) add(headers []Field, sensitive []bool, sizes ...uint32) {
	c := Case{Seqno: len(g.story.Cases), Headers: headers}
	if len(sizes) > 0 {
		last := sizes[len(sizes)-1]
		c.HeaderTableSize = &last
		if len(sizes) > 1 {
			c.TableSizes = sizes
		}
		g.acked = last
	}
	for i, s := range sensitive {
		c.Headers[i].Sensitive = s
	}
	g.story.Cases = append(g.story.Cases, c)
}

// tableSizeSchedules are the acks that may arrive between two blocks.
var tableSizeSchedules = [][]uint32{
	{0},
	{4096},
	{0, 4096},       // down then up: the next block must start with 0
	{4096, 0, 4096}, // the same, surrounded
	{256},
	{256, 4096},
	{1024, 64, 2048}, // the minimum is in the middle
	{0, 0},
	{65536}, // above the default: an encoder may stay at its own capacity
	{100, 200},
	{32},
	{31}, // too small for any entry
	{2048, 1024},
}

func (g *generator) tableSizeCase() {
	headers := g.request()
	if len(g.story.Cases) > 0 && g.r.chance(45) {
		sizes := pick(&g.r, tableSizeSchedules)
		g.add(headers, nil, append([]uint32(nil), sizes...)...)
		return
	}
	g.add(headers, nil)
}

var secretNames = []string{"authorization", "proxy-authorization", "cookie", "x-api-key", "x-csrf-token", "set-cookie"}

func (g *generator) sensitiveCase() {
	headers := g.request()
	sensitive := make([]bool, len(headers))
	for i, h := range headers {
		switch h.Name {
		case "authorization", "cookie":
			sensitive[i] = g.r.chance(70)
		default:
			sensitive[i] = g.r.chance(10)
		}
	}
	for k := g.r.intn(4); k > 0; k-- {
		// Secrets drawn from a small set, so that the same field comes
		// back sometimes marked and sometimes not.
		name := pick(&g.r, secretNames)
		value := fmt.Sprintf("%s-%d", pick(&g.r, []string{"tok", "sess", "Bearer abc", "key"}), g.r.intn(4))
		headers = append(headers, Field{Name: name, Value: value})
		sensitive = append(sensitive, g.r.chance(75))
	}
	g.add(headers, sensitive)
}

// giantSizes are the table sizes the giant-field story moves between.
var giantSizes = []uint32{4096, 4096, 1024, 256}

func (g *generator) giantCase() {
	var sizes []uint32
	if len(g.story.Cases) > 0 && g.r.chance(25) {
		sizes = []uint32{pick(&g.r, giantSizes)}
	}
	limit := g.acked
	if len(sizes) > 0 {
		limit = sizes[0]
	}
	headers := g.response()
	if !g.r.chance(35) {
		g.add(headers, nil, sizes...) // ordinary blocks between the giants
		return
	}
	name := pick(&g.r, []string{"x-giant", "set-cookie", "content-security-policy", "link"})
	// entry is the entry size wanted (name + value + 32, RFC 7541 §4.1).
	var entry int
	switch g.r.intn(5) {
	case 0: // larger than the table, by a little or by much
		entry = int(limit) + 1 + g.r.intn(int(limit)/8+1)
	case 1: // exactly the table: fits, and evicts everything else
		entry = int(limit)
	case 2: // over 3/4 of the table but within it
		entry = int(limit)*3/4 + 1 + g.r.intn(int(limit)/4)
	case 3: // exactly 3/4 of the table
		entry = int(limit) * 3 / 4
	default: // larger than the default 4096 whatever the table
		entry = 4097 + g.r.intn(500)
	}
	value := g.filler(entry - 32 - len(name))
	headers = append(headers, Field{Name: name, Value: value})
	if g.r.chance(30) {
		// The same giant field again, to see it is not expected in the table.
		headers = append(headers, Field{Name: name, Value: value})
	}
	g.add(headers, nil, sizes...)
}

// filler returns n octets of printable text.
func (g *generator) filler(n int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~/=;"
	b := make([]byte, max(n, 0))
	for i := range b {
		b[i] = alphabet[g.r.intn(len(alphabet))]
	}
	return string(b)
}

func (g *generator) emptyCase() {
	headers := g.request()
	empties := []Field{{Name: "", Value: ""}, {Name: "", Value: "value-without-name"}, {Name: "x-empty", Value: ""}, {Name: "cookie", Value: ""}, {Name: ":authority", Value: ""}, {Name: "accept-encoding", Value: ""}, {Name: "", Value: ""}}
	for k := 1 + g.r.intn(4); k > 0; k-- {
		h := pick(&g.r, empties)
		i := g.r.intn(len(headers) + 1)
		headers = append(headers[:i], append([]Field{h}, headers[i:]...)...)
	}
	g.add(headers, nil)
}

func (g *generator) octetsCase() {
	var headers []Field
	switch k := len(g.story.Cases); {
	case k == 0:
		// Every octet valid UTF-8 allows, each in a name and in a value.
		ascii := make([]byte, 0x80)
		for i := range ascii {
			ascii[i] = byte(i)
		}
		headers = append(headers, Field{Name: string(ascii), Value: string(ascii)})
		high := highOctetRunes()
		headers = append(headers, Field{Name: high, Value: high}, Field{Name: "x-reversed", Value: reverseRunes(high + string(ascii))})
	default:
		headers = append(headers, Field{Name: ":method", Value: "GET"}, Field{Name: ":path", Value: "/" + g.octets(1+g.r.intn(20))})
		for n := 1 + g.r.intn(4); n > 0; n-- {
			headers = append(headers, Field{Name: g.octets(g.r.intn(16)), Value: g.octets(g.r.intn(40))})
		}
		if g.r.chance(30) {
			// Octets with the longest Huffman codes (30 bits: 0x0a, 0x0d, 0x16).
			headers = append(headers, Field{Name: "x-long-codes", Value: strings.Repeat("\n\r\x16", 1+g.r.intn(10))})
		}
	}
	g.add(headers, nil)
}

// octets returns a valid UTF-8 string of n runes drawn from every octet
// class: control characters, printable ASCII, and two-, three- and
// four-octet sequences.
func (g *generator) octets(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		var r rune
		switch g.r.intn(6) {
		case 0:
			r = rune(g.r.intn(0x20))
		case 1:
			r = 0x7f
		case 2:
			r = rune(0x20 + g.r.intn(0x5f))
		case 3:
			r = rune(0x80 + g.r.intn(0x800-0x80))
		case 4:
			r = rune(0x800 + g.r.intn(0xd800-0x800)) // below the surrogates
		default:
			r = rune(0x10000 + g.r.intn(0x110000-0x10000))
		}
		b.WriteRune(r)
	}
	return b.String()
}

// highOctetRunes returns runes that together contain every octet from 0x80
// to 0xFF that UTF-8 allows: each lead octet 0xC2-0xF4, and each
// continuation octet 0x80-0xBF.
func highOctetRunes() string {
	var b strings.Builder
	for lead := 0xc2; lead <= 0xdf; lead++ { // two octets: lead, continuation
		b.Write([]byte{byte(lead), 0x80 | byte(lead-0xc2)})
	}
	for lead := 0xe1; lead <= 0xec; lead++ { // three octets, no special range
		b.Write([]byte{byte(lead), 0x80 | byte(lead)&0x3f, 0xbf})
	}
	b.Write([]byte{0xe0, 0xa0, 0x80, 0xed, 0x9f, 0xbf, 0xee, 0x80, 0x80, 0xef, 0xbf, 0xbd})
	b.Write([]byte{0xf0, 0x90, 0x80, 0x80, 0xf1, 0x80, 0x80, 0x80, 0xf2, 0xbf, 0xbf, 0xbf, 0xf3, 0xa0, 0xb0, 0x80, 0xf4, 0x8f, 0xbf, 0xbf})
	for c := 0x80; c <= 0xbf; c++ { // every continuation octet after 0xc2
		b.Write([]byte{0xc2, byte(c)})
	}
	return b.String()
}

func reverseRunes(s string) string {
	runes := []rune(s)
	for i, j := 0, len(runes)-1; i < j; i, j = i+1, j-1 {
		runes[i], runes[j] = runes[j], runes[i]
	}
	return string(runes)
}

func (g *generator) duplicatesCase() {
	headers := g.response()
	switch g.r.intn(4) {
	case 0: // one field many times
		h := Field{Name: "set-cookie", Value: fmt.Sprintf("id=%d", g.r.intn(3))}
		for n := 20 + g.r.intn(20); n > 0; n-- {
			headers = append(headers, h)
		}
	case 1: // one name, many values
		for n := 10 + g.r.intn(15); n > 0; n-- {
			headers = append(headers, Field{Name: "link", Value: fmt.Sprintf("</r/%d.css>; rel=preload", g.r.intn(12))})
		}
	case 2: // the previous block again, unchanged
		if k := len(g.story.Cases); k > 0 {
			headers = append([]Field(nil), g.story.Cases[k-1].Headers...)
		}
	default: // two fields alternating
		a, b := Field{Name: "vary", Value: "accept-encoding"}, Field{Name: "vary", Value: "origin"}
		for n := 5 + g.r.intn(10); n > 0; n-- {
			headers = append(headers, a, b)
		}
	}
	g.add(headers, nil)
}

func (g *generator) requestCase() {
	headers := g.request()
	var sensitive []bool
	if g.r.chance(5) {
		headers = append(headers, Field{Name: "authorization", Value: fmt.Sprintf("Bearer %s", g.filler(24))})
		sensitive = make([]bool, len(headers))
		sensitive[len(headers)-1] = true
	}
	var sizes []uint32
	if len(g.story.Cases) > 0 && g.r.chance(3) {
		sizes = append(sizes, pick(&g.r, tableSizeSchedules)...)
	}
	g.add(headers, sensitive, sizes...)
}

func (g *generator) responseCase() {
	g.add(g.response(), nil)
}

var (
	hosts      = []string{"www.example.com", "static.example.com", "api.example.net", "img.example.org", "cdn.example.com"}
	userAgents = []string{
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0",
		"curl/8.8.0",
	}
	accepts = []string{"*/*", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "image/avif,image/webp,*/*", "application/json"}
	paths   = []string{"/", "/index.html", "/static/app.%d.js", "/static/style.%d.css", "/img/%d.png", "/api/v1/items/%d", "/api/v1/search?q=%d&page=2"}
	types   = []string{"text/html; charset=utf-8", "application/javascript", "text/css", "image/png", "application/json"}
)

// request returns an ordinary request header list.
func (g *generator) request() []Field {
	path := pick(&g.r, paths)
	if strings.Contains(path, "%d") {
		path = fmt.Sprintf(path, g.r.intn(50))
	}
	headers := []Field{
		{Name: ":method", Value: pick(&g.r, []string{"GET", "GET", "GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS"})},
		{Name: ":scheme", Value: pick(&g.r, []string{"https", "https", "http"})},
		{Name: ":authority", Value: pick(&g.r, hosts)},
		{Name: ":path", Value: path},
		{Name: "user-agent", Value: pick(&g.r, userAgents)},
		{Name: "accept", Value: pick(&g.r, accepts)},
	}
	if g.r.chance(70) {
		headers = append(headers, Field{Name: "accept-encoding", Value: "gzip, deflate, br"})
	}
	if g.r.chance(50) {
		headers = append(headers, Field{Name: "accept-language", Value: pick(&g.r, []string{"en-US,en;q=0.9", "ja,en;q=0.8", "de-DE"})})
	}
	if g.r.chance(40) {
		headers = append(headers, Field{Name: "cookie", Value: fmt.Sprintf("session=%s; theme=%s", g.filler(16), pick(&g.r, []string{"dark", "light"}))})
	}
	if g.r.chance(40) {
		headers = append(headers, Field{Name: "referer", Value: "https://" + pick(&g.r, hosts) + "/"})
	}
	if g.r.chance(15) {
		headers = append(headers, Field{Name: "if-none-match", Value: fmt.Sprintf("\"%x\"", g.r.next()&0xffffffff)})
	}
	return headers
}

// response returns an ordinary response header list.
func (g *generator) response() []Field {
	g.clock += g.r.intn(3)
	date := time.Unix(1700000000+int64(g.clock), 0).UTC().Format("Mon, 02 Jan 2006 15:04:05 GMT")
	headers := []Field{
		{Name: ":status", Value: pick(&g.r, []string{"200", "200", "200", "304", "404", "301", "204"})},
		{Name: "date", Value: date},
		{Name: "server", Value: pick(&g.r, []string{"nginx", "hpackcert", "Apache"})},
		{Name: "content-type", Value: pick(&g.r, types)},
	}
	if g.r.chance(60) {
		headers = append(headers, Field{Name: "content-length", Value: fmt.Sprint(g.r.intn(100000))})
	}
	if g.r.chance(50) {
		headers = append(headers, Field{Name: "cache-control", Value: pick(&g.r, []string{"private", "no-cache", "max-age=3600", "public, max-age=31536000"})})
	}
	if g.r.chance(30) {
		headers = append(headers, Field{Name: "etag", Value: fmt.Sprintf("\"%x\"", g.r.next()&0xffffffffff)})
	}
	if g.r.chance(25) {
		headers = append(headers, Field{Name: "set-cookie", Value: fmt.Sprintf("id=%s; Path=/; HttpOnly", g.filler(12))})
	}
	if g.r.chance(30) {
		headers = append(headers, Field{Name: "vary", Value: "accept-encoding"})
	}
	return headers
}

// rng is a SplitMix64 generator: small, fast, and fixed here, so that the
// stories do not change when the standard library's generators do.
type rng struct{ state uint64 }

func (r *rng) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// intn returns a number in [0, n); n must be positive.
func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

// chance reports true with the given probability in percent.
func (r *rng) chance(percent int) bool { return r.intn(100) < percent }

func pick[T any](r *rng, from []T) T { return from[r.intn(len(from))] }
