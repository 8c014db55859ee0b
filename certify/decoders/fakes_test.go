package decoders

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

// graded is what Run gave, held as a report holds it: the cases, and
// each target's results and grading by its name.
type graded struct {
	Cases    []Case
	Encoders []string
	Results  map[string]map[string]*Result
	Targets  map[string]Graded
}

// Failed reports whether a case failed or a target broke down (no
// expected failure: the tests' runs have none).
func (g *graded) Failed() bool {
	for _, name := range g.Encoders {
		if g.Targets[name].Breakdown != "" {
			return true
		}
		for _, res := range g.Results[name] {
			if res.Grade == Fail {
				return true
			}
		}
	}
	return false
}

// runDecoders grades targets with Run.
func runDecoders(targets []DecoderTarget, opts DecoderOptions) (*graded, error) {
	cases, out, err := Run(targets, opts)
	if err != nil {
		return nil, err
	}
	g := &graded{Cases: cases, Results: map[string]map[string]*Result{}, Targets: map[string]Graded{}}
	for _, o := range out {
		g.Encoders = append(g.Encoders, o.Name)
		g.Results[o.Name], g.Targets[o.Name] = o.Results, o
	}
	return g, nil
}
