package decoders

import (
	"fmt"

	"github.com/hpackcert/hpackcert/engine"
)

// brokeText records the target's first breakdown where no story was
// being played (dec/7.3/2's timing); d is as for broke.
func (dr *decRunner) brokeText(d Decoder, what string) {
	if dr.breakdown == "" {
		dr.breakdown = "decoder broke down: " + what
		dr.breakdownStderr = engine.TailOf(d, unwrapDecoder(dr.target))
	}
}

// brokenDown is the result of a case the target's breakdown left nothing
// to judge.
func brokenDown() *Result {
	return &Result{Grade: Unsupported, Detail: "consequence: the decoder broke down", CausedBy: []string{BreakdownCause}}
}

// broke records the target's first breakdown; d, the decoding context
// that broke down, is nil when none could be opened.
func (dr *decRunner) broke(d Decoder, s *decStory, step int, what string) {
	if dr.breakdown != "" {
		return
	}
	dr.breakdown = fmt.Sprintf("decoder broke down at story %s, block %d: %s", s.name, step, what)
	dr.breakdownRepro = reproText(s, step, what)
	// What the program said as it broke down, as for an encoder: taken
	// now, before the next story restarts it.
	dr.breakdownStderr = engine.TailOf(d, unwrapDecoder(dr.target))
}
