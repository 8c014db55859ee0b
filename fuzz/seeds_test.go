package fuzz

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/vectors"
)

var updateSeeds = flag.Bool("update", false, "rewrite the generated seeds in ../corpus/<Target>/")

// storyPrefix starts the names of the seeds made from generated stories.
const storyPrefix = "story-"

// storySeedOctets is what a seed made from a story may grow to: cases
// are added, in order, while the seed stays within it; a case larger on
// its own makes a seed of its own, cut where ParseScript stops reading.
// Whole stories made seeds of up to 60 KB, which libFuzzer builds ran at a
// dozen execs a second.
const storySeedOctets = MaxScriptInput

// seeds returns the generated seeds, target to file name to contents: RFC
// 7541 Appendix C, the generated stories of vectors/testdata/generated,
// integer boundaries, the malformed blocks every decoder must reject and
// the blocks of the dec/ catalogue's stories (decStorySeeds).
// Seeds whose name starts with storyPrefix follow the generated stories and
// the reference encoder's output, which change under their own owners; any
// version of them is a good seed, so TestSeeds only writes them.
func seeds(t *testing.T) map[string]map[string][]byte {
	t.Helper()
	out := map[string]map[string][]byte{}
	add := func(target, name string, data []byte) {
		if out[target] == nil {
			out[target] = map[string][]byte{}
		}
		if _, dup := out[target][name]; dup {
			t.Fatalf("seed %s/%s made twice", target, name)
		}
		for _, earlier := range out[target] {
			if bytes.Equal(earlier, data) {
				return // the same input under another name
			}
		}
		out[target][name] = data
	}
	addScript := func(name string, s *Script) {
		b, err := s.Bytes()
		if err != nil {
			t.Fatalf("seed %s: %v", name, err)
		}
		add(targetEncodeRoundTrip, name, b)
		add(targetCertifyXNetEncoder, name, b)
	}
	addSession := func(name string, s *Session) {
		b, err := s.Bytes()
		if err != nil {
			t.Fatalf("seed %s: %v", name, err)
		}
		add(targetDecoderDifferential, name, b)
	}

	for _, seq := range vectors.RFCAppendixC() {
		name := "rfc-" + seq.Section
		s := &Script{Capacity: seq.TableSize, IndexAll: true}
		session := &Session{}
		for i, step := range seq.Steps {
			for j, h := range step.Headers {
				s.Ops = append(s.Ops, Op{Kind: OpField, Name: h.Name, Value: h.Value})
				add(targetHuffman, fmt.Sprintf("%s-%d-%d", name, i+1, j+1), []byte(h.Value))
			}
			s.Ops = append(s.Ops, Op{Kind: OpEndBlock})
			session.Steps = append(session.Steps, Step{Block: step.Wire})
		}
		addScript(name, s)
		addSession(name, session)
	}
	for _, ex := range vectors.FieldExamples() {
		addSession("rfc-"+ex.Section, &Session{Steps: []Step{{Block: ex.Wire}}})
	}

	stories, err := vectors.ReadStoryDir(filepath.Join("..", "vectors", "testdata", "generated"))
	if err != nil {
		t.Fatal(err)
	}
	for _, story := range stories {
		base := filepath.Base(story.Path)
		base = strings.TrimPrefix(base[:len(base)-len(filepath.Ext(base))], "story_")
		for start := 0; start < len(story.Cases); {
			end := start + 1
			for end < len(story.Cases) && scriptLen(t, wholeStoryScript(story.Cases[start:end+1])) <= storySeedOctets {
				end++
			}
			name := fmt.Sprintf("%s%s-%03d", storyPrefix, base, start)
			s := storyScript(story.Cases[start:end])
			addScript(name, s)
			addSession(name, fitSession(t, encodeSession(s)))
			start = end
		}
	}

	// Blocks without fields that carry size updates (AppendSizeUpdates).
	addScript("empty-blocks-updates", &Script{Capacity: 4096, Ops: []Op{
		{Kind: OpField, Name: "custom-key", Value: "custom-value"},
		{Kind: OpTableSize, Size: 0}, {Kind: OpEndBlock},
		{Kind: OpField, Name: "custom-key", Value: "custom-value"},
		{Kind: OpTableSize, Size: 100}, {Kind: OpTableSize, Size: 4096}, {Kind: OpEndBlock},
		{Kind: OpField, Name: "custom-key", Value: "custom-value"},
		{Kind: OpTableSize, Size: 40}, {Kind: OpTableSize, Size: 4096}, {Kind: OpEndBlock},
		{Kind: OpEndBlock},
		{Kind: OpField, Name: "custom-key", Value: "custom-value"},
	}})
	addScript("empty-block-capacity-256", &Script{Capacity: 256, Ops: []Op{{Kind: OpEndBlock}, {Kind: OpField, Name: ":path", Value: "/"}}})

	// Values around each prefix's boundaries (2^N-1 and 2^N-1+128 start a
	// new octet) and the examples of RFC 7541 C.1, for each representation.
	for kind := range intKinds {
		values := []uint32{0, 1, 10, 42, 1337}
		for _, n := range []uint32{4, 5, 6, 7} {
			limit := uint32(1)<<n - 1
			values = append(values, limit-1, limit, limit+127, limit+128, limit+16383, limit+16384)
		}
		for _, v := range values {
			if kind >= intIndexed {
				v-- // CheckInteger reads index v as 1 + v
			}
			add(targetInteger, fmt.Sprintf("kind%d-%d", kind, v), binary.BigEndian.AppendUint32([]byte{byte(kind)}, v))
		}
	}

	// Values up to 2^64-1 for checkIntegerDirect, which reads octets 1-8.
	for _, v := range []uint64{1<<64 - 1, 1<<64 - 2, 1<<64 - 256, 1 << 63, 1<<63 - 1, 1<<56 - 1, 1 << 56, 1<<32 - 1} {
		for _, pattern := range []byte{0x00, 0xff} {
			add(targetInteger, fmt.Sprintf("u64-%02x-%d", pattern, v), binary.BigEndian.AppendUint64([]byte{pattern}, v))
		}
	}

	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	add(targetHuffman, "all-octets-00-7f", all[:128])
	add(targetHuffman, "all-octets-80-ff", all[128:])
	add(targetHuffman, "empty", nil)
	// Huffman codes for the reference decoder's leg (huffmanDecode):
	// canonical ones, and one breaking each rule of §5.2.
	add(targetHuffman, "coded-printable-ascii", encoder.AppendHuffman(nil, all[' ':'~'+1]))
	add(targetHuffman, "coded-www.example.com", encoder.AppendHuffmanString(nil, "www.example.com"))
	add(targetHuffman, "coded-eos", []byte{0xff, 0xff, 0xff, 0xff})
	add(targetHuffman, "coded-padding-8-bits", []byte{0x1f, 0xff})
	add(targetHuffman, "coded-padding-zeros", []byte{0x18})

	// Blocks every decoder must reject (the h2spec HPACK cases and §5),
	// each after a valid block so the table is not empty.
	for name, block := range map[string][]byte{
		"index-0":                 {0x80},
		"index-past-table":        {0xc0},
		"name-index-past-table":   {0x7f, 0x10, 0x01, 'v'},
		"update-after-field":      {0x82, 0x3f, 0xe1, 0x1f},
		"update-above-setting":    {0x3f, 0xe2, 0x1f},
		"huffman-padding-8-bits":  {0x00, 0x81, 0x1f, 0x82, 0x1f, 0xff},
		"huffman-padding-zeros":   {0x00, 0x81, 0x1c, 0x81, 0x1c},
		"huffman-eos-in-string":   {0x00, 0x81, 0x1f, 0x84, 0xff, 0xff, 0xff, 0xff},
		"integer-cut-off":         {0xff, 0x80},
		"integer-overlong":        {0xff, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00},
		"integer-over-2-to-32":    {0x3f, 0xff, 0xff, 0xff, 0xff, 0x7f},
		"string-past-block":       {0x00, 0x05, 'a'},
		"setting-down-no-update":  nil,
		"setting-down-up-pair":    nil,
		"setting-down-up-no-pair": nil,
	} {
		var s *Session
		switch name {
		case "setting-down-no-update":
			s = &Session{Steps: []Step{{Block: []byte{0x40, 0x01, 'a', 0x01, 'b'}}, {IsSetting: true, Size: 0}, {Block: []byte{0x82}}}}
		case "setting-down-up-pair":
			s = &Session{Steps: []Step{{Block: []byte{0x40, 0x01, 'a', 0x01, 'b'}}, {IsSetting: true, Size: 100}, {IsSetting: true, Size: 4096}, {Block: []byte{0x3f, 0x45, 0x3f, 0xe1, 0x1f, 0xbe}}}}
		case "setting-down-up-no-pair":
			s = &Session{Steps: []Step{{Block: []byte{0x40, 0x01, 'a', 0x01, 'b'}}, {IsSetting: true, Size: 100}, {IsSetting: true, Size: 4096}, {Block: []byte{0xbe}}}}
		default:
			s = &Session{Steps: []Step{{Block: []byte{0x40, 0x01, 'a', 0x01, 'b'}}, {Block: block}}}
		}
		addSession("bad-"+name, s)
	}
	for _, seed := range decStorySeeds(t) {
		addSession(seed.name, seed.session)
	}
	return out
}

// storyScript turns story cases into a script: each acknowledged setting,
// then the fields, then the end of the block.
func storyScript(cases []vectors.Case) *Script {
	// Keep what ParseScript keeps of it, less an op it reads cut whose
	// missing octets would make the seed longer than it reads.
	b, _ := wholeStoryScript(cases).Bytes()
	s := ParseScript(b)
	for b, _ = s.Bytes(); len(b) > MaxScriptInput; b, _ = s.Bytes() {
		s.Ops = s.Ops[:len(s.Ops)-1]
	}
	return s
}

// wholeStoryScript is storyScript before ParseScript cuts it to the bounds.
func wholeStoryScript(cases []vectors.Case) *Script {
	s := &Script{}
	for _, c := range cases {
		for _, size := range c.AckedSizes() {
			s.Ops = append(s.Ops, Op{Kind: OpTableSize, Size: size})
		}
		for _, h := range c.Headers {
			s.Ops = append(s.Ops, Op{Kind: OpField, Name: h.Name, Value: h.Value[:min(len(h.Value), MaxString)], Sensitive: h.Sensitive})
		}
		s.Ops = append(s.Ops, Op{Kind: OpEndBlock})
	}
	return s
}

func scriptLen(t *testing.T, s *Script) int {
	t.Helper()
	b, err := s.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}

// fitSession drops steps from the end of s until ParseSession reads all of
// it (MaxSessionInput), so that no block of it is cut.
func fitSession(t *testing.T, s *Session) *Session {
	t.Helper()
	for {
		b, err := s.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		if len(b) <= MaxSessionInput {
			return s
		}
		s.Steps = s.Steps[:len(s.Steps)-1]
	}
}

// encodeSession encodes a script with the reference encoder and returns
// what the decoder side sees, settings and blocks.
func encodeSession(s *Script) *Session {
	enc := encoder.New(encoder.Config{Capacity: s.Capacity})
	out := &Session{}
	var block []byte
	flush := func() {
		if len(block) > 0 && len(block) < 1<<12 {
			out.Steps = append(out.Steps, Step{Block: bytes.Clone(block)})
		}
		block = block[:0]
	}
	for _, op := range s.Ops {
		switch op.Kind {
		case OpField:
			block = enc.AppendFieldString(block, op.Name, op.Value, op.Sensitive)
		case OpTableSize:
			flush()
			enc.SetMaxDynamicTableSize(op.Size)
			out.Steps = append(out.Steps, Step{IsSetting: true, Size: op.Size})
		default:
			flush()
		}
	}
	flush()
	return out
}

// TestSeeds checks that corpus/<Target>/ holds every generated seed that
// does not follow the stories or the encoder; with -update it writes them
// all. Run go run ./corpus/cmd/corpussync afterwards to carry them into
// testdata/fuzz/.
func TestSeeds(t *testing.T) {
	checkSeeds(t, seeds(t), storyPrefix, "TestSeeds")
}

// checkSeeds checks that corpus/<Target>/ holds each of seeds (target to
// file name to contents) but those whose name starts with followPrefix,
// which follow code with other owners; with -update it writes them all.
// test names the test that made them, for the way to update them.
func checkSeeds(t *testing.T, seeds map[string]map[string][]byte, followPrefix, test string) {
	t.Helper()
	for target, files := range seeds {
		dir := filepath.Join("..", "corpus", target)
		names := make([]string, 0, len(files))
		for name := range files {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			path := filepath.Join(dir, name)
			if *updateSeeds {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, files[name], 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if strings.HasPrefix(name, followPrefix) {
				continue
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Errorf("seed %s: %v (run go test ./fuzz -run %s -update, then go run ./corpus/cmd/corpussync)", path, err, test)
				continue
			}
			if !bytes.Equal(got, files[name]) {
				t.Errorf("seed %s is out of date (run go test ./fuzz -run %s -update, then go run ./corpus/cmd/corpussync)", path, test)
			}
		}
	}
}

// TestSeedsWithinBounds checks that the parsers read every generated seed
// of the script and session targets to its end, and that no Huffman seed
// is longer than what CheckHuffman reads: a seed cut by a bound
// (MaxScriptInput, MaxScriptListSize, MaxScriptBlocks, MaxSessionInput,
// MaxSessionSteps, MaxHuffmanInput) would have the engine mutate octets
// that change nothing. Inputs a fuzzer found may be longer; the parsers
// read what the bounds allow of them.
func TestSeedsWithinBounds(t *testing.T) {
	read := map[string]func([]byte) int{
		targetEncodeRoundTrip:      func(b []byte) int { return new(Script).parse(b) },
		targetCertifyXNetEncoder:   func(b []byte) int { return new(Script).parse(b) },
		targetDecoderDifferential:  func(b []byte) int { return new(Session).parse(b) },
		targetHuffman:              func(b []byte) int { return min(len(b), MaxHuffmanInput) },
		targetQPACKEncodeRoundTrip: func(b []byte) int { return new(QScript).parse(b) },
		targetQPACKDecoders:        func(b []byte) int { return new(QSession).parse(b) },
	}
	all := seeds(t)
	for target, files := range qpackSeeds(t) {
		all[target] = files
	}
	for target, files := range all {
		parse, ok := read[target]
		if !ok {
			continue
		}
		for name, in := range files {
			if n := parse(in); n != len(in) {
				t.Errorf("%s/%s: %d of its %d octets are read; a bound stops the rest", target, name, n, len(in))
			}
		}
	}
}
