package certify

import (
	"fmt"

	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/internal/wire"
)

// instanceKind is what a case counts as one judged instance of its rule.
type instanceKind uint8

const (
	instBlocks          instanceKind = iota // blocks decoded and compared with the fields sent
	instTables                              // blocks after which two tables or more were compared
	instInsertions                          // entries added to the dynamic table
	instLowered                             // blocks after one lowered setting
	instSeveral                             // blocks after several settings, the smallest below the table's size
	instUpdateBlocks                        // blocks that carry size updates
	instEmptyAfter                          // blocks without fields after a setting change
	instResizeEvictions                     // entries evicted by a size update
	instInsertEvictions                     // entries evicted to make room for a new one
	instOversized                           // fields larger than the dynamic table
	instIntegers                            // integers
	instHuffman                             // Huffman-coded strings
	instSizeUpdates                         // dynamic table size updates
	instSensitive                           // fields marked sensitive
	instCredentials                         // authorization and short cookie fields
)

// instanceNames are the nouns of the kinds, and notExercised why a case
// of the kind judged nothing.
var instanceNames = [...]struct{ noun, notExercised string }{
	instBlocks:          {"blocks", "no block was decoded and compared with the fields sent"},
	instTables:          {"table comparisons", "no block left two tables to compare: every oracle but one rejected the blocks, and the encoder does not show its table"},
	instInsertions:      {"insertions", "the encoder added no entry to the dynamic table (it sent no literal with incremental indexing)"},
	instLowered:         {"lowered settings", "no block followed a single SETTINGS_HEADER_TABLE_SIZE below the table's maximum size"},
	instSeveral:         {"setting intervals", "no block followed several SETTINGS_HEADER_TABLE_SIZE values"},
	instUpdateBlocks:    {"blocks with size updates", "the encoder sent no dynamic table size update"},
	instEmptyAfter:      {"empty blocks after a setting", "no block without fields followed a setting change"},
	instResizeEvictions: {"evictions by size update", "no dynamic table size update evicted an entry (the encoder's table held nothing to evict when it shrank)"},
	instInsertEvictions: {"evictions by insertion", "no new entry evicted an old one (the encoder did not fill its dynamic table)"},
	instOversized:       {"fields larger than the table", "no field larger than the dynamic table was judged"},
	instIntegers:        {"integers", "no integer was judged"},
	instHuffman:         {"Huffman strings", "the encoder Huffman-coded no string (Huffman coding is optional)"},
	instSizeUpdates:     {"size updates", "the encoder sent no dynamic table size update"},
	instSensitive:       {"sensitive fields", "no block with a field marked sensitive was judged"},
	instCredentials:     {"credential fields", "no authorization, proxy-authorization or short cookie field was judged"},
}

// blockEvidence is what one block held, counted when it is decoded (the
// representations are released afterwards).
type blockEvidence struct {
	reps, fields, insertions, sizeUpdates, huffman, sensitive, integers, credentials int
	resizeEvictions, insertEvictions, oversized                                      int
	// strings and incremental count the string literals and the literals
	// with incremental indexing the encoder wrote, whatever the strict
	// oracle made of them, and roomy those of the literals written while
	// the table's maximum size could hold an entry (32 octets or more):
	// an insertion into a smaller table holds nothing (optionalUse).
	strings, incremental, roomy               int
	lowered, several, emptyAfter, updateBlock bool
	// afterSetting: settings were acknowledged before the block;
	// afterSettingRoom: and the encoder's table was above 0 then, so that
	// a setting could fall below it (optionalUse).
	afterSetting, afterSettingRoom bool
}

// count computes the block's evidence from its walk, its fields and what
// the strict oracle did with it.
func (b *playedBlock) count(events tableEvents) {
	e := &b.ev
	in := b.in()
	e.reps, e.fields = len(b.reps), len(in.Headers)
	for _, f := range in.Headers {
		if f.Sensitive {
			e.sensitive++
		}
		if isCredential(f) {
			e.credentials++
		}
		if uint64(len(f.Name))+uint64(len(f.Value))+spec.EntryOverhead > uint64(b.maxBefore) {
			e.oversized++
		}
	}
	maxSize := uint64(b.maxBefore)
	for _, r := range b.reps {
		e.integers++
		switch r.Kind {
		case wire.SizeUpdate:
			e.sizeUpdates++
			maxSize = r.Index.Value
			continue
		case wire.Incremental:
			e.incremental++
			if maxSize >= spec.EntryOverhead {
				e.roomy++
			}
			if !events.known {
				e.insertions++
			}
		}
		for _, s := range []*wire.String{r.Name, r.Value} {
			if s != nil {
				e.strings++
				e.integers++
				if s.Huffman {
					e.huffman++
				}
			}
		}
	}
	if events.known {
		e.insertions = events.inserted
		e.resizeEvictions, e.insertEvictions = events.byUpdate, events.byInsertion
	}
	acked := in.AckedSizes()
	e.updateBlock = e.sizeUpdates > 0
	e.lowered = len(acked) == 1 && acked[0] < b.maxBefore && len(in.Headers) > 0
	e.several = len(acked) >= 2 && len(in.Headers) > 0
	e.emptyAfter = len(acked) > 0 && len(in.Headers) == 0
	e.afterSetting = len(acked) > 0
	e.afterSettingRoom = len(acked) > 0 && b.maxBefore > 0
}

// tableEvents is the strict oracle's strict.TableEvents for a block it
// decoded; known is false when it did not.
type tableEvents struct {
	known                           bool
	inserted, byUpdate, byInsertion int
}

// instances returns how many instances of kind the block holds.
func (e *blockEvidence) instances(kind instanceKind, b *playedBlock) int {
	one := func(ok bool) int {
		if ok {
			return 1
		}
		return 0
	}
	switch kind {
	case instBlocks:
		return 1
	case instTables:
		return one(b.tablesCompared >= 2)
	case instInsertions:
		return e.insertions
	case instLowered:
		return one(e.lowered)
	case instSeveral:
		return one(e.several)
	case instUpdateBlocks:
		return one(e.updateBlock)
	case instEmptyAfter:
		return one(e.emptyAfter)
	case instResizeEvictions:
		return e.resizeEvictions
	case instInsertEvictions:
		return e.insertEvictions
	case instOversized:
		return e.oversized
	case instIntegers:
		return e.integers
	case instHuffman:
		return e.huffman
	case instSizeUpdates:
		return e.sizeUpdates
	case instSensitive:
		return e.sensitive
	case instCredentials:
		return e.credentials
	}
	return 0
}

// addJudged counts a judged block into the case's evidence.
func addJudged(ev *Evidence, b *playedBlock, kind instanceKind) {
	e := &b.ev
	ev.Blocks++
	ev.Representations += e.reps
	ev.Insertions += e.insertions
	ev.Evictions += e.resizeEvictions + e.insertEvictions
	ev.SizeUpdates += e.sizeUpdates
	ev.HuffmanStrings += e.huffman
	ev.SensitiveFields += e.sensitive
	ev.Instances += e.instances(kind, b)
}

// optionalUse is what a target's blocks show of the two representations
// RFC 7541 leaves to the encoder's choice: Huffman-coded strings (§5.2:
// a string is sent raw or Huffman-coded) and the dynamic table (§6.2: a
// field may be sent without indexing, and an encoder that adds no entry
// uses no dynamic table). A rule about one of them has nothing of the
// encoder's to judge when the encoder never used it in any block it
// wrote, although every scenario offered it strings to code and fields
// that repeat: that case does not apply to the encoder. It is neither a
// pass (the rule was never put to the test) nor a lack (nothing the
// certifier could send would make it apply).
type optionalUse struct {
	blocks, strings, huffman, incremental, roomy int
	// refused counts the blocks the encoder answered it cannot express
	// ({"unsupported": ...}): what it left unwritten might have used
	// either representation, so nothing is then not applicable.
	refused int
	// afterSetting and afterSettingRoom count the blocks of
	// blockEvidence's flags.
	afterSetting, afterSettingRoom int
}

// usageOf counts the blocks the encoder wrote in every scenario played,
// judged or not: one Huffman string or one insertion anywhere makes the
// rules about it apply; and the blocks it refused.
func usageOf(played []*transcript) optionalUse {
	var u optionalUse
	for _, tr := range played {
		u.refused += len(tr.unsupportedBlocks)
		for _, b := range tr.blocks {
			if b.encErr != nil {
				continue
			}
			u.blocks++
			u.strings += b.ev.strings
			u.huffman += b.ev.huffman
			u.incremental += b.ev.incremental
			u.roomy += b.ev.roomy
			if b.ev.afterSetting {
				u.afterSetting++
			}
			if b.ev.afterSettingRoom {
				u.afterSettingRoom++
			}
		}
	}
	return u
}

// notApplicable says why a case of the kind does not apply to an encoder
// of this use, or "" when it does.
func (u optionalUse) notApplicable(kind instanceKind) string {
	if u.blocks == 0 || u.refused > 0 {
		return ""
	}
	switch kind {
	case instLowered:
		if u.afterSetting > 0 && u.afterSettingRoom == 0 {
			// The encoder chose a table of 0 (§4.2) before any setting
			// came: none can be below it, so none needs an update.
			return fmt.Sprintf("not applicable: in the %s that followed an acknowledged setting, the encoder's dynamic table was already 0 octets (its own size update), so no setting fell below it; the table size is the encoder's choice (§4.2), so this rule on lowered settings has none of its to judge",
				plural(u.afterSetting, "block", "blocks"))
		}
	case instHuffman:
		if u.huffman == 0 && u.strings > 0 {
			return fmt.Sprintf("not applicable: the encoder Huffman-coded none of the %s in the %s it wrote; Huffman coding is the encoder's choice (§5.2), so this rule on Huffman strings has none of its to judge",
				plural(u.strings, "string literal", "string literals"), plural(u.blocks, "block", "blocks"))
		}
	case instInsertions, instInsertEvictions, instResizeEvictions, instOversized, instCredentials:
		if u.incremental == 0 {
			return fmt.Sprintf("not applicable: the encoder added no entry to the dynamic table in the %s it wrote (no literal with incremental indexing); indexing is the encoder's choice (§6.2), so this rule on what enters the table (entries, their eviction, an entry larger than the table, credentials) has none of its to judge",
				plural(u.blocks, "block", "blocks"))
		}
		if u.roomy == 0 && (kind == instInsertEvictions || kind == instResizeEvictions) {
			// The encoder chose a table too small for any entry (§4.2:
			// the size is its choice, up to the setting): each of its
			// insertions empties the table (§4.4), and nothing is ever
			// held that an insertion or a size update could evict.
			return fmt.Sprintf("not applicable: the encoder added its %s while its dynamic table's maximum size was under %d octets, too small for any entry, in the %s it wrote, so its table never held an entry to evict; the table size is the encoder's choice (§4.2), so this rule on evictions has none of its to judge",
				plural(u.incremental, "entry", "entries"), spec.EntryOverhead, plural(u.blocks, "block", "blocks"))
		}
	}
	return ""
}
