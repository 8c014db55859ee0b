package live

import (
	"bytes"
	"encoding/hex"
	"strings"

	"github.com/hpackcert/hpackcert/vectors"
)

// maxShown bounds the requests the origin keeps for live decoders to
// read: a decoder reads those of its last block only.
const maxShown = 64

// ShownRequest is a request the origin received, as it shows the fields
// of the request a live decoder target was sent: the fields a proxy
// relayed (over h2c, as they decode; over HTTP/1.1, ":method" and
// ":path" from the request line, then the header lines in order), or
// those an app echoed (EchoHeader).
type ShownRequest struct {
	Fields []vectors.Field
	// Echo is set when Fields are an app's echo.
	Echo bool
}

// shownLog is the requests the origin received, numbered in order.
type shownLog struct {
	// next numbers the next request; reqs holds the last maxShown.
	next int
	reqs []ShownRequest
}

// Mark returns the number of the next request the origin will receive:
// ShownSince(Mark()) taken later holds the requests received since.
func (o *Origin) Mark() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.shown.next
}

// ShownSince returns the requests received since mark, oldest first, at
// most the last maxShown.
func (o *Origin) ShownSince(mark int) []ShownRequest {
	o.mu.Lock()
	defer o.mu.Unlock()
	first := o.shown.next - len(o.shown.reqs)
	return append([]ShownRequest(nil), o.shown.reqs[max(mark-first, 0):]...)
}

// Show records the fields of a request an app in this process was given
// (the Go echo server), as an app in a process of its own echoes them.
func (o *Origin) Show(fields []vectors.Field) {
	o.record(ShownRequest{Fields: fields, Echo: true})
}

func (o *Origin) record(r ShownRequest) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.shown.next++
	o.shown.reqs = append(o.shown.reqs, r)
	if len(o.shown.reqs) > maxShown {
		o.shown.reqs = o.shown.reqs[len(o.shown.reqs)-maxShown:]
	}
}

// recordH2 records the fields of an h2c request as they decode.
func (o *Origin) recordH2(fields []vectors.Field) {
	o.record(ShownRequest{Fields: fields})
}

// recordHead records an HTTP/1.1 request from its head as read: the
// echo it carries, or else the fields it relays.
func (o *Origin) recordHead(head []byte) {
	end := bytes.Index(head, []byte("\r\n\r\n"))
	if end < 0 {
		return
	}
	lines := strings.Split(string(head[:end]), "\r\n")
	method, rest, _ := strings.Cut(lines[0], " ")
	target, _, _ := strings.Cut(rest, " ")
	fields := []vectors.Field{{Name: ":method", Value: method}, {Name: ":path", Value: target}}
	for _, line := range lines[1:] {
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		name = strings.ToLower(name)
		value = strings.Trim(value, " \t")
		if name == EchoHeader {
			if echo, ok := parseEcho(value); ok {
				o.record(ShownRequest{Fields: echo, Echo: true})
				return
			}
		}
		fields = append(fields, vectors.Field{Name: name, Value: value})
	}
	o.record(ShownRequest{Fields: fields})
}

// parseEcho reads the value of EchoHeader; false when it is not one.
func parseEcho(v string) ([]vectors.Field, bool) {
	var out []vectors.Field
	if v == "" {
		return out, true
	}
	for _, pair := range strings.Split(v, ",") {
		n, val, ok := strings.Cut(pair, "=")
		name, err1 := hex.DecodeString(n)
		value, err2 := hex.DecodeString(val)
		if !ok || err1 != nil || err2 != nil {
			return nil, false
		}
		out = append(out, vectors.Field{Name: string(name), Value: string(value)})
	}
	return out, true
}

// headRecorder keeps what is read through it up to the end of an
// HTTP/1.1 request's head (or the bound of one).
type headRecorder struct {
	buf  []byte
	done bool
}

func (h *headRecorder) Write(p []byte) (int, error) {
	if h.done {
		return len(p), nil
	}
	// The end may straddle two writes: look from three octets back.
	from := max(len(h.buf)-3, 0)
	h.buf = append(h.buf, p...)
	h.done = bytes.Contains(h.buf[from:], []byte("\r\n\r\n")) || len(h.buf) >= maxRequestHead
	return len(p), nil
}
