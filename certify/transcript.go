package certify

import (
	"crypto/sha256"

	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/internal/wire"
	"github.com/hpackcert/hpackcert/oracle"
	"github.com/hpackcert/hpackcert/oracle/strict"
	"github.com/hpackcert/hpackcert/vectors"
)

// story is one encoding context as the engine plays it: a fresh encoder,
// then its blocks in order. It is the story format's type (vectors.Story):
// Path names the story in reports, each block is a vectors.Case, with the
// settings acknowledged before it (Case.AckedSizes), the fields to encode
// and, for recorded stories, the wire.
type story = vectors.Story

// block is one header block of a story (vectors.Case).
type block = vectors.Case

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
	index int          // in story.Cases
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

	// ev is what the block held, for the evidence of the cases judging it.
	ev blockEvidence
	// root is the first block of the story at which the encoder's output
	// and the decoders' view diverged, set on it and every block after it:
	// those after it are consequences, judged by no case (diagnose.go).
	root *playedBlock
	// owner is the case the divergence is filed under, set on the root
	// block when its story ends, and rootProblem what that case reports;
	// diverged says how the block diverged.
	owner, rootProblem, diverged string
	// dynamic is set on a root block whose first wrong field came from a
	// reference to the dynamic table (dynamicMismatch); scenario names the
	// root's scenario, explainers are the models that explain its
	// divergence, and byCause is set when a rule of diagnose.go's first
	// step owns it.
	dynamic    bool
	scenario   string
	explainers []*model
	byCause    bool
	// clean is set when the block came before any divergence and every
	// oracle decoded it to the fields sent (or rejected it by a known
	// leniency of its own): the blocks side results come from.
	clean bool
	// asRelayed, on a block whose list was inferred (Recording.InferredLists)
	// and that every oracle decodes alike and without error to another
	// list, is the block with that list, each field keeping the sensitive
	// mark of the one it stands for: the block is judged as it decodes.
	// relayed records how that list differs from the one inferred.
	asRelayed *block
	relayed   []listChange
}

// in returns the block as it is judged: the story's, or asRelayed.
func (b *playedBlock) in() *block {
	if b.asRelayed != nil {
		return b.asRelayed
	}
	return &b.story.Cases[b.index]
}

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
	// afterBreakdown, when set, is the scenario the encoder broke down
	// in before this one, which was then not played.
	afterBreakdown *transcript
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
