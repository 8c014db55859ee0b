package certify

import (
	"fmt"

	"github.com/hpackcert/hpackcert/internal/wire"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// leadingUpdates returns the dynamic table size updates at the start of
// the block: strict.Decoder.Updates when the strict oracle decoded the
// block, else what the wire walker read.
func leadingUpdates(b *playedBlock) []uint64 {
	var out []uint64
	if b.strictDecoded {
		for _, u := range b.updates {
			out = append(out, uint64(u))
		}
		return out
	}
	for _, r := range b.reps {
		if r.Kind != wire.SizeUpdate {
			break
		}
		out = append(out, r.Index.Value)
	}
	return out
}

// settingAt returns the SETTINGS_HEADER_TABLE_SIZE in force for the block:
// the last value acknowledged before it in its story, or 4096.
func settingAt(b *playedBlock) uint32 {
	for i := b.index; i >= 0; i-- {
		if acked := b.story.Cases[i].AckedSizes(); len(acked) > 0 {
			return acked[len(acked)-1]
		}
	}
	return spec.DefaultTableSize
}

// reducedSignalled checks a single setting change: one below the table's
// maximum size must be met by an update to at most the new setting. Blocks
// without fields are enc/4.2/4's.
func reducedSignalled(b *playedBlock) (string, bool) {
	acked := b.in().AckedSizes()
	if len(acked) != 1 || acked[0] >= b.maxBefore || len(b.in().Headers) == 0 {
		return "", false
	}
	updates := leadingUpdates(b)
	if len(updates) == 0 {
		return fmt.Sprintf("the setting went down from %d to %d but the block starts with no dynamic table size update", b.maxBefore, acked[0]), true
	}
	if updates[len(updates)-1] > uint64(acked[0]) {
		return fmt.Sprintf("the setting went down from %d to %d but the block's updates %v end above it", b.maxBefore, acked[0], updates), true
	}
	return "", false
}

// smallestSignalled checks an interval with several settings: when the
// smallest is below the table's maximum size, an update at most that
// small must be sent. Blocks without fields are enc/4.2/4's.
func smallestSignalled(b *playedBlock) (string, bool) {
	acked := b.in().AckedSizes()
	if len(acked) < 2 || len(b.in().Headers) == 0 {
		return "", false
	}
	return smallestUpdate(b)
}

// emptyBlockSignalled checks a block without fields after settings went
// down: it must still start with the update enc/4.2/1 and enc/4.2/2 ask
// for.
func emptyBlockSignalled(b *playedBlock) (string, bool) {
	if len(b.in().AckedSizes()) == 0 || len(b.in().Headers) > 0 {
		return "", false
	}
	problem, bad := smallestUpdate(b)
	if bad {
		problem = "a block without fields: " + problem
	}
	return problem, bad
}

// smallestUpdate checks that when the smallest setting acknowledged before
// the block is below the table's maximum size, the block starts with an
// update at most that small.
func smallestUpdate(b *playedBlock) (string, bool) {
	acked := b.in().AckedSizes()
	smallest := acked[0]
	for _, n := range acked {
		smallest = min(smallest, n)
	}
	if smallest >= b.maxBefore {
		return "", false
	}
	updates := leadingUpdates(b)
	for _, u := range updates {
		if u <= uint64(smallest) {
			return "", false
		}
	}
	if len(updates) == 0 {
		return fmt.Sprintf("settings %v were acknowledged, the smallest %d below the table's maximum size %d, but the block starts with no dynamic table size update", acked, smallest, b.maxBefore), true
	}
	return fmt.Sprintf("settings %v were acknowledged, but the block's updates %v do not signal the smallest, %d", acked, updates, smallest), true
}

// fewUpdates checks that a block starts with at most two updates, and
// that when there are two the first is the smallest: from the strict
// oracle's warnings when it decoded the block, else from the wire.
func fewUpdates(b *playedBlock) (string, bool) {
	for _, w := range b.warnings {
		if w.Section == "4.2" {
			return "oracle strict: " + w.String(), true
		}
	}
	updates := leadingUpdates(b)
	if len(updates) > 2 {
		return fmt.Sprintf("%d dynamic table size updates %v (settings acknowledged: %v); the smallest and the final need at most two", len(updates), updates, b.in().AckedSizes()), true
	}
	if len(updates) == 2 && updates[0] > updates[1] {
		return fmt.Sprintf("updates %v: the smallest is signalled second", updates), true
	}
	return "", false
}

// updatesWithinSetting checks every update against the setting in force,
// as the strict oracle does (its §6.3 errors) and on the wire.
func updatesWithinSetting(b *playedBlock) (string, bool) {
	if e := b.strictError(); e != nil && e.Section == "6.3" {
		return "oracle strict: " + e.Error(), true
	}
	limit := settingAt(b)
	for _, r := range b.reps {
		if r.Kind == wire.SizeUpdate && r.Index.Value > uint64(limit) {
			return fmt.Sprintf("offset %d: dynamic table size update to %d exceeds the acknowledged SETTINGS_HEADER_TABLE_SIZE %d", r.Offset, r.Index.Value, limit), true
		}
	}
	return "", false
}

// updatesFirst checks that no update follows a field representation.
func updatesFirst(b *playedBlock) (string, bool) {
	seenField := false
	for _, r := range b.reps {
		switch {
		case r.Kind != wire.SizeUpdate:
			seenField = true
		case seenField:
			return fmt.Sprintf("offset %d: dynamic table size update to %d after a header field representation", r.Offset, r.Index.Value), true
		}
	}
	return "", false
}

// minimalIntegers checks every integer of the block for a redundant
// continuation octet.
func minimalIntegers(b *playedBlock) (string, bool) {
	for _, r := range b.reps {
		ints := []wire.Int{r.Index}
		for _, s := range []*wire.String{r.Name, r.Value} {
			if s != nil {
				ints = append(ints, s.Length)
			}
		}
		for _, n := range ints {
			if !n.Minimal {
				return fmt.Sprintf("offset %d: integer %d ends in a redundant zero continuation octet", n.Offset, n.Value), true
			}
		}
	}
	return "", false
}

// huffmanPadding checks the padding of every Huffman-coded string.
func huffmanPadding(b *playedBlock) (string, bool) {
	for _, r := range b.reps {
		for _, s := range []*wire.String{r.Name, r.Value} {
			if s != nil && s.PadErr != "" {
				return fmt.Sprintf("offset %d: Huffman string of %d octets: %s", s.Length.Offset, s.Encoded, s.PadErr), true
			}
		}
	}
	return "", false
}

// huffmanShorter checks that no string was Huffman-coded into more octets
// than it has.
func huffmanShorter(b *playedBlock) (string, bool) {
	for _, r := range b.reps {
		for _, s := range []*wire.String{r.Name, r.Value} {
			if s != nil && s.Huffman && s.PadErr == "" && s.Encoded > len(s.Text) {
				return fmt.Sprintf("offset %d: %q Huffman-coded in %d octets, longer than its %d octets", s.Length.Offset, shorten(s.Text), s.Encoded, len(s.Text)), true
			}
		}
	}
	return "", false
}

func shorten(s string) string {
	if len(s) > 32 {
		return s[:32] + "..."
	}
	return s
}

// sensitiveNeverIndexed checks that every field marked sensitive is a
// "Literal Header Field Never Indexed".
func sensitiveNeverIndexed(b *playedBlock) (string, bool) {
	for i, r := range b.reps {
		if r.Kind == wire.SizeUpdate {
			continue
		}
		f, ok := b.fieldFor(i)
		if ok && f.Sensitive && r.Kind != wire.NeverIndexed {
			return fmt.Sprintf("offset %d: sensitive field %s sent as %s", r.Offset, fieldString(f.Name, f.Value), r.Kind), true
		}
	}
	return "", false
}

// shortCookie is the length under which enc/7.1.3/2 counts a cookie as
// short, easily guessed (nghttp2's threshold).
const shortCookie = 20

// isCredential reports whether enc/7.1.3/2 keeps a field out of the
// dynamic table: authorization, proxy-authorization, and cookies shorter
// than shortCookie octets.
func isCredential(f Field) bool {
	switch f.Name {
	case "authorization", "proxy-authorization":
		return true
	case "cookie":
		return len(f.Value) < shortCookie
	}
	return false
}

// credentialsNotIndexed checks that no credential (isCredential) is added
// to the dynamic table. A credential marked sensitive is enc/7.1.3/1's to
// judge (sensitiveNeverIndexed, the stricter rule), so that one defect is
// not graded twice.
func credentialsNotIndexed(b *playedBlock) (string, bool) {
	for i, r := range b.reps {
		if r.Kind != wire.Incremental {
			continue
		}
		if f, ok := b.fieldFor(i); ok && isCredential(f) && !f.Sensitive {
			return fmt.Sprintf("offset %d: %s added to the dynamic table (%s)", r.Offset, fieldString(f.Name, f.Value), r.Kind), true
		}
	}
	return "", false
}
