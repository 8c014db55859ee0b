package decoders

import (
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/internal/cputime"
	"github.com/hpackcert/hpackcert/internal/wire"
)

// timingSizes are the lengths of the Huffman strings dec/7.3/2 times,
// each four times the one before: a linear decoder takes 4 times longer
// from one to the next and 16 times from the first to the last, a
// quadratic one 16 and 256 times. The largest is under the 64 KiB that
// libraries such as libnghttp2 set as their string limit, which §7.4
// allows.
var timingSizes = [...]int{2500, 10000, 40000}

const (
	// timingRounds rounds of timingPasses passes over the sizes in turn:
	// each size is timed 9 times, and a moment of load falls on all
	// sizes alike rather than on one.
	timingRounds, timingPasses = 3, 3
	// passRatio is how many times longer than the smallest string the
	// largest may take for a pass, the fastest trials of each compared:
	// 4 times linear, a quarter of quadratic.
	passRatio = 64
	// slowRatio and slowStep are what every round must show, in CPU
	// time, for non-strict: the largest string over 100 times longer
	// than the smallest, and each size over 6 times longer than the one
	// before (linear is 4, quadratic 16), so that slow trials of one size
	// cannot pass for growth.
	slowRatio, slowStep = 100, 6
)

// timingClock is what dec/7.3/2 measures a decoding with, from the most
// to the least trusted.
type timingClock int

const (
	threadCPU  timingClock = iota // a Go decoder in this process: its thread's CPU time
	programCPU                    // a decoder program (CPUTimer): the program's CPU time
	wallClock                     // wall time: a live target, no Linux, or a CPU time unknown
)

func (c timingClock) String() string {
	switch c {
	case threadCPU:
		return "CPU time of the decoding thread"
	case programCPU:
		return "CPU time of the decoder program"
	}
	return "wall time"
}

// timingRound holds the fastest decoding of each of timingSizes in a
// round.
type timingRound [len(timingSizes)]time.Duration

// timing grades dec/7.3/2: one Huffman string of each of timingSizes,
// decoded in fresh contexts, timingRounds times timingPasses times,
// sizes in turn. Where the CPU time of the decoding can be read, that is
// its cost: a busy machine makes the decoder wait for a core, which wall
// time counts and CPU time does not. The fastest trials of each size
// pass when the largest took at most passRatio times the smallest's
// time; the decoder is non-strict only when its CPU time grew quadratic
// in every round (slowRatio, slowStep); anything else is inconclusive,
// an Info grade with the figures: slow wall time, or rounds that do not
// all show quadratic growth, may say more of the machine than of the
// decoder.
func (dr *decRunner) timing(c *decCase) *Result {
	// The thread's CPU time is the decoding's only while the goroutine
	// keeps its thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var blocks [len(timingSizes)][]byte
	var values [len(timingSizes)]string
	for i, n := range timingSizes {
		values[i] = huffmanText(n)
		blocks[i] = newBlock().literal(wire.WithoutIndexing, 0, "x-long", values[i], true).bytes()
	}
	var rounds [timingRounds]timingRound
	clock, trials := threadCPU, 0
	for r := range rounds {
		for pass := range timingPasses {
			for i := range timingSizes {
				took, used, res := dr.timeDecoding(blocks[i], values[i])
				if res != nil {
					return res
				}
				clock = max(clock, used)
				trials++
				if pass == 0 || took < rounds[r][i] {
					rounds[r][i] = took
				}
			}
		}
	}
	fastest := rounds[0]
	for _, round := range rounds[1:] {
		for i := range fastest {
			fastest[i] = min(fastest[i], round[i])
		}
	}
	ev := Evidence{Blocks: trials, Representations: trials, HuffmanStrings: trials, Instances: 1, Of: c.of}
	detail := fmt.Sprintf("%s took %s (%s, the fastest of %d trials of each): the largest %.1f times longer than the smallest (16 is linear, 256 quadratic)",
		sizesText(), fastest.text(), clock, trials/len(timingSizes), fastest.ratio())
	switch {
	case fastest.ratio() <= passRatio:
		return &Result{Grade: Pass, Detail: "pass: " + detail, Evidence: ev}
	case clock != wallClock && allQuadratic(rounds[:]):
		return &Result{Grade: c.Violation, Detail: "quadratic: " + detail + "; every round agrees: " + roundsText(rounds[:]), Evidence: ev}
	case clock == wallClock:
		return &Result{Grade: Info, Evidence: ev, Detail: fmt.Sprintf("inconclusive, not graded: %s, over the %d a pass allows; but wall time grows while a busy machine makes the decoder wait, and only CPU time grades this case non-strict", detail, passRatio)}
	}
	return &Result{Grade: Info, Evidence: ev, Detail: fmt.Sprintf("inconclusive, not graded: %s, over the %d a pass allows; but non-strict needs every round to show quadratic growth, the largest over %d times longer and each size over %d times the one before, and not all do (%s)", detail, passRatio, slowRatio, slowStep, roundsText(rounds[:]))}
}

// timeDecoding decodes block, one literal of the Huffman string value,
// in a fresh context and returns how long it took and by which clock,
// or the result of dec/7.3/2 when the decoding does not let it be timed.
func (dr *decRunner) timeDecoding(block []byte, value string) (time.Duration, timingClock, *Result) {
	n := len(value)
	d, err := dr.target.NewDecoder()
	if err != nil {
		dr.brokeText(nil, "opening a decoding context for dec/7.3/2: "+err.Error())
		return 0, 0, brokenDown()
	}
	cpuTime, clock := dr.cpuClock(d)
	cpu0, known0 := cpuTime()
	wall0 := time.Now()
	fields, err := decodeSafely(d, block)
	wall := time.Since(wall0)
	cpu1, known1 := cpuTime()
	if err != nil && !Rejected(err) {
		dr.brokeText(d, fmt.Sprintf("decoding a %d-octet Huffman string for dec/7.3/2: %v", n, err))
		return 0, 0, brokenDown()
	}
	if err != nil {
		return 0, 0, &Result{Grade: Unsupported, Detail: fmt.Sprintf("not exercised: the decoder refused a block of one %d-octet Huffman string (a string-length limit, which RFC 7541 §7.4 allows): %v", n, err)}
	}
	if h, ok := d.(FieldsHider); !ok || !h.FieldsHidden() {
		if len(fields) != 1 || fields[0].Value != value {
			// A wrong decoding is a Huffman or string defect, graded
			// there: the time of it is not judged.
			return 0, 0, &Result{Grade: Unsupported, CausedBy: []string{"dec/5.2/2"}, Detail: fmt.Sprintf("consequence: a block of one %d-octet Huffman string decoded to something else (%s): graded under dec/5.2/2", n, describeFields(fields, nil))}
		}
	}
	// No CPU time at all is a program that has the decoding done
	// elsewhere (a wrapper that did not exec its runtime): its own
	// figure says nothing of the decoder.
	if clock != wallClock && known0 && known1 && cpu1 > cpu0 {
		return cpu1 - cpu0, clock, nil
	}
	return wall, wallClock, nil
}

// cpuClock returns how the CPU time of a decoding by d is read, and the
// clock that is; wall time reads nothing.
func (dr *decRunner) cpuClock(d Decoder) (func() (time.Duration, bool), timingClock) {
	if t, ok := d.(CPUTimer); ok {
		return t.CPUTime, programCPU
	}
	if dr.kind == "in-process" {
		return cputime.Thread, threadCPU
	}
	return func() (time.Duration, bool) { return 0, false }, wallClock
}

// huffmanText returns n octets whose codes are 5 to 28 bits long, so
// that a decoder whose cost grows with the code length or the string
// shows it.
func huffmanText(n int) string {
	const pattern = "a0%~\x00\xfe{z"
	return strings.Repeat(pattern, n/len(pattern)+1)[:n]
}

// ratio is how many times longer the largest string took than the
// smallest.
func (r timingRound) ratio() float64 {
	return times(r[len(r)-1], r[0])
}

// quadratic reports whether the round shows quadratic growth beyond
// doubt: the largest string over slowRatio times longer than the
// smallest, and each size over slowStep times the one before.
func (r timingRound) quadratic() bool {
	if r.ratio() <= slowRatio {
		return false
	}
	for i := 1; i < len(r); i++ {
		if times(r[i], r[i-1]) <= slowStep {
			return false
		}
	}
	return true
}

func allQuadratic(rounds []timingRound) bool {
	for _, r := range rounds {
		if !r.quadratic() {
			return false
		}
	}
	return true
}

// text lists the round's times, "12.3µs, 48µs and 190µs".
func (r timingRound) text() string {
	var s []string
	for _, d := range r {
		s = append(s, durationText(d))
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// roundsText lists each round's fastest times and ratio.
func roundsText(rounds []timingRound) string {
	var s []string
	for i, r := range rounds {
		s = append(s, fmt.Sprintf("round %d: %s, %.1f times", i+1, r.text(), r.ratio()))
	}
	return strings.Join(s, "; ")
}

// sizesText names the strings timed, "the 2500-, 10000- and 40000-octet
// Huffman strings".
func sizesText() string {
	var s []string
	for _, n := range timingSizes {
		s = append(s, fmt.Sprintf("%d-", n))
	}
	return "the " + strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1] + "octet Huffman strings"
}

// times is a/b, b taken as at least a nanosecond.
func times(a, b time.Duration) float64 {
	return float64(a) / float64(max(b, time.Nanosecond))
}

// durationText rounds d to three or four figures for a report.
func durationText(d time.Duration) string {
	if d < 100*time.Microsecond {
		return d.Round(100 * time.Nanosecond).String()
	}
	return d.Round(time.Microsecond).String()
}
