package certify

// Targets as a source of another kind would make them, from a Go decoder:
// a test grades an in-process fake as a live target or as a program.

// liveDecoderTarget marks a target Live, as source/live's are.
type liveDecoderTarget struct{ DecoderTarget }

func (liveDecoderTarget) Live() {}

// programDecoderTarget hides the InProcess marker of the target it
// wraps: the engine drives it as a program (stdio).
type programDecoderTarget struct{ DecoderTarget }

// asKind returns t driven as kind, "live", "stdio" or "in-process".
func asKind(t DecoderTarget, kind string) DecoderTarget {
	switch kind {
	case "live":
		return liveDecoderTarget{t}
	case "stdio":
		return programDecoderTarget{t}
	}
	return t
}
