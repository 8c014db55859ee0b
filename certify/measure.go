package certify

import (
	"bytes"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// The measurements, graded info: compression, determinism, amplification
// and allocations.

// wireStats sums header-list octets and wire octets over the transcripts.
func wireStats(trs []*transcript) (listOctets, wireOctets, blocks int) {
	for _, tr := range trs {
		for _, b := range tr.blocks {
			if b.encErr != nil {
				continue
			}
			for _, f := range b.in().Headers {
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
	if refList, refWire, _ := wireStats([]*transcript{c.reference}); refList > 0 {
		detail += fmt.Sprintf("; reference encoder %.3f (%d wire octets)", float64(refWire)/float64(refList), refWire)
	}
	return verdict{grade: Info, detail: detail}
}

// determinism plays the traffic stories again in fresh contexts and
// compares the output block by block.
func determinism(c *caseRun) verdict {
	first := c.transcripts[0]
	if c.recorded {
		return recordedDeterminism(c)
	}
	second, err := c.replayed, c.replayErr
	if err == errNoReplayAfterBreakdown {
		return verdict{grade: Unsupported, detail: err.Error(), causedBy: []string{BreakdownCause}}
	}
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

// recordedDeterminism compares the stories a recording holds twice
// (Story.ReplayOf), block by block, up to the first block whose input
// differs.
func recordedDeterminism(c *caseRun) verdict {
	rt, _ := c.target.(*recordedTarget)
	var replays map[string]string
	if rt != nil {
		replays = rt.replays()
	}
	if len(replays) == 0 {
		return verdict{grade: Unsupported, detail: "recorded stories cannot be encoded again, and the recording holds no story twice"}
	}
	compared := 0
	var cut []string
	for _, again := range slices.Sorted(maps.Keys(replays)) {
		a, b := rt.story(replays[again]), rt.story(again)
		n := min(len(a.Blocks), len(b.Blocks))
		for i := range n {
			x, y := &a.Blocks[i], &b.Blocks[i]
			if !slices.Equal(x.Acked, y.Acked) || !slices.Equal(x.Sent, y.Sent) {
				cut = append(cut, fmt.Sprintf("story %s from block %d on, whose input differs from story %s's", b.Name, i, a.Name))
				break
			}
			if !bytes.Equal(x.Wire, y.Wire) {
				return verdict{grade: Info, detail: fmt.Sprintf("not deterministic: story %s, block %d differs from story %s, block %d, recorded with the same input from a fresh context (%s, then %s)", b.Name, i, a.Name, i, hexShort(x.Wire), hexShort(y.Wire))}
			}
			compared++
		}
	}
	if compared == 0 {
		return verdict{grade: Unsupported, detail: "not exercised: no block of a story recorded twice had the same input both times (" + strings.Join(cut, "; ") + ")"}
	}
	detail := fmt.Sprintf("deterministic: %d blocks of %s recorded again from a fresh context are identical", compared, plural(len(replays), "story", "stories"))
	if len(cut) > 0 {
		detail += " (not compared: " + strings.Join(cut, "; ") + ")"
	}
	return verdict{grade: Info, detail: detail}
}

// hexShort writes up to 32 octets as hex, and how many there are.
func hexShort(b []byte) string {
	if len(b) <= 32 {
		return fmt.Sprintf("%x", b)
	}
	return fmt.Sprintf("%x... (%d octets)", b[:32], len(b))
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
		for bi := range st.Cases {
			wire, err := encodeSafely(enc, nil, &st.Cases[bi])
			if err != nil {
				return fmt.Sprintf("after Reset the encoder failed: %v", err)
			}
			outs[round] = append(outs[round], wire)
		}
	}
	for i := range outs[0] {
		if string(outs[0][i]) != string(outs[1][i]) {
			return fmt.Sprintf("after Reset, block %d of story %s differs from the fresh encoder's", i, st.Path)
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
			for _, f := range b.in().Headers {
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
		return verdict{grade: Unsupported, notApplicable: true, detail: "not applicable: allocations are measured only for Go encoders running in this process"}
	}
	if c.targetBroke {
		return verdict{grade: Unsupported, detail: "not measured: the encoder broke down (the target's breakdown)", causedBy: []string{BreakdownCause}}
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
	for bi := range st.Cases {
		if buf, err = encodeSafely(enc, buf[:0], &st.Cases[bi]); err != nil {
			return verdict{grade: Fail, detail: err.Error()}
		}
	}
	runs, i := c.allocRuns, 0
	allocs := allocsPerRun(runs, func() {
		fields := st.Cases[i%len(st.Cases)].Headers
		i++
		buf, _ = enc.EncodeBlock(buf[:0], fields)
	})
	return verdict{grade: Info, detail: fmt.Sprintf("%.1f allocations per block (runtime.MemStats over %d runs on story %s, %d blocks)", allocs, runs, st.Path, len(st.Cases))}
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
		if st == nil || len(b.story.Cases) > len(st.Cases) {
			st = b.story
		}
	}
	return st
}
