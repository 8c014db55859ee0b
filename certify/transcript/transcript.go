// Package transcript is what a source hands the certification engine
// (DESIGN.md: source → transcript → engine → report), one type per side.
// For the encoder side (transcript.go), the header blocks a target's
// encoder wrote, story by story, each with the SETTINGS_HEADER_TABLE_SIZE
// values acknowledged before it, the fields it was to carry where the
// source knows them, and its wire; a source that plays a scenario
// against its target itself hands the engine that scenario's transcript
// through one interface, EncoderPlayer. The package imports no engine
// and no oracle, so that a source can produce transcripts without them.
//
// Which sources produce transcripts themselves, and which the engine
// still plays:
//
//   - recorded wire (source/recorded) reads story files into a Recording
//     (FromStories); the engine's target for it (certify.Recorded) is an
//     EncoderPlayer that answers each scenario with the recording's
//     stories of that scenario;
//   - live capture (source/live) hands certify/livegrade what it
//     captured, and livegrade converts it into a Recording the same way,
//     so that a capture and a recording are graded from the same type;
//   - in-process encoders (source/inprocess) and hpack-stdio programs
//     (source/stdio) are still played by the engine itself, through
//     certify.Target and certify.Encoder: the engine chooses each block's
//     fields and settings, and must compare the encoder's dynamic table
//     (certify.TableReader) after each block, while the block is decoded.
//
// Memory stays bounded for the sources the engine plays: there is no
// Encoder transcript of them in memory at once, each block being judged
// as soon as it is encoded and decoded, then released (certify's
// transcript.go). A Recording is held whole by its source, as the story
// files or the capture it comes from were; the engine judges its blocks
// one by one and keeps of each only what the reports need.
//
// The decoder side's transcript (decoder.go) is a story's blocks, each
// with the settings it was sent under (DecoderBlock), and the decoder's
// answer to each (DecoderAnswer: the fields, or the refusal, and the
// table). Every decoder source is still played by the engine through
// one interface, decoders.DecoderTarget: the engine chooses the blocks,
// sends each to a fresh or ongoing context and records the answer as a
// DecoderAnswer, which it judges at once and drops, so that a decoder
// that expands a header-list bomb costs one block's memory.
package transcript

import (
	"github.com/hpackcert/hpackcert/internal/spec"
)

// The scenarios a recording can be asked for. A recording carries only
// its own blocks: a story of real traffic plays under ScenarioTraffic, a
// story driven by a generated schedule (Story.Generated) under
// ScenarioGenerated, which stands for every generated and targeted
// scenario of the engine's.
const (
	ScenarioTraffic   = "traffic"
	ScenarioGenerated = "generated"
)

// Block is one header block a target's encoder wrote.
type Block struct {
	// Acked lists the SETTINGS_HEADER_TABLE_SIZE values the target
	// acknowledged since its previous block, in order: the settings its
	// encoder wrote the block under.
	Acked []uint32
	// Sent is the header list the block is to decode to, in order, each
	// field's Sensitive set when it must be sent never-indexed. A source
	// that cannot know what the encoder was given puts there what it
	// infers (Recording.InferredLists).
	Sent []spec.Field
	// Wire is the header block, its CONTINUATION fragments joined.
	Wire []byte
}

// Story is one encoding context: a fresh encoder, then its blocks in
// the order it wrote them.
type Story struct {
	// Name names the story in reports ("story NAME, block 3"): a story
	// file's base name, a live connection's name.
	Name   string
	Blocks []Block
	// Generated is set when the blocks carry lists built for the cases
	// (a generated schedule) rather than real traffic: the story plays
	// under ScenarioGenerated.
	Generated bool
	// ReplayOf names the story of the same recording whose input this
	// story plays again from a fresh context (enc/2.2/1 compares them),
	// or is empty.
	ReplayOf string
}

// Encoder is the encoder side's transcript: one scenario played against
// one target.
type Encoder struct {
	// Scenario names the scenario (ScenarioTraffic, ScenarioGenerated).
	Scenario string
	Stories  []Story
	// Unsupported, when set, says why the scenario cannot be played
	// against the target; Stories is then empty.
	Unsupported string
}

// EncoderPlayer is implemented by a target whose source plays scenarios
// itself: the engine asks it for each scenario a case needs, once, and
// grades the transcript it answers with. An error means the scenario
// could not be played at all (not an encoder's misbehaviour, which its
// blocks show).
type EncoderPlayer interface {
	Play(scenario string) (*Encoder, error)
}

// Recording is what a source recorded of one encoder target before the
// engine grades it: every story, whatever its scenario, and the facts
// about the recording the grading needs.
type Recording struct {
	// Target names the target in reports and expected failures; Where
	// (a directory, a file, a server's address) names the recording in
	// errors.
	Target, Where string
	Stories       []Story
	// WithoutWire names the story files that held header lists and no
	// wire: nothing any encoder wrote, so nothing to grade.
	WithoutWire []string
	// Role is "request" or "response" for a recording of HTTP field
	// sections of one role (a live target's), or empty: coverage then
	// says how much of each set that role can carry at all.
	Role string
	// InferredLists is set when each Block.Sent is what the source gave
	// the target to relay or answer with, not exactly what its encoder
	// was given: a list every oracle decodes alike but otherwise is then
	// the target's own doing, reported once, not a defect of its encoder.
	InferredLists bool
	// Breakdown, when set, is how the target stopped before its source
	// recorded all it was to record: the target's one failure. What was
	// recorded is still graded.
	Breakdown error
}
