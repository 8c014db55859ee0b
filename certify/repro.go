package certify

import (
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/internal/visible"
	"github.com/hpackcert/hpackcert/vectors"
)

// wireText returns the block's wire in hex for a report, shortened in the
// middle when long, before or after the release.
func (pb *playedBlock) wireText() string {
	if pb.wire != nil || pb.wireHex == "" {
		return hexString(pb.wire)
	}
	return pb.wireHex
}

// where names the block for a report.
func (b *playedBlock) where() string {
	return fmt.Sprintf("story %s, block %d", b.story.Path, b.index)
}

// repro writes a self-contained reproduction of the block: the context
// that led to it (the earlier blocks of its story, inline when they are
// few) and the block itself with its wire and the oracles' verdicts,
// indented under it as each earlier block's wire is under that block.
func (b *playedBlock) repro(problem string) string {
	var sb strings.Builder
	// The problem and the errors quote what the encoder and the oracles
	// said: each is kept to one line of visible characters.
	fmt.Fprintf(&sb, "%s: %s\n", b.where(), visible.Line(problem))
	fmt.Fprintf(&sb, "reproduce: a fresh encoder (table size %d), then\n", spec.DefaultTableSize)
	const inline = 6
	start := 0
	if b.index > inline {
		start = b.index - inline
		fmt.Fprintf(&sb, "  blocks 0-%d of story %s as recorded there\n", start-1, b.story.Path)
	}
	earlier := make([]*playedBlock, b.index+1)
	for p := b; p != nil; p = p.prev {
		earlier[p.index] = p
	}
	for i := start; i <= b.index; i++ {
		writeBlock(&sb, i, &b.story.Cases[i])
		if p := earlier[i]; i < b.index && p != nil && p.encErr == nil {
			writeWire(&sb, p)
		}
	}
	if b.encErr != nil {
		fmt.Fprintf(&sb, "    encoder error: %s\n", visible.Line(b.encErr.Error()))
		return sb.String()
	}
	writeWire(&sb, b)
	for _, d := range b.decoded {
		switch {
		case d.skipped:
			fmt.Fprintf(&sb, "    oracle %s: not run (its context broke on an earlier block)\n", d.oracle)
		case d.known != "":
			fmt.Fprintf(&sb, "    oracle %s: %s (a known leniency of the oracle, %q, not counted)\n", d.oracle, visible.Line(d.err.Error()), d.known)
		case d.err != nil:
			fmt.Fprintf(&sb, "    oracle %s: %s\n", d.oracle, visible.Line(d.err.Error()))
		default:
			fmt.Fprintf(&sb, "    oracle %s: decoded %d fields\n", d.oracle, d.count)
		}
	}
	return sb.String()
}

// writeWire writes a block's wire under the block; an empty block says so
// rather than end its line in a colon.
func writeWire(sb *strings.Builder, b *playedBlock) {
	if b.wireLen == 0 {
		fmt.Fprintf(sb, "    wire: empty (0 octets)\n")
		return
	}
	fmt.Fprintf(sb, "    wire (%d octets): %s\n", b.wireLen, b.wireText())
}

func writeBlock(sb *strings.Builder, i int, in *block) {
	fmt.Fprintf(sb, "  block %d:", i)
	if len(in.AckedSizes()) > 0 {
		fmt.Fprintf(sb, " acked table sizes %v;", in.AckedSizes())
	}
	if len(in.Headers) == 1 {
		fmt.Fprintf(sb, " 1 field\n")
	} else {
		fmt.Fprintf(sb, " %d fields\n", len(in.Headers))
	}
	const maxFields = 12
	for j, f := range in.Headers {
		if j == maxFields {
			fmt.Fprintf(sb, "    ... %d more\n", len(in.Headers)-maxFields)
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

// replay returns the story of the block, cut after it, in the story
// format: a fresh encoder, then every block up to this one, with the
// settings acknowledged before each (Options.Replay). Recorded blocks keep
// their wire.
func (b *playedBlock) replay(description string) *vectors.Story {
	out := &vectors.Story{Path: b.story.Path, Description: description}
	for i := 0; i <= b.index && i < len(b.story.Cases); i++ {
		in := &b.story.Cases[i]
		out.Cases = append(out.Cases, vectors.Case{Seqno: i, TableSizes: in.AckedSizes(), Wire: in.Wire, Headers: slices.Clone(in.Headers)})
	}
	return out
}
