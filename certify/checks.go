package certify

import (
	"fmt"
	"github.com/hpackcert/hpackcert/internal/wire"
	"runtime"
	"strings"

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
		if acked := b.story.blocks[i].acked; len(acked) > 0 {
			return acked[len(acked)-1]
		}
	}
	return spec.DefaultTableSize
}

// reducedSignalled checks a single setting change: one below the table's
// maximum size must be met by an update to at most the new setting. Blocks
// without fields are enc/4.2/4's.
func reducedSignalled(b *playedBlock) (string, bool) {
	acked := b.in().acked
	if len(acked) != 1 || acked[0] >= b.maxBefore || len(b.in().fields) == 0 {
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
	acked := b.in().acked
	if len(acked) < 2 || len(b.in().fields) == 0 {
		return "", false
	}
	return smallestUpdate(b)
}

// emptyBlockSignalled checks a block without fields after settings went
// down: it must still start with the update enc/4.2/1 and enc/4.2/2 ask
// for.
func emptyBlockSignalled(b *playedBlock) (string, bool) {
	if len(b.in().acked) == 0 || len(b.in().fields) > 0 {
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
	acked := b.in().acked
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
		return fmt.Sprintf("%d dynamic table size updates %v (settings acknowledged: %v); the smallest and the final need at most two", len(updates), updates, b.in().acked), true
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
// to the dynamic table.
func credentialsNotIndexed(b *playedBlock) (string, bool) {
	for i, r := range b.reps {
		if r.Kind != wire.Incremental {
			continue
		}
		if f, ok := b.fieldFor(i); ok && isCredential(f) {
			return fmt.Sprintf("offset %d: %s added to the dynamic table (%s)", r.Offset, fieldString(f.Name, f.Value), r.Kind), true
		}
	}
	return "", false
}

// droppedOctets returns the octets the case's scenarios could not send.
func (c *caseRun) droppedOctets() []byte {
	var dropped octetSet
	for _, tr := range c.transcripts {
		for _, x := range tr.dropped {
			dropped[x] = true
		}
	}
	return dropped.members()
}

// untested turns a passing verdict into unsupported when octets the case
// needs could not be sent, naming them.
func untested(v verdict, dropped []byte) verdict {
	if len(dropped) == 0 || v.grade != Pass {
		return v
	}
	return verdict{grade: Unsupported, detail: fmt.Sprintf("%s; %d octet values not tested, which hpack-stdio/1 without its binary form cannot carry (the encoder's hello did not offer \"binary\": true): %s", v.detail, len(dropped), octetList(dropped))}
}

// octetList writes octets as hex, runs of consecutive values as ranges.
func octetList(octets []byte) string {
	var parts []string
	for i := 0; i < len(octets); {
		j := i
		for j+1 < len(octets) && octets[j+1] == octets[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, fmt.Sprintf("0x%02x", octets[i]))
		} else {
			parts = append(parts, fmt.Sprintf("0x%02x-0x%02x", octets[i], octets[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// octetsRoundTrip checks that values carrying every octet round-trip.
func octetsRoundTrip(c *caseRun) verdict {
	v := everyBlock("with every octet value round-trip through every oracle")(c)
	return untested(v, c.droppedOctets())
}

// eachHuffmanString calls visit for every Huffman-coded name and value of
// the block with the field it encodes, until visit reports a problem.
func eachHuffmanString(b *playedBlock, visit func(what string, s *wire.String, f Field) (string, bool)) (string, bool) {
	for i, r := range b.reps {
		f, ok := b.fieldFor(i)
		if !ok || r.Kind == wire.SizeUpdate {
			continue
		}
		for _, str := range []struct {
			what string
			s    *wire.String
		}{{"name", r.Name}, {"value", r.Value}} {
			if str.s == nil || !str.s.Huffman {
				continue
			}
			if problem, bad := visit(str.what, str.s, f); bad {
				return problem, true
			}
		}
	}
	return "", false
}

// huffmanCodeRule decodes every Huffman-coded string of the block on its
// own, with the wire walker rather than an oracle's context, and compares
// it with the name or value sent, so that a wrong code is named by its
// octet even after an oracle's context broke.
func huffmanCodeRule(b *playedBlock) (string, bool) {
	return eachHuffmanString(b, func(what string, s *wire.String, f Field) (string, bool) {
		sent := f.Name
		if what == "value" {
			sent = f.Value
		}
		if problem, bad := huffmanMismatch(s, sent); bad {
			return fmt.Sprintf("offset %d: the Huffman-coded %s of field %s: %s", s.Length.Offset, what, quoteShort(f.Name), problem), true
		}
		return "", false
	})
}

// addHuffman counts the Huffman strings of a block that decode to what
// was sent, and the octets they carried.
func (tr *transcript) addHuffman(b *playedBlock) {
	eachHuffmanString(b, func(what string, s *wire.String, f Field) (string, bool) {
		sent := f.Name
		if what == "value" {
			sent = f.Value
		}
		if _, bad := huffmanMismatch(s, sent); !bad {
			tr.huffmanStrings++
			tr.huffmanCoded.addString(sent)
		}
		return "", false
	})
}

// huffmanCodes grades huffmanCodeRule's findings, then says which octets
// the encoder's Huffman strings carried.
func huffmanCodes(c *caseRun) verdict {
	if v, _ := c.blocks(c.problem); v.detail != "" {
		v.grade = c.c.Violation
		return v
	}
	var coded octetSet
	nStrings := 0
	for _, tr := range c.transcripts {
		nStrings += tr.huffmanStrings
		for x, ok := range tr.huffmanCoded {
			coded[x] = coded[x] || ok
		}
	}
	missing := coded.absent()
	switch {
	case nStrings == 0:
		return verdict{grade: Unsupported, detail: "the encoder Huffman-coded no string, so no code was tested (Huffman coding is optional)"}
	case len(missing) == 0:
		return pass("every octet value 0-255 was Huffman-coded (%d strings) and each string decodes to what was sent", nStrings)
	}
	dropped := c.droppedOctets()
	var notSent octetSet
	for _, x := range dropped {
		notSent[x] = true
	}
	var chosenRaw []byte
	for _, x := range missing {
		if !notSent[x] {
			chosenRaw = append(chosenRaw, x)
		}
	}
	v := pass("%d octet values were Huffman-coded (%d strings) and decode to what was sent", 256-len(missing), nStrings)
	if len(chosenRaw) > 0 {
		v.detail += fmt.Sprintf("; the encoder sent these octets only raw, where Huffman was shorter (RFC 7541 allows it), so their codes were not tested: %s", octetList(chosenRaw))
	}
	return untested(v, dropped)
}

// huffmanMismatch compares a Huffman string as decoded with the octets
// sent, and names the first octet that did not come back.
func huffmanMismatch(s *wire.String, sent string) (string, bool) {
	got := s.Text
	i := 0
	for i < len(got) && i < len(sent) && got[i] == sent[i] {
		i++
	}
	switch {
	case i < len(sent) && i < len(got):
		return fmt.Sprintf("octet 0x%02x at position %d decodes as 0x%02x: its code is wrong (sent %s, decoded %s)", sent[i], i, got[i], quoteShort(sent), quoteShort(got)), true
	case i < len(sent):
		reason := "the string ends early"
		if s.PadErr != "" {
			reason = s.PadErr
		}
		return fmt.Sprintf("octet 0x%02x at position %d does not decode (%s): its code is wrong (sent %s)", sent[i], i, reason, quoteShort(sent)), true
	case i < len(got):
		return fmt.Sprintf("decodes to %d octets more than the %d sent (%s): a code of the last octets is wrong", len(got)-len(sent), len(sent), quoteShort(got)), true
	case s.PadErr != "":
		return s.PadErr, true
	}
	return "", false
}

// wireStats sums header-list octets and wire octets over the transcripts.
func wireStats(trs []*transcript) (listOctets, wireOctets, blocks int) {
	for _, tr := range trs {
		for _, b := range tr.blocks {
			if b.encErr != nil {
				continue
			}
			for _, f := range b.in().fields {
				listOctets += len(f.Name) + len(f.Value)
			}
			wireOctets += b.wireLen
			blocks++
		}
	}
	return listOctets, wireOctets, blocks
}

// compressionRatio measures wire octets per header-list octet, next to
// the reference encoder's on the same stories.
func compressionRatio(c *caseRun) verdict {
	list, wire, blocks := wireStats(c.transcripts)
	if list == 0 {
		return verdict{grade: Info, detail: "no header octets in the traffic stories"}
	}
	detail := fmt.Sprintf("%d blocks: %d wire octets for %d header octets, ratio %.3f", blocks, wire, list, float64(wire)/float64(list))
	if ref, err := c.r.referenceTraffic(c.transcripts[0]); err == nil && ref != nil {
		refList, refWire, _ := wireStats([]*transcript{ref})
		if refList > 0 {
			detail += fmt.Sprintf("; reference encoder %.3f (%d wire octets)", float64(refWire)/float64(refList), refWire)
		}
	} else if err != nil {
		detail += "; reference encoder not measured: " + err.Error()
	}
	return verdict{grade: Info, detail: detail}
}

// determinism plays the traffic stories again in fresh contexts and
// compares the output block by block.
func determinism(c *caseRun) verdict {
	first := c.transcripts[0]
	if c.recorded {
		return verdict{grade: Unsupported, detail: "recorded stories cannot be encoded again"}
	}
	second, err := c.r.replay(c.target, scTraffic)
	if err != nil {
		return verdict{grade: Unsupported, detail: err.Error()}
	}
	if second.breakdown != nil {
		return verdict{grade: Info, detail: fmt.Sprintf("the second run broke down: %v", second.breakdown)}
	}
	for i, b := range first.blocks {
		if i >= len(second.blocks) {
			break
		}
		if again := second.blocks[i]; b.wireDigest != again.wireDigest {
			return verdict{grade: Info, detail: fmt.Sprintf("not deterministic: %s differs in a second fresh context (%s, then %s)", b.where(), b.wireText(), again.wireText())}
		}
	}
	detail := fmt.Sprintf("deterministic: %d blocks identical in a second set of fresh contexts", len(first.blocks))
	if note := resetDeterminism(c); note != "" {
		detail += "; " + note
	}
	return verdict{grade: Info, detail: detail}
}

// resetDeterminism encodes the first traffic story, resets the encoder
// and encodes it again, for encoders that have a Reset method.
func resetDeterminism(c *caseRun) string {
	enc, err := c.target.NewEncoder()
	if err != nil {
		return ""
	}
	defer closeEncoder(enc)
	r, ok := enc.(interface{ Reset() })
	if !ok || len(c.transcripts[0].blocks) == 0 {
		return ""
	}
	st := longestStory(c.transcripts[0])
	var outs [2][][]byte
	for round := range outs {
		if round == 1 {
			r.Reset()
		}
		for bi := range st.blocks {
			wire, err := encodeSafely(enc, nil, &st.blocks[bi])
			if err != nil {
				return fmt.Sprintf("after Reset the encoder failed: %v", err)
			}
			outs[round] = append(outs[round], wire)
		}
	}
	for i := range outs[0] {
		if string(outs[0][i]) != string(outs[1][i]) {
			return fmt.Sprintf("after Reset, block %d of story %s differs from the fresh encoder's", i, st.name)
		}
	}
	return fmt.Sprintf("identical after Reset (%d blocks)", len(outs[0]))
}

// amplification measures decoded header-list size per wire octet.
func amplification(c *caseRun) verdict {
	var worst float64
	var worstAt *playedBlock
	list, wire := 0, 0
	for _, tr := range c.transcripts {
		for _, b := range tr.blocks {
			if b.encErr != nil || b.wireLen == 0 {
				continue
			}
			size := 0
			for _, f := range b.in().fields {
				size += len(f.Name) + len(f.Value) + spec.EntryOverhead
			}
			list += size
			wire += b.wireLen
			if a := float64(size) / float64(b.wireLen); a > worst {
				worst, worstAt = a, b
			}
		}
	}
	if worstAt == nil {
		return verdict{grade: Info, detail: "no blocks"}
	}
	return verdict{grade: Info, detail: fmt.Sprintf("%.2f header-list octets (name+value+32) per wire octet overall; at most %.2f (%s, %d octets)", float64(list)/float64(wire), worst, worstAt.where(), worstAt.wireLen)}
}

// allocations measures heap allocations per EncodeBlock of a Go encoder
// running in this process.
func allocations(c *caseRun) verdict {
	if _, ok := c.target.(InProcess); !ok {
		return verdict{grade: Unsupported, detail: "allocations are measured only for Go encoders running in this process"}
	}
	st := longestStory(c.transcripts[0])
	if st == nil {
		return verdict{grade: Unsupported, detail: "no traffic story to measure with"}
	}
	enc, err := c.target.NewEncoder()
	if err != nil {
		return verdict{grade: Fail, detail: err.Error()}
	}
	defer closeEncoder(enc)
	var buf []byte
	for bi := range st.blocks {
		if buf, err = encodeSafely(enc, buf[:0], &st.blocks[bi]); err != nil {
			return verdict{grade: Fail, detail: err.Error()}
		}
	}
	runs, i := c.r.opts.allocRuns(), 0
	allocs := allocsPerRun(runs, func() {
		fields := st.blocks[i%len(st.blocks)].fields
		i++
		buf, _ = enc.EncodeBlock(buf[:0], fields)
	})
	return verdict{grade: Info, detail: fmt.Sprintf("%.1f allocations per block (runtime.MemStats over %d runs on story %s, %d blocks)", allocs, runs, st.name, len(st.blocks))}
}

// allocsPerRun returns the average number of heap allocations of one call
// of f over runs calls, after one call to warm up, with GOMAXPROCS at 1 so
// that other goroutines' allocations are not counted — as
// testing.AllocsPerRun measures, without linking package testing into the
// certifier.
func allocsPerRun(runs int, f func()) float64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	f()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	before := m.Mallocs
	for range runs {
		f()
	}
	runtime.ReadMemStats(&m)
	return float64(m.Mallocs-before) / float64(runs)
}

// longestStory returns the story of the transcript with the most blocks.
func longestStory(tr *transcript) *story {
	var st *story
	for _, b := range tr.blocks {
		if st == nil || len(b.story.blocks) > len(st.blocks) {
			st = b.story
		}
	}
	return st
}
