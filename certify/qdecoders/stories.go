package qdecoders

import (
	"fmt"
	"strings"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/oracle/qstrict"
	"github.com/hpackcert/hpackcert/qencoder"
	"github.com/hpackcert/hpackcert/vectors/qif"
)

// stepKind is what one step of a story hands the decoder.
type stepKind uint8

const (
	encoderStep stepKind = iota + 1 // octets of the encoder stream
	sectionStep                     // the field section of a request stream
	cancelStep                      // the reset of a request stream
)

// step is one call of a story on the decoder.
type step struct {
	kind   stepKind
	stream uint64
	data   []byte
	// feats is what the step's octets use (prepare fills it in).
	feats  feature
	expect expectation
}

// story is one connection: the settings the decoder sent and the steps,
// in order. Its expectations are the strict decoder's (prepare).
type story struct {
	name     string
	settings qpack.Settings
	steps    []step
}

// needsTable reports whether the story needs a decoder with a dynamic
// table: a capacity to set, or octets on the encoder stream.
func (s *story) needsTable() bool {
	if s.settings.MaxTableCapacity > 0 {
		return true
	}
	for _, st := range s.steps {
		if st.kind == encoderStep {
			return true
		}
	}
	return false
}

// builder writes a story step by step.
type builder struct{ s story }

func newStory(name string, set qpack.Settings) *builder {
	return &builder{s: story{name: name, settings: set}}
}

func (b *builder) enc(data octets) *builder {
	b.s.steps = append(b.s.steps, step{kind: encoderStep, data: data})
	return b
}

// encPieces hands data to the decoder in pieces of n octets, cutting
// instructions anywhere.
func (b *builder) encPieces(data []byte, n int) *builder {
	for len(data) > n {
		b.enc(data[:n])
		data = data[n:]
	}
	if len(data) > 0 {
		b.enc(data)
	}
	return b
}

func (b *builder) section(stream uint64, data octets) *builder {
	b.s.steps = append(b.s.steps, step{kind: sectionStep, stream: stream, data: data})
	return b
}

func (b *builder) cancel(stream uint64) *builder {
	b.s.steps = append(b.s.steps, step{kind: cancelStep, stream: stream})
	return b
}

func (b *builder) done() story { return b.s }

// The settings the stories run under.
var (
	staticOnly = qpack.Settings{}
	withTable  = qpack.Settings{MaxTableCapacity: 4096, BlockedStreams: 16}
	smallTable = qpack.Settings{MaxTableCapacity: 100, BlockedStreams: 4} // MaxEntries 3
)

// inputs is what the traffic stories are built from.
type inputs struct {
	static, dynamic, cut []story
}

// defaultTrafficLists is how many header lists of each QIF file a
// traffic story encodes: 7 files, about 300 sections in each set of
// stories, a run of seconds.
const defaultTrafficLists = 40

// trafficStories encodes the first lists header lists of each QIF file
// with the reference encoder, three ways: under settings with no table
// (the static table only), with a 4 KiB table, and with that table's
// encoder-stream octets handed over in pieces of 5 octets. The encoder is
// fed the strict decoder's decoder-stream octets after each section, so
// that it references the entries acknowledged.
func trafficStories(lists int) (*inputs, error) {
	if lists <= 0 {
		lists = defaultTrafficLists
	}
	files, err := qif.Traffic()
	if err != nil {
		return nil, err
	}
	in := &inputs{}
	for _, f := range files {
		name := strings.TrimSuffix(f.Name, ".qif")
		hl := f.HeaderLists
		if len(hl) > lists {
			hl = hl[:lists]
		}
		for _, v := range []struct {
			set   qpack.Settings
			piece int
			to    *[]story
			name  string
		}{{staticOnly, 0, &in.static, "static"}, {withTable, 0, &in.dynamic, "table"}, {withTable, 5, &in.cut, "table-cut"}} {
			s, err := encodeLists(name+"-"+v.name, v.set, hl, v.piece)
			if err != nil {
				return nil, err
			}
			*v.to = append(*v.to, s)
		}
	}
	return in, nil
}

// encodeLists is the story of the reference encoder sending lists on
// streams 0, 4, 8... under settings set, its encoder-stream octets cut
// in pieces of piece octets (0: whole).
func encodeLists(name string, set qpack.Settings, lists [][]Field, piece int) (story, error) {
	e := qencoder.New(qencoder.Config{TableCapacity: uint32(set.MaxTableCapacity), PeerMaxTableCapacity: set.MaxTableCapacity, BlockedStreams: set.BlockedStreams})
	d := qstrict.New(qstrict.Settings(set))
	b := newStory(name, set)
	for i, l := range lists {
		stream := uint64(4 * i)
		section, enc := e.AppendSection(nil, nil, stream, l)
		if len(enc) > 0 {
			if piece > 0 {
				b.encPieces(enc, piece)
			} else {
				b.enc(enc)
			}
			if err := d.EncoderStream(enc); err != nil {
				return story{}, fmt.Errorf("qdecoders: the reference encoder's stream for %s, list %d: %w", name, i, err)
			}
		}
		b.section(stream, section)
		if _, _, err := d.DecodeSection(stream, section); err != nil {
			return story{}, fmt.Errorf("qdecoders: the reference encoder's section for %s, list %d: %w", name, i, err)
		}
		if _, err := e.DecoderStream(d.DecoderStreamOut()); err != nil {
			return story{}, fmt.Errorf("qdecoders: the reference encoder refused the strict decoder's stream for %s, list %d: %w", name, i, err)
		}
	}
	return b.done(), nil
}

// postBaseStories reference entries inserted after the Base, by index and
// by name, alongside relative references (§3.2.6, §4.5.3, §4.5.5).
func postBaseStories() []story {
	enc := setCapacity(4096).insertLiteral("x-a", "1").insertLiteral("x-b", "2").insertStatic(2, "*/*")
	return []story{
		newStory("post-base", withTable).enc(enc).
			section(0, prefix(3, 0, 128).postBase(0).postBase(2).postBaseName(1, "v", false).static(25)).
			section(4, prefix(3, 1, 128).dynamic(0).postBase(1).postBaseName(0, "w", false).literal("x-c", "3", false, true)).done(),
	}
}

// duplicateStories insert entries equal to others, by a second insert and
// by Duplicate (§3.2, §4.3.4), and reference both copies.
func duplicateStories() []story {
	enc := setCapacity(4096).insertLiteral("x-d", "1").insertLiteral("x-d", "1").duplicate(0).duplicate(2)
	return []story{
		newStory("duplicates", withTable).enc(enc).
			section(0, prefix(4, 4, 128).dynamic(0).dynamic(1).dynamic(2).dynamic(3)).done(),
	}
}

// blockedStories send sections before the inserts they need (§2.2.1):
// one stream, two streams waiting for different counts, and the inserts
// cut in pieces.
func blockedStories() []story {
	ins := octets(nil).insertLiteral("x-e", "one").insertLiteral("x-f", "two")
	return []story{
		newStory("blocked-one", withTable).enc(setCapacity(4096)).
			section(0, prefix(1, 1, 128).dynamic(0)).enc(ins).done(),
		newStory("blocked-two", withTable).enc(setCapacity(4096)).
			section(0, prefix(2, 2, 128).dynamic(0).dynamic(1)).
			section(4, prefix(1, 0, 128).postBase(0).static(17)).
			encPieces(ins, 3).section(8, prefix(2, 2, 128).dynamic(1).dynamic(0)).done(),
	}
}

// wrapStories insert many more entries than the small table holds, each
// referenced by a section, so that the encoded Required Insert Count
// wraps around 2*MaxEntries several times (§4.5.1.1).
func wrapStories() []story {
	const maxEntries = 3 // smallTable
	b := newStory("wrap-around", smallTable).enc(setCapacity(100))
	for i := uint64(1); i <= 20; i++ {
		b.enc(octets(nil).insertLiteral("x", fmt.Sprint(i%10)))
		b.section(4*i, prefix(i, i, maxEntries).dynamic(0).static(1))
	}
	return []story{b.done()}
}

// anyBaseStories are sections with no dynamic reference whose Base is
// not 0 (§4.5.1.2: such a section "can use any value for the Base").
func anyBaseStories() []story {
	lines := octets(nil).static(17).literal("x-g", "h", false, false)
	var out []story
	for _, delta := range []uint64{1, 1000, 1<<62 - 1} {
		out = append(out, newStory(fmt.Sprintf("base-%d", delta), staticOnly).
			section(0, append(rawPrefix(0, false, delta), lines...)).done())
	}
	return out
}

// sensitiveStories carry the N bit on every literal form (§4.5.4-§4.5.6).
func sensitiveStories() []story {
	return []story{
		newStory("never-static", staticOnly).section(0, prefix(0, 0, 0).
			staticName(1, "/secret", true).literal("x-token", "abc", true, true).literal("x-open", "1", false, false)).done(),
		newStory("never-dynamic", withTable).enc(setCapacity(4096).insertLiteral("authorization", "x")).
			section(0, prefix(1, 1, 128).dynamicName(0, "secret", true)).
			enc(octets(nil).insertLiteral("cookie", "y")).
			section(4, prefix(2, 1, 128).postBaseName(0, "c=1", true).dynamicName(0, "open", false)).done(),
	}
}
