package certify

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/internal/wire"
	"github.com/hpackcert/hpackcert/oracle"
	"github.com/hpackcert/hpackcert/oracle/panel"
	"github.com/hpackcert/hpackcert/oracle/strict"
	"github.com/hpackcert/hpackcert/vectors"
)

// block is one header block of a story: the settings acknowledged before
// it and the fields to encode.
type block struct {
	acked  []uint32
	fields []Field
	// wire is the recorded encoding, for recorded stories only.
	wire []byte
}

// story is one encoding context: a fresh encoder, then its blocks in order.
type story struct {
	name   string
	blocks []block
}

// decoded is what one oracle made of one block.
type decoded struct {
	oracle string
	// fields are the decoded fields, until the block is released; count
	// is how many there were.
	fields []oracle.Field
	count  int
	err    error
	// skipped is set when an earlier block broke this oracle's context.
	skipped bool
	// known names the oracle.KnownLeniencies case that explains why the
	// oracle rejected a block the strict oracle decoded correctly: the
	// oracle's departure from RFC 7541, not the encoder's.
	known string
}

// playedBlock is one block as the encoder encoded it and the oracles
// decoded it.
//
// Memory is bounded per block, whatever the encoder sends: the wire is at
// most limits.maxBlock octets, the walk stops at the representations the
// header-list limit leaves room for, and every oracle stops decoding past
// that limit. When the scenario is played for a run, each block is judged
// by every rule as soon as it is decoded (problems) and then released:
// the wire, its representations and the decoded fields go, and only their
// sizes, a digest and the ends of the wire for reproductions stay.
type playedBlock struct {
	story *story
	index int          // in story.blocks
	prev  *playedBlock // the block before it in the story, or nil
	wire  []byte       // nil once released
	// wireLen, wireDigest and wireHex stay after the release: the wire's
	// length, its SHA-256 and its hex (shortened in the middle when long).
	wireLen    int
	wireDigest [sha256.Size]byte
	wireHex    string
	// problems holds what each rule of the run found in the block, ""
	// for none, indexed as runner.rules.
	problems []string
	// tablesCompared is how many tables (oracles' and the encoder's) were
	// compared after the block; fewer than two compare nothing.
	tablesCompared int
	// encErr is the encoder's failure; nothing after it in the story ran.
	encErr error
	reps   []wire.Representation
	// fieldOf maps each representation to the index of the field it
	// encodes, once fieldFor has been called.
	fieldOf []int
	// walkErr is set when the wire walker could not split the block.
	walkErr error
	// decoded holds every oracle's verdict; decoded[0] is strict's.
	decoded []decoded
	// strictDecoded is set when the strict oracle decoded the block; then
	// updates and warnings are its strict.Decoder.Updates and Warnings.
	strictDecoded bool
	updates       []uint32
	warnings      []strict.Warning
	// tableDiff describes the first disagreement between the encoder's
	// dynamic table (when it shows it) and the oracles' after this block.
	tableDiff string
	// maxBefore is the dynamic table's maximum size in effect when the
	// block started: 4096, or the last size update of the story's earlier
	// blocks. The wire walker, not an oracle, tracks it, so that it stays
	// right after an oracle's context broke.
	maxBefore uint32
}

func (b *playedBlock) in() *block { return &b.story.blocks[b.index] }

// transcript is a scenario played through one target.
type transcript struct {
	scenario string
	blocks   []*playedBlock
	// coverage counts what the blocks' wire exercised, and huffmanCoded
	// the octets sent inside Huffman strings that decoded to what was
	// sent, in huffmanStrings strings.
	coverage       coverageCounts
	huffmanCoded   octetSet
	huffmanStrings int
	// breakdown is the first failure of the encoder itself (an error, a
	// timeout, a crash or a panic), with the block it happened on.
	breakdown   error
	breakdownAt *playedBlock
	stderr      string
	unsupported string // why the scenario cannot run against the target
	// dropped lists the octet values left out of the scenario's fields
	// because the target's transport cannot carry them.
	dropped []byte
	// unsupportedBlocks names the blocks the encoder answered it cannot
	// express (hpack-stdio's {"unsupported": ...}), with its reason; the
	// rest of each such story was not played.
	unsupportedBlocks []string
}

// limits bound what one block may cost the certifier.
type limits struct {
	// maxBlock is the largest block, in octets, an encoder may write.
	maxBlock int
	// maxList is the largest header list, counted as name + value + 32
	// octets per field, a block may decode to; a block whose fields sent
	// are larger is allowed their size.
	maxList int
}

// DefaultMaxBlockSize and DefaultMaxHeaderListSize are the limits of
// Options.MaxBlockSize and Options.MaxHeaderListSize when unset.
const (
	DefaultMaxBlockSize      = 1 << 20
	DefaultMaxHeaderListSize = 64 << 10
)

// defaultLimits are the limits when none are given (tests).
var defaultLimits = limits{maxBlock: DefaultMaxBlockSize, maxList: DefaultMaxHeaderListSize}

// listSize returns the size of a header list as HTTP/2 counts it.
func listSize(fields []Field) int {
	n := 0
	for _, f := range fields {
		n += len(f.Name) + len(f.Value) + spec.EntryOverhead
	}
	return n
}

// decodeBlock decodes pb.wire with every decoder of the story's context
// and fills in the oracles' verdicts and the table comparison.
func decodeBlock(pb *playedBlock, p *panel.Panel, enc Encoder, maxSize *uint32, lim limits) {
	listLimit := max(lim.maxList, listSize(pb.in().fields))
	p.Acknowledge(pb.in().acked)
	p.SetMaxHeaderListSize(listLimit)
	pb.wireLen, pb.wireDigest = len(pb.wire), sha256.Sum256(pb.wire)
	// Every field adds at least 32 octets to the header list (§4.1); a
	// handful of size updates may come first.
	pb.reps, pb.walkErr = wire.WalkLimit(pb.wire, listLimit/spec.EntryOverhead+16)
	pb.maxBefore = *maxSize
	for _, r := range pb.reps {
		if r.Kind == wire.SizeUpdate {
			*maxSize = uint32(min(r.Index.Value, 1<<32-1))
		}
	}
	results := p.Decode(pb.wire)
	pb.decoded = make([]decoded, len(results))
	for i, r := range results {
		pb.decoded[i] = decoded{oracle: r.Oracle, skipped: r.Skipped, fields: r.Fields, count: len(r.Fields), err: r.Err}
	}
	if !pb.decoded[0].skipped && pb.decoded[0].err == nil {
		pb.strictDecoded = true
		pb.updates = p.Strict.Updates()
		pb.warnings = p.Strict.Warnings()
		if fieldsDiff(pb.in().fields, pb.decoded[0].fields) == "" {
			longest := 0
			for _, f := range pb.decoded[0].fields {
				longest = max(longest, len(f.Name), len(f.Value))
			}
			for i := 1; i < len(pb.decoded); i++ {
				d := &pb.decoded[i]
				if d.err == nil {
					continue
				}
				if l, ok := oracle.MatchLeniency(oracle.Disagreement{Oracle: d.oracle, Updates: len(pb.updates), LongestString: longest}); ok {
					d.known = l.Case
				}
			}
		}
	}
	pb.tableDiff, pb.tablesCompared = compareTables(p.Decoders, p.Broken, enc)
}

// release drops what the block's rules needed and keeps what the reports
// need: see playedBlock.
func (pb *playedBlock) release() {
	pb.wireHex = hexString(pb.wire)
	pb.wire, pb.reps, pb.fieldOf = nil, nil, nil
	for i := range pb.decoded {
		pb.decoded[i].fields = nil
	}
	pb.updates, pb.warnings = nil, nil
}

// wireText returns the block's wire in hex for a report, shortened in the
// middle when long, before or after the release.
func (pb *playedBlock) wireText() string {
	if pb.wire != nil || pb.wireHex == "" {
		return hexString(pb.wire)
	}
	return pb.wireHex
}

// compareTables describes the first disagreement between the tables of
// the decoders still in a defined state and the encoder's, or returns "";
// it also returns how many tables it compared.
func compareTables(ds []oracle.Decoder, broken []bool, enc Encoder) (string, int) {
	var ref []oracle.Field
	refName := ""
	compared := 0
	for i, d := range ds {
		if broken[i] {
			continue
		}
		t := d.Table()
		compared++
		if refName == "" {
			ref, refName = t, d.Name()
			continue
		}
		if diff := tableDiff(ref, t); diff != "" {
			return fmt.Sprintf("oracles %s and %s disagree: %s", refName, d.Name(), diff), compared
		}
	}
	if tr, ok := enc.(TableReader); ok && refName != "" {
		compared++
		if diff := tableDiff(ref, tr.Table()); diff != "" {
			return fmt.Sprintf("the encoder's table differs from oracle %s's: %s", refName, diff), compared
		}
	}
	return "", compared
}

// tableDiff describes how table b differs from table a, or returns "".
func tableDiff(a, b []oracle.Field) string {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i].Name != b[i].Name || a[i].Value != b[i].Value {
			return fmt.Sprintf("entry %d (index %d) is %s, not %s", i, spec.StaticTableLen+1+i, fieldString(b[i].Name, b[i].Value), fieldString(a[i].Name, a[i].Value))
		}
	}
	if len(a) != len(b) {
		return fmt.Sprintf("%d entries (size %d), not %d (size %d)", len(b), tableSize(b), len(a), tableSize(a))
	}
	return ""
}

func tableSize(t []oracle.Field) int {
	n := 0
	for _, f := range t {
		n += len(f.Name) + len(f.Value) + spec.EntryOverhead
	}
	return n
}

// strictError returns the strict oracle's error for the block, if it
// reported a violation of RFC 7541 there.
func (b *playedBlock) strictError() *strict.Error {
	var e *strict.Error
	if len(b.decoded) > 0 && errors.As(b.decoded[0].err, &e) {
		return e
	}
	return nil
}

// roundTripError describes the first oracle that did not decode the
// block to the fields sent, or returns "".
func (b *playedBlock) roundTripError() string {
	for _, d := range b.decoded {
		if d.skipped || d.known != "" {
			continue
		}
		if d.err != nil {
			return fmt.Sprintf("oracle %s: %v", d.oracle, d.err)
		}
		if diff := fieldsDiff(b.in().fields, d.fields); diff != "" {
			return fmt.Sprintf("oracle %s decoded other fields: %s", d.oracle, diff)
		}
	}
	return ""
}

func fieldsDiff(sent []Field, got []oracle.Field) string {
	for i := 0; i < len(sent) && i < len(got); i++ {
		if sent[i].Name != got[i].Name || sent[i].Value != got[i].Value {
			return fmt.Sprintf("field %d is %s, want %s", i, fieldString(got[i].Name, got[i].Value), fieldString(sent[i].Name, sent[i].Value))
		}
	}
	if len(sent) != len(got) {
		return fmt.Sprintf("%d fields, want %d", len(got), len(sent))
	}
	return ""
}

// fieldString quotes a field for a report, shortening long values.
func fieldString(name, value string) string {
	return fmt.Sprintf("%s: %s", quoteShort(name), quoteShort(value))
}

func quoteShort(s string) string {
	const max = 48
	if len(s) > max {
		return fmt.Sprintf("%q... (%d octets)", s[:max], len(s))
	}
	return fmt.Sprintf("%q", s)
}

// fieldFor returns the field a non-update representation encodes: the
// n-th field of the block for the n-th such representation. The first
// call numbers every representation, so that a loop over a block's
// representations stays linear.
func (b *playedBlock) fieldFor(repIndex int) (Field, bool) {
	if len(b.fieldOf) != len(b.reps) {
		b.fieldOf = make([]int, len(b.reps))
		n := 0
		for i, r := range b.reps {
			b.fieldOf[i] = n
			if r.Kind != wire.SizeUpdate {
				n++
			}
		}
	}
	fields := b.in().fields
	if repIndex >= len(b.fieldOf) || b.fieldOf[repIndex] >= len(fields) {
		return Field{}, false
	}
	return fields[b.fieldOf[repIndex]], true
}

// where names the block for a report.
func (b *playedBlock) where() string {
	return fmt.Sprintf("story %s, block %d", b.story.name, b.index)
}

// repro writes a self-contained reproduction of the block: the context
// that led to it (the earlier blocks of its story, inline when they are
// few) and the block itself with its wire and the oracles' verdicts.
func (b *playedBlock) repro(problem string) string {
	var sb strings.Builder
	// The problem and the errors quote what the encoder and the oracles
	// said: each is kept to one line of visible characters.
	fmt.Fprintf(&sb, "%s: %s\n", b.where(), visibleLine(problem))
	fmt.Fprintf(&sb, "reproduce: a fresh encoder (table size %d), then\n", spec.DefaultTableSize)
	const inline = 6
	start := 0
	if b.index > inline {
		start = b.index - inline
		fmt.Fprintf(&sb, "  blocks 0-%d of story %s as recorded there\n", start-1, b.story.name)
	}
	earlier := make([]*playedBlock, b.index+1)
	for p := b; p != nil; p = p.prev {
		earlier[p.index] = p
	}
	for i := start; i <= b.index; i++ {
		writeBlock(&sb, i, &b.story.blocks[i])
		if p := earlier[i]; i < b.index && p != nil && p.encErr == nil {
			fmt.Fprintf(&sb, "    wire (%d octets): %s\n", p.wireLen, p.wireText())
		}
	}
	if b.encErr != nil {
		fmt.Fprintf(&sb, "encoder error: %s\n", visibleLine(b.encErr.Error()))
		return sb.String()
	}
	fmt.Fprintf(&sb, "wire (%d octets): %s\n", b.wireLen, b.wireText())
	for _, d := range b.decoded {
		switch {
		case d.skipped:
			fmt.Fprintf(&sb, "oracle %s: not run (its context broke on an earlier block)\n", d.oracle)
		case d.known != "":
			fmt.Fprintf(&sb, "oracle %s: %s (a known leniency of the oracle, %q, not counted)\n", d.oracle, visibleLine(d.err.Error()), d.known)
		case d.err != nil:
			fmt.Fprintf(&sb, "oracle %s: %s\n", d.oracle, visibleLine(d.err.Error()))
		default:
			fmt.Fprintf(&sb, "oracle %s: decoded %d fields\n", d.oracle, d.count)
		}
	}
	return sb.String()
}

func writeBlock(sb *strings.Builder, i int, in *block) {
	fmt.Fprintf(sb, "  block %d:", i)
	if len(in.acked) > 0 {
		fmt.Fprintf(sb, " acked table sizes %v;", in.acked)
	}
	if len(in.fields) == 1 {
		fmt.Fprintf(sb, " 1 field\n")
	} else {
		fmt.Fprintf(sb, " %d fields\n", len(in.fields))
	}
	const maxFields = 12
	for j, f := range in.fields {
		if j == maxFields {
			fmt.Fprintf(sb, "    ... %d more\n", len(in.fields)-maxFields)
			break
		}
		sens := ""
		if f.Sensitive {
			sens = " (sensitive)"
		}
		fmt.Fprintf(sb, "    %s%s\n", fieldString(f.Name, f.Value), sens)
	}
}

// hexString formats wire as hex, shortened in the middle when long.
func hexString(wire []byte) string {
	const max = 256
	if len(wire) <= max {
		return hex.EncodeToString(wire)
	}
	return hex.EncodeToString(wire[:max/2]) + "..." + hex.EncodeToString(wire[len(wire)-max/2:])
}

// judging is how a run judges blocks as they are played: the rules of its
// cases, by index, and its limits. A nil *judging (tests) applies the
// default limits and keeps every block whole for the rules to be called
// on later.
type judging struct {
	rules []blockRule
	lim   limits
}

func (j *judging) limits() limits {
	if j == nil {
		return defaultLimits
	}
	return j.lim
}

// finish adds a decoded block to what its transcript accumulates, then,
// for a run, applies every rule to it and releases it.
func (j *judging) finish(tr *transcript, pb *playedBlock) {
	tr.coverage.add(pb)
	tr.addHuffman(pb)
	if j == nil {
		return
	}
	pb.problems = make([]string, len(j.rules))
	for i, rule := range j.rules {
		if problem, bad := rule(pb); bad {
			pb.problems[i] = problem
		}
	}
	pb.release()
}

// play runs the stories through a target and decodes what it wrote.
func play(t Target, name string, stories []story, j *judging) *transcript {
	tr := &transcript{scenario: name}
	if r, ok := t.(Restarter); ok {
		r.Restart()
	}
	for si := range stories {
		st := &stories[si]
		enc, err := t.NewEncoder()
		if err != nil {
			tr.breakdown = fmt.Errorf("opening a new encoding context for story %s: %w", st.name, err)
			tr.breakdownAt = &playedBlock{story: st, encErr: tr.breakdown}
			break
		}
		if !playStory(tr, st, enc, j) {
			break
		}
	}
	if s, ok := t.(StderrTail); ok {
		tr.stderr = s.StderrTail()
	}
	return tr
}

// playStory plays one story through enc and reports whether the encoder
// is still usable.
func playStory(tr *transcript, st *story, enc Encoder, j *judging) bool {
	p := panel.New()
	maxSize := uint32(spec.DefaultTableSize)
	lim := j.limits()
	var prev *playedBlock
	var buf []byte
	defer closeEncoder(enc)
	for bi := range st.blocks {
		in := &st.blocks[bi]
		pb := &playedBlock{story: st, index: bi, prev: prev}
		prev = pb
		tr.blocks = append(tr.blocks, pb)
		wire, err := encodeSafely(enc, buf[:0], in)
		if err == nil && len(wire) > lim.maxBlock {
			err = fmt.Errorf("the encoder wrote a block of %d octets, over the per-block limit of %d (Options.MaxBlockSize, --max-block); real header blocks are far smaller", len(wire), lim.maxBlock)
		}
		var unsupported interface{ Unsupported() string }
		if errors.As(err, &unsupported) {
			// The encoder cannot express this block and encoded nothing:
			// the rest of the story depends on it, the next story does not.
			pb.encErr = err
			tr.unsupportedBlocks = append(tr.unsupportedBlocks, fmt.Sprintf("%s: %s", pb.where(), unsupported.Unsupported()))
			return true
		}
		if err != nil {
			pb.encErr = err
			tr.breakdown, tr.breakdownAt = err, pb
			return false
		}
		pb.wire = bytes.Clone(wire)
		if cap(wire) <= lim.maxBlock {
			buf = wire
		}
		decodeBlock(pb, p, enc, &maxSize, lim)
		j.finish(tr, pb)
	}
	return true
}

func closeEncoder(enc Encoder) {
	if c, ok := enc.(interface{ Close() error }); ok {
		c.Close()
	}
}

// encodeSafely applies the acknowledged sizes and encodes one block,
// turning a panic of an in-process encoder into an error.
func encodeSafely(enc Encoder, dst []byte, in *block) (wire []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("encoder panicked: %v", r)
		}
	}()
	for _, n := range in.acked {
		if err := enc.SetMaxDynamicTableSize(n); err != nil {
			return nil, fmt.Errorf("SetMaxDynamicTableSize(%d): %w", n, err)
		}
	}
	return enc.EncodeBlock(dst, in.fields)
}

// playRecorded decodes the recorded wire of stories without an encoder.
func playRecorded(name string, stories []story, j *judging) *transcript {
	tr := &transcript{scenario: name}
	lim := j.limits()
	for si := range stories {
		st := &stories[si]
		p := panel.New()
		maxSize := uint32(spec.DefaultTableSize)
		var prev *playedBlock
		for bi := range st.blocks {
			pb := &playedBlock{story: st, index: bi, wire: st.blocks[bi].wire, prev: prev}
			prev = pb
			tr.blocks = append(tr.blocks, pb)
			decodeBlock(pb, p, nil, &maxSize, lim)
			j.finish(tr, pb)
		}
	}
	return tr
}

// replay returns the story of the block, cut after it, in the story
// format: a fresh encoder, then every block up to this one, with the
// settings acknowledged before each (Options.Replay). Recorded blocks keep
// their wire.
func (b *playedBlock) replay(description string) *vectors.Story {
	out := &vectors.Story{Path: b.story.name, Description: description}
	for i := 0; i <= b.index && i < len(b.story.blocks); i++ {
		in := &b.story.blocks[i]
		c := vectors.Case{Seqno: i, TableSizes: in.acked, Wire: in.wire, Headers: make([]vectors.HeaderField, len(in.fields))}
		sensitive := make([]bool, len(in.fields))
		for j, f := range in.fields {
			c.Headers[j] = vectors.HeaderField{Name: f.Name, Value: f.Value}
			sensitive[j] = f.Sensitive
		}
		if slices.Contains(sensitive, true) {
			c.Sensitive = sensitive
		}
		out.Cases = append(out.Cases, c)
	}
	return out
}
