package decoders

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/certify/transcript"
	"github.com/hpackcert/hpackcert/internal/spec"
)

// play decodes one story in a fresh context.
func (dr *decRunner) play(c *decCase, s *decStory) decOutcome {
	out := decOutcome{story: s}
	if dr.breakdown != "" {
		// A breakdown is the target's one failure: its later stories are
		// not played (a program that stopped answering would make each
		// wait for its timeout), and what they would judge is its
		// consequence.
		out.broke = true
		return out
	}
	d, err := dr.target.NewDecoder()
	if err != nil {
		dr.broke(nil, s, 0, "opening a decoding context: "+err.Error())
		out.broke = true
		return out
	}
	_, showsTable := d.(DecoderTableReader)
	hider, _ := d.(FieldsHider)
	table, list := uint32(spec.DefaultTableSize), uint32(0)
	var feats decFeature
	for i := range s.steps {
		st := &s.steps[i]
		// setting gives the decoder a setting of the block; false ends
		// the story, unsupported or broken down.
		setting := func(name string, have *uint32, want uint32, set func(uint32) error) bool {
			if want == *have {
				return true
			}
			if err := set(want); err != nil {
				if errors.Is(err, ErrSettingUnsupported) && c.kind == decBomb && name == "SETTINGS_MAX_HEADER_LIST_SIZE" {
					// The bomb's 409.6 MB list is over any limit a target
					// advertised in place of ours: it is graded under that.
					*have = want
					return true
				}
				if errors.Is(err, ErrSettingUnsupported) {
					out.unsupported = fmt.Sprintf("story %s needs %s %d: %v", s.name, name, want, err)
				} else {
					dr.broke(d, s, i, "setting "+name+": "+err.Error())
					out.broke = true
				}
				return false
			}
			*have = want
			return true
		}
		if !setting("SETTINGS_HEADER_TABLE_SIZE", &table, st.tableSize, d.SetMaxDynamicTableSize) ||
			!setting("SETTINGS_MAX_HEADER_LIST_SIZE", &list, st.maxList, d.SetMaxHeaderListSize) {
			return out
		}
		feats |= st.expect.feats
		var before runtime.MemStats
		if c.kind == decBomb && dr.kind == "in-process" {
			runtime.GC()
			runtime.ReadMemStats(&before)
		}
		ans := answer(d, transcript.DecoderBlock{TableSize: st.tableSize, MaxListSize: st.maxList, Wire: st.block})
		fields, err, elapsed := ans.Fields, ans.Err, ans.Elapsed
		if errors.Is(err, ErrSettingUnsupported) {
			out.unsupported = fmt.Sprintf("story %s, block %d: %v", s.name, i, err)
			return out
		}
		if err != nil && !Rejected(err) && !errors.Is(err, ErrAnswerTooLarge) {
			dr.broke(d, s, i, err.Error())
			out.broke = true
			return out
		}
		diverge := func(what string) decOutcome {
			out.div = &decDivergence{step: i, feats: feats, what: what, repro: reproText(s, i, what), notJud: len(s.steps) - 1 - i, invalid: st.invalid, ev: st.expect.ev}
			return out
		}
		if c.kind == decBomb && err == nil {
			// A live target refuses a field section too large for it with
			// a stream error or 431 (RFC 9113 §8.2, §10.5.1), which keeps
			// the connection: not an acceptance of the list.
			if strings.HasPrefix(ans.Said, "reset the stream") || strings.Contains(ans.Said, "431") {
				err = &Rejection{Reason: ans.Said}
			}
		}
		if st.expect.refused != "" {
			if err == nil || errors.Is(err, ErrAnswerTooLarge) {
				what := fmt.Sprintf("accepted a block it must refuse (%s): decoded %s", st.note, describeFields(fields, err))
				if c.kind == decBomb {
					what = fmt.Sprintf("expanded the bomb (%s) under a header-list limit of %d: %s", st.note, st.maxList, describeFields(fields, err))
					if ans.Said != "" {
						what = fmt.Sprintf("took the bomb (%s) under a header-list limit of %d and %s", st.note, st.maxList, ans.Said)
					}
				}
				return diverge(what)
			}
			out.judged++
			out.instances++
			out.ev.Add(st.expect.ev)
			if !refusedForDecoding(err) && out.detail == "" {
				out.detail = fmt.Sprintf("story %s refused, though not as a decoding error: %v", s.name, err)
			}
			if c.kind == decBomb {
				out.detail = fmt.Sprintf("refused in %s", elapsed.Round(time.Microsecond))
				if dr.kind == "in-process" {
					var after runtime.MemStats
					runtime.ReadMemStats(&after)
					alloc := after.TotalAlloc - before.TotalAlloc
					out.detail += fmt.Sprintf(", allocating %d KiB", alloc>>10)
					if alloc > 64<<20 {
						return diverge(fmt.Sprintf("refused the bomb (%s) only after allocating %d MiB: it built the header list first", st.note, alloc>>20))
					}
				}
				if m, ok := d.(interface{ PeakMemory() (int64, bool) }); ok {
					if peak, ok := m.PeakMemory(); ok {
						out.detail += fmt.Sprintf(", peak resident memory %d MiB", peak>>20)
					}
				}
			}
			return out
		}
		if err != nil && dr.kind == "live" && st.expect.httpInvalid != "" {
			out.unsupported = fmt.Sprintf("story %s: the target refused a block whose fields are no well-formed HTTP/2 request (%s; RFC 9113 §8.2.1, §8.3.1): %v", s.name, st.expect.httpInvalid, err)
			return out
		}
		if err != nil && st.expect.longest > maxUnlimitedString {
			out.unsupported = fmt.Sprintf("story %s: the decoder refused a block with a %d-octet string (%s), a string-length limit, which RFC 7541 §7.4 lets a decoder set: %v", s.name, st.expect.longest, st.note, err)
			return out
		}
		if err != nil && !refusedForDecoding(err) {
			out.unsupported = fmt.Sprintf("story %s: the target refused a valid block (%s) for another reason than a decoding error: %v", s.name, st.note, err)
			return out
		}
		if err != nil {
			return diverge(fmt.Sprintf("refused a valid block (%s): %v%s", st.note, err, httpNote(st)))
		}
		if hider != nil && hider.FieldsHidden() {
			out.hidden++
			continue
		}
		if what := compareFields(st.expect.fields, fields, c.kind == decNever); what != "" {
			return diverge(fmt.Sprintf("block %d (%s): %s%s", i, st.note, what, httpNote(st)))
		}
		if showsTable {
			readTable(d, &ans)
			if ans.TableErr != nil {
				dr.broke(d, s, i, "reading the table: "+ans.TableErr.Error())
				out.broke = true
				return out
			}
			if what := compareFields(st.expect.table, ans.Table, false); what != "" {
				return diverge(fmt.Sprintf("the dynamic table after block %d (%s): %s", i, st.note, what))
			}
		}
		out.judged++
		out.ev.Add(st.expect.ev)
		switch {
		case c.kind == decNever:
			out.instances += st.expect.ev.SensitiveFields
		case c.feats == 0 || st.expect.feats&c.feats != 0:
			out.instances++
		}
	}
	return out
}

// httpNote says, for a block whose fields HTTP/2 does not let through,
// that RFC 7541 decodes them all the same: a library that applies HTTP
// rules in its HPACK decoder changes what the layer above is given.
func httpNote(st *decStep) string {
	if st.expect.httpInvalid == "" {
		return ""
	}
	return " (the fields are not all valid HTTP/2 fields: " + st.expect.httpInvalid + "; RFC 9113 §8.2.1 makes such a request malformed, but an HPACK decoder decodes them, octet for octet)"
}

// maxUnlimitedString is the longest string a decoder is expected to take
// whatever its limits: a refusal of a block with a longer one may be the
// decoder's string-length limit (RFC 7541 §7.4: a decoder "has to set a
// limit to the length it accepts for string literals"), not a fault.
const maxUnlimitedString = 4096

// decodesRight is the case a valid block decoded wrongly is filed under
// when no feature case owns it.
const decodesRight = "dec/3.2/1"

// ErrAnswerTooLarge is wrapped by the error of a Decoder whose answer was
// too large for its source to take (a stdio decoder's line over the
// bound): the decoder accepted the block and built a header list that
// large, which the bomb case grades as such.
var ErrAnswerTooLarge = errors.New("the decoder's answer is larger than the certifier takes")

// answer sends a block to a decoding context, whose settings are given,
// and returns its answer: the decoder side's transcript of the block,
// its table apart (readTable).
func answer(d Decoder, b transcript.DecoderBlock) transcript.DecoderAnswer {
	var a transcript.DecoderAnswer
	t0 := time.Now()
	a.Fields, a.Err = decodeSafely(d, b.Wire)
	a.Elapsed = time.Since(t0)
	if s, ok := d.(interface{ LastAnswer() string }); ok {
		a.Said = s.LastAnswer()
	}
	return a
}

// readTable adds to a, the answer to a block d accepted, the dynamic
// table d shows after it, when it shows one. It is read only once the
// fields are found right: a divergence needs no table, and an in-process
// bomb's memory is measured without the copy.
func readTable(d Decoder, a *transcript.DecoderAnswer) {
	if tr, ok := d.(DecoderTableReader); ok && a.Err == nil {
		a.TableShown = true
		a.Table, a.TableErr = tr.DecoderTable()
	}
}

// decodeSafely decodes a block, turning a panic into a breakdown.
func decodeSafely(d Decoder, block []byte) (fields []Field, err error) {
	defer func() {
		if r := recover(); r != nil {
			fields, err = nil, fmt.Errorf("the decoder panicked: %v", r)
		}
	}()
	return d.DecodeBlock(block)
}
