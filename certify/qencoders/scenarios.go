package qencoders

import (
	"fmt"
	"strings"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/oracle/qstrict"
	"github.com/hpackcert/hpackcert/vectors/qif"
)

// scenario is one connection a played encoder goes through: the settings
// the certifier announces as decoder, the header lists, and how it
// delivers and answers.
type scenario struct {
	name     string
	settings qpack.Settings
	lists    [][]Field
	// hold is how many sections the encoder-stream octets are held back
	// for (0: delivered before each section), so that sections arrive
	// first and block; ackDelay is how many sections the decoder-stream
	// octets wait before the encoder is told them.
	hold, ackDelay int
	// reset is the index of the list whose stream is reset before its
	// section is delivered, or -1.
	reset int
	// bogus, when set, returns the decoder-stream octets told to the
	// encoder at the end, which it must refuse, given the strict
	// decoder's state.
	bogus func(d *qstrict.Decoder) []byte
}

// trafficLists is how many header lists of each QIF file a traffic
// scenario plays.
const trafficLists = 120

// scenarios returns the scenarios a played encoder goes through, from
// the embedded QIF traffic (vectors/qif) and lists of their own.
func scenarios() ([]*scenario, error) {
	files, err := qif.Traffic()
	if err != nil {
		return nil, err
	}
	byName := map[string][][]Field{}
	for _, f := range files {
		byName[strings.TrimSuffix(f.Name, ".qif")] = f.HeaderLists
	}
	lists := func(name string, n int) [][]Field {
		l := byName[name]
		return l[:min(n, len(l))]
	}
	s := func(max, blocked uint64) qpack.Settings {
		return qpack.Settings{MaxTableCapacity: max, BlockedStreams: blocked}
	}
	var out []*scenario
	for _, name := range []string{"fb-req", "fb-req-hq", "fb-resp", "fb-resp-hq", "netbsd", "netbsd-hq"} {
		out = append(out, &scenario{name: "traffic " + name, settings: s(4096, 100), lists: lists(name, trafficLists), reset: -1})
	}
	for _, name := range []string{"fb-req-hq", "fb-resp-hq", "netbsd-hq"} {
		out = append(out, &scenario{name: "late " + name, settings: s(4096, 16), lists: lists(name, 100), hold: 3, ackDelay: 2, reset: -1})
	}
	for _, name := range []string{"fb-req", "fb-resp"} {
		out = append(out, &scenario{name: "small table " + name, settings: s(256, 4), lists: lists(name, 200), hold: 2, ackDelay: 1, reset: -1})
	}
	out = append(out,
		&scenario{name: "no blocking fb-resp-hq", settings: s(4096, 0), lists: lists("fb-resp-hq", 100), hold: 2, ackDelay: 3, reset: -1},
		&scenario{name: "capacity 0 fb-req", settings: s(0, 100), lists: lists("fb-req", 60), reset: -1},
		&scenario{name: "sensitive", settings: s(4096, 100), lists: sensitiveLists(), reset: -1},
		&scenario{name: "large", settings: s(4096, 100), lists: largeLists(), reset: -1},
		&scenario{name: "reset fb-req-hq", settings: s(4096, 100), lists: lists("fb-req-hq", 30), hold: 6, reset: 2},
		&scenario{name: "bad acknowledgment", settings: s(4096, 100), lists: lists("fb-req", 5), reset: -1, bogus: func(*qstrict.Decoder) []byte {
			return encoder.AppendInteger(nil, 0x80, 7, 4*1000) // stream 4000 never carried a section
		}},
		&scenario{name: "increment of 0", settings: s(4096, 100), lists: lists("fb-req", 5), reset: -1, bogus: func(*qstrict.Decoder) []byte {
			return []byte{0x00}
		}},
		&scenario{name: "increment past the inserts", settings: s(4096, 100), lists: lists("fb-req", 5), reset: -1, bogus: func(d *qstrict.Decoder) []byte {
			return encoder.AppendInteger(nil, 0x00, 6, d.InsertCount()-d.KnownReceivedCount()+1)
		}},
	)
	return out, nil
}

// sensitiveLists are requests carrying credentials marked sensitive,
// repeated so that an encoder indexing them would reference them.
func sensitiveLists() [][]Field {
	var out [][]Field
	for i := range 40 {
		out = append(out, []Field{
			{Name: ":method", Value: "GET"},
			{Name: ":scheme", Value: "https"},
			{Name: ":authority", Value: "example.com"},
			{Name: ":path", Value: fmt.Sprintf("/api/items/%d", i%5)},
			{Name: "authorization", Value: fmt.Sprintf("Bearer token-%d", i%3), Sensitive: true},
			{Name: "cookie", Value: fmt.Sprintf("session=%x", i%2), Sensitive: true},
			{Name: "x-api-key", Value: "k-12345", Sensitive: true},
			{Name: "user-agent", Value: "hpackcert/1"},
			{Name: ":method", Value: "GET", Sensitive: i%4 == 0},
		})
	}
	return out
}

// largeLists carry long names and values, some larger than any table a
// scenario allows, so that integers take several octets and insertions
// must be refused by the encoder itself.
func largeLists() [][]Field {
	v := func(n int, c byte) string { return strings.Repeat(string(c), n) }
	var out [][]Field
	for i := range 6 {
		out = append(out, []Field{
			{Name: ":status", Value: "200"},
			{Name: "x-medium", Value: v(130+i%2, 'm')},
			{Name: "x-" + v(200, 'n'), Value: "long name"},
			{Name: "x-large", Value: v(5000, 'L')},
			{Name: "x-huge", Value: v(20000, 'h')},
			{Name: "content-type", Value: "text/plain"},
		})
	}
	return out
}
