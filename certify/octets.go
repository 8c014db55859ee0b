package certify

import (
	"fmt"
	"strings"

	"github.com/hpackcert/hpackcert/internal/wire"
)

// The rules on what octets the encoder sends: every octet value must
// round-trip, and every octet's Huffman code must be RFC 7541 Appendix B's.

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
	v := everyBlock("every octet value round-trips through every oracle")(c)
	if c.recorded {
		return recordedOctets(c, v)
	}
	return untested(v, c.droppedOctets())
}

// fieldOctets are the octets an HTTP field value may carry (RFC 9110
// §5.5: HTAB, SP, VCHAR and obs-text), all a peer on the wire can be
// driven to encode.
func fieldOctets() (set octetSet) {
	set['\t'] = true
	for b := 0x20; b <= 0xff; b++ {
		set[b] = b != 0x7f
	}
	return set
}

// recordedOctets judges a recording's generated stories on the octets
// they carry: a pass needs every octet a field value may carry, since a
// recording (a live capture) cannot hold the others.
func recordedOctets(c *caseRun, v verdict) verdict {
	if v.grade != Pass {
		return v
	}
	var present octetSet
	for _, tr := range c.transcripts {
		for _, b := range tr.blocks {
			for _, f := range b.in().Headers {
				for _, s := range []string{f.Name, f.Value} {
					for i := 0; i < len(s); i++ {
						present[s[i]] = true
					}
				}
			}
		}
	}
	legal := fieldOctets()
	var missing []byte
	others := 0
	for x := range 256 {
		switch {
		case legal[x] && !present[x]:
			missing = append(missing, byte(x))
		case !legal[x] && present[x]:
			others++
		}
	}
	if len(missing) > 0 {
		return verdict{grade: Unsupported, detail: fmt.Sprintf("not exercised: the recording's names and values carry %d of the 224 octet values an HTTP field value may carry; missing %s", 224-len(missing), octetList(missing)), evidence: v.evidence}
	}
	v.detail += "; the recording carries all 224 octet values an HTTP field value may carry (HTAB, 0x20-0x7e, 0x80-0xff; RFC 9110 §5.5 keeps the other 32 off the wire of HTTP)"
	if others > 0 {
		v.detail += fmt.Sprintf(", and %d of the others", others)
	}
	return v
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
		if s.Text == sent && s.PadErr == "" {
			tr.huffmanStrings++
			tr.huffmanCoded.addString(sent)
		}
		return "", false
	})
}

// huffmanCodes grades huffmanCodeRule's findings, then says which octets
// the encoder's Huffman strings carried.
func huffmanCodes(c *caseRun) verdict {
	v, ev := c.judge(c.problem)
	if v.detail != "" {
		v.grade, v.evidence = c.c.Violation, &ev
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
	case nStrings == 0 || ev.Instances == 0:
		return c.notExercised(ev)
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
	v = pass("%d octet values were Huffman-coded (%d strings) and decode to what was sent", 256-len(missing), nStrings)
	if len(chosenRaw) > 0 {
		v.detail += fmt.Sprintf("; the encoder sent these octets only raw, where Huffman was shorter (RFC 7541 allows it), so their codes were not tested: %s", octetList(chosenRaw))
	}
	return untested(v, dropped)
}

// maxHuffmanTail bounds the octets a Huffman string may decode to past
// the last one sent and still be blamed on its coding: wrong padding (under
// 8 bits) decodes as one symbol at most, and a wrong code for the last
// octets as a few. A string that goes on for more carries another value
// than the one sent (a target that joined a repeated field's values, say):
// enc/3.2/1 judges that, on the decoded list, not the Huffman rules.
const maxHuffmanTail = 8

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
	case i < len(got) && len(got)-len(sent) > maxHuffmanTail:
		return "", false
	case i < len(got):
		return fmt.Sprintf("decodes to %d octets more than the %d sent (%s): a code of the last octets is wrong", len(got)-len(sent), len(sent), quoteShort(got)), true
	case s.PadErr != "":
		return s.PadErr, true
	}
	return "", false
}
