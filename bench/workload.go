package bench

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"

	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/vectors"
)

// Field is one header field of a workload: spec.Field, the module's one
// header-field type. Sensitive asks the encoder never to index it (RFC
// 7541 §7.1.3); every implementation is told the same.
type Field = spec.Field

// Block is the header list of one HEADERS frame.
type Block []Field

// Conn is the sequence of blocks one connection sends through one encoding
// context.
type Conn []Block

// Workload is a set of connections an implementation encodes.
//
// Benchmarks use it in one of two ways. A steady workload keeps one
// long-lived context and encodes one block per operation, cycling through the
// blocks of every connection in order. A pass workload encodes every
// connection on a context of its own, fresh for that connection, per
// operation.
type Workload struct {
	Name      string
	Conns     []Conn
	ConnNames []string // optional, parallel to Conns: where each came from
}

// Blocks returns the number of blocks in one pass over w.
func (w *Workload) Blocks() int {
	n := 0
	for _, c := range w.Conns {
		n += len(c)
	}
	return n
}

// RawBytes returns the octets of names and values in one pass over w: the
// denominator of the compression ratio and of the MB/s figures.
func (w *Workload) RawBytes() int {
	n := 0
	for _, c := range w.Conns {
		for _, b := range c {
			n += b.rawBytes()
		}
	}
	return n
}

// pack lays out w's fields in one array and their names and values one
// after the other in one string, in the order a pass reads them. That is
// how NewNghttp2 hands the workload to libnghttp2 (copied into C memory),
// so every implementation reads its input with the same locality, instead
// of the Go runners chasing strings scattered over the heap by the JSON
// decoder while libnghttp2 reads one buffer front to back.
func (w *Workload) pack() {
	nfields := 0
	var text strings.Builder
	text.Grow(w.RawBytes())
	for _, c := range w.Conns {
		for _, b := range c {
			nfields += len(b)
			for _, f := range b {
				text.WriteString(f.Name)
				text.WriteString(f.Value)
			}
		}
	}
	all, packed := text.String(), make([]Field, 0, nfields)
	take := func(n int) string {
		s := all[:n]
		all = all[n:]
		return s
	}
	for _, c := range w.Conns {
		for i, b := range c {
			start := len(packed)
			for _, f := range b {
				f.Name, f.Value = take(len(f.Name)), take(len(f.Value))
				packed = append(packed, f)
			}
			c[i] = packed[start:len(packed):len(packed)]
		}
	}
}

// MaxBlockRawBytes returns the raw bytes of the largest block of w.
func (w *Workload) MaxBlockRawBytes() int {
	largest := 0
	for _, c := range w.Conns {
		for _, b := range c {
			largest = max(largest, b.rawBytes())
		}
	}
	return largest
}

func (b Block) rawBytes() int {
	n := 0
	for _, f := range b {
		n += len(f.Name) + len(f.Value)
	}
	return n
}

// ChromeUserAgent is the 110-byte user-agent of the 4-field batch.
const ChromeUserAgent = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/99.0.0.0 Safari/537.36"

// Batch returns workload (a): the 4-field request of the encoder issue,
// sent again and again on one connection.
func Batch() *Workload {
	return &Workload{Name: "batch", Conns: []Conn{{{
		{Name: ":method", Value: "GET"},
		{Name: ":path", Value: "/api/v1/resource"},
		{Name: "user-agent", Value: ChromeUserAgent},
		{Name: "cookie", Value: "session_token=deadbeef1234567890"},
	}}}}
}

// Setup returns the small block of workload (e): what a client sends first
// on a new connection.
func Setup() *Workload {
	return &Workload{Name: "setup", Conns: []Conn{{{
		{Name: ":method", Value: "GET"},
		{Name: ":scheme", Value: "https"},
		{Name: ":authority", Value: "www.example.com"},
		{Name: ":path", Value: "/"},
		{Name: "accept", Value: "*/*"},
	}}}}
}

// Churn sizes: a request id is a 36-byte UUID, a bearer token value is 180
// bytes ("Bearer " and 173 token characters).
const (
	RequestIDLen   = 36
	BearerTokenLen = 180
	churnClients   = 16
	churnRequests  = 1024
)

// Churn returns workload (c): an edge proxy forwarding the requests of 16
// clients over one upstream connection. Every request carries a fresh
// 36-byte x-request-id and its client's 180-byte bearer token among ordinary
// fields, so the clients' tokens rotate through the dynamic table. The
// request ids repeat only after 1024 requests, long after any 4096-byte table
// has evicted them. The workload is the same on every call.
func Churn() *Workload {
	rng := rand.New(rand.NewPCG(7, 1))
	paths := []string{"/api/v1/orders", "/api/v1/orders/recent", "/api/v1/cart", "/api/v1/profile",
		"/api/v1/search?q=shoes&page=2", "/static/app.js", "/static/app.css", "/api/v1/notifications"}
	agents := []string{ChromeUserAgent,
		"Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
		"okhttp/4.12.0",
		"Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"}
	type client struct{ addr, agent, token string }
	clients := make([]client, churnClients)
	for i := range clients {
		clients[i] = client{
			addr:  fmt.Sprintf("198.51.100.%d", 10+i*7),
			agent: agents[i%len(agents)],
			token: "Bearer " + randomToken(rng, BearerTokenLen-len("Bearer ")),
		}
	}
	conn := make(Conn, churnRequests)
	for i := range conn {
		c := clients[rng.IntN(len(clients))]
		method := "GET"
		if rng.IntN(8) == 0 {
			method = "POST"
		}
		conn[i] = Block{
			{Name: ":method", Value: method},
			{Name: ":scheme", Value: "https"},
			{Name: ":authority", Value: "api.example.com"},
			{Name: ":path", Value: paths[rng.IntN(len(paths))]},
			{Name: "accept", Value: "application/json"},
			{Name: "accept-encoding", Value: "gzip, deflate, br"},
			{Name: "user-agent", Value: c.agent},
			{Name: "x-forwarded-for", Value: c.addr},
			{Name: "x-request-id", Value: randomUUID(rng)},
			{Name: "authorization", Value: c.token},
		}
	}
	w := &Workload{Name: "churn", Conns: []Conn{conn}}
	w.pack()
	return w
}

func randomToken(rng *rand.Rand, n int) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(b)
}

// randomUUID returns a version 4 UUID in its 36-byte text form.
func randomUUID(rng *rand.Rand) string {
	const hexDigits = "0123456789abcdef"
	b := make([]byte, 0, RequestIDLen)
	for i := range 32 {
		if i == 8 || i == 12 || i == 16 || i == 20 {
			b = append(b, '-')
		}
		d := hexDigits[rng.IntN(16)]
		switch i {
		case 12:
			d = '4'
		case 16:
			d = hexDigits[8+rng.IntN(4)]
		}
		b = append(b, d)
	}
	return string(b)
}

// Stories returns workload (b): the stories of dir/raw-data, one connection
// per story, in file name order. Raw-data stories acknowledge no table
// size, so every story runs with the default 4096-byte table.
func Stories(dir string) (*Workload, error) {
	stories, err := vectors.ReadStoryDir(filepath.Join(dir, "raw-data"))
	if err != nil {
		return nil, err
	}
	w := &Workload{Name: "stories"}
	for _, s := range stories {
		c := make(Conn, len(s.Cases))
		for i, cs := range s.Cases {
			if cs.AckedSizes() != nil {
				return nil, fmt.Errorf("bench: %s: case %d acks a table size; raw-data stories have none", s.Path, i)
			}
			c[i] = Block(cs.Headers)
		}
		w.Conns = append(w.Conns, c)
		w.ConnNames = append(w.ConnNames, strings.TrimSuffix(filepath.Base(s.Path), ".json"))
	}
	w.pack()
	return w, nil
}

// HuffmanText returns the header-like input of workload (d): typical field
// values, each coded on its own, 909 octets in all.
func HuffmanText() []string {
	return []string{
		ChromeUserAgent,
		"text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
		"gzip, deflate, br, zstd",
		"en-US,en;q=0.9",
		"https://www.example.com/products/shoes?color=blue&size=42",
		"/api/v1/resource",
		"session_token=deadbeef1234567890; theme=dark; _ga=GA1.2.1234567890.1700000000",
		"max-age=31536000, includeSubDomains; preload",
		"no-cache, no-store, must-revalidate",
		"Mon, 30 Nov 2026 00:00:00 GMT",
		"W/\"5e15153d-120f\"",
		"application/json; charset=utf-8",
		"www.example.com",
		"keep-alive",
		"3f2a9c4e-7b1d-4e8a-9c2f-1a2b3c4d5e6f",
		"Bearer eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ",
		"198.51.100.23, 203.0.113.7",
		"Accept-Encoding, Origin",
		"default-src 'self'; script-src 'self' https://cdn.example.com; img-src *",
		"/static/js/main.7f3c2a1b.chunk.js",
		"bytes=0-1023",
		"1234",
		"nginx/1.25.3",
		"SAMEORIGIN",
	}
}

// HuffmanRandom returns the random-octet input of workload (d): strings of
// the same lengths as HuffmanText, every octet drawn uniformly from 0-255,
// the same on every call.
func HuffmanRandom() []string {
	rng := rand.New(rand.NewPCG(7, 2))
	text := HuffmanText()
	out := make([]string, len(text))
	for i, s := range text {
		var b strings.Builder
		for range len(s) {
			b.WriteByte(byte(rng.Uint32()))
		}
		out[i] = b.String()
	}
	return out
}

// HuffmanVariants is the number of variants of each varied input of
// workload (d).
const HuffmanVariants = 256

// HuffmanTextVaried returns HuffmanVariants variants of HuffmanText, one
// per operation in turn: every letter and digit redrawn within its class
// (lower case, upper case, digit), the rest kept, so the codes keep much
// the same lengths while the octets change. The same on every call.
//
// A benchmark repeating one 909-octet input lets the branch predictor
// learn the outcome of every data-dependent branch along it (x/net's
// coder flushes 32 bits on a branch taken every few octets); traffic does
// not repeat itself that way.
func HuffmanTextVaried() [][]string {
	return huffmanVariants(3, func(rng *rand.Rand, b []byte) {
		for i, c := range b {
			switch {
			case 'a' <= c && c <= 'z':
				b[i] = 'a' + byte(rng.IntN(26))
			case 'A' <= c && c <= 'Z':
				b[i] = 'A' + byte(rng.IntN(26))
			case '0' <= c && c <= '9':
				b[i] = '0' + byte(rng.IntN(10))
			}
		}
	})
}

// HuffmanRandomVaried returns HuffmanVariants variants of HuffmanRandom:
// fresh random octets, strings of the same lengths. The same on every call.
func HuffmanRandomVaried() [][]string {
	return huffmanVariants(4, func(rng *rand.Rand, b []byte) {
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
	})
}

// huffmanVariants returns HuffmanVariants copies of HuffmanText, each
// string rewritten in place by redraw, from a generator seeded with seed.
func huffmanVariants(seed uint64, redraw func(rng *rand.Rand, b []byte)) [][]string {
	rng := rand.New(rand.NewPCG(7, seed))
	text := HuffmanText()
	out := make([][]string, HuffmanVariants)
	for k := range out {
		for _, s := range text {
			b := []byte(s)
			redraw(rng, b)
			out[k] = append(out[k], string(b))
		}
	}
	return out
}
