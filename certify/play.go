package certify

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/vectors"
	"strings"
)

// judging is how a run judges blocks as they are played: the rules of its
// cases, by index, and its limits. A nil *judging (tests) applies the
// default limits and keeps every block whole for the rules to be called
// on later.
type judging struct {
	rules []blockRule
	lim   limits
	// ids are the case ids of rules, index the index of each id's rule,
	// and selected every case of the run, for the owner of a divergence.
	ids      []string
	index    map[string]int
	selected map[string]bool
}

// owner returns the case a story's divergence at root is filed under,
// what that case reports, and whether a rule of diagnose.go's first step
// owns it; m is the model that explains the divergence, or nil. The
// root's rootProblem must still be how it diverged (divergence).
func (j *judging) owner(root *playedBlock, m *model) (string, string, bool) {
	for _, id := range causeOrder {
		if i, ok := j.index[id]; ok && root.problems[i] != "" {
			return id, root.problems[i], true
		}
	}
	problem, scenario := root.diverged, root.scenario
	if m != nil && j.selected[m.caseID] {
		return m.caseID, modelText(m, problem), false
	}
	var order []string
	if root.tableDiff != "" || root.dynamic {
		if root.tableDiff == "" {
			problem += "; the field comes from a reference to the dynamic table: the encoder's table and the decoders' disagree"
		}
		if scenario == scTraffic {
			order = append(order, "enc/2.3.2/1")
		} else {
			order = append(order, "enc/2.3.2/2")
		}
	}
	switch scenario {
	case scTraffic:
		order = append(order, "enc/3.2/1")
	case vectors.ScenarioOctets:
		order = append(order, "enc/5.2/3", "enc/3.2/2")
	default:
		order = append(order, "enc/3.2/2")
	}
	for _, id := range order {
		if j.selected[id] {
			return id, problem, false
		}
	}
	// None of the owners was selected: the first case of the run whose
	// rule found fault with the block takes it.
	for i, id := range j.ids {
		if root.problems[i] != "" {
			return id, root.problems[i], false
		}
	}
	return "", problem, false
}

func (j *judging) limits() limits {
	if j == nil {
		return defaultLimits
	}
	return j.lim
}

// finish adds a decoded block to what its transcript accumulates, then,
// for a run, applies every rule to it and releases it.
func (j *judging) finish(tr *transcript, pb *playedBlock) {
	if pb.clean {
		tr.coverage.add(pb)
		tr.addHuffman(pb)
	}
	if j == nil {
		return
	}
	pb.problems = make([]string, len(j.rules))
	for i, rule := range j.rules {
		if problem, bad := rule(pb); bad {
			pb.problems[i] = problem
		}
	}
	pb.release()
}

// play runs the stories through a target and decodes what it wrote.
func play(t Target, name string, stories []story, j *judging) *transcript {
	tr := &transcript{scenario: name}
	if r, ok := t.(Restarter); ok {
		r.Restart()
	}
	for si := range stories {
		st := &stories[si]
		enc, err := t.NewEncoder()
		if err != nil {
			tr.breakdown = fmt.Errorf("opening a new encoding context for story %s: %w", st.Path, err)
			tr.breakdownAt = &playedBlock{story: st, encErr: tr.breakdown}
			break
		}
		if !playStory(tr, st, enc, j) {
			break
		}
	}
	if s, ok := t.(StderrTail); ok {
		tr.stderr = s.StderrTail()
	}
	return tr
}

// playStory plays one story through enc and reports whether the encoder
// is still usable.
func playStory(tr *transcript, st *story, enc Encoder, j *judging) bool {
	lim := j.limits()
	sd := newStoryDecoders(enc, lim, tr.scenario)
	defer sd.settle(j)
	var prev *playedBlock
	var buf []byte
	defer closeEncoder(enc)
	for bi := range st.Cases {
		in := &st.Cases[bi]
		pb := &playedBlock{story: st, index: bi, prev: prev}
		prev = pb
		tr.blocks = append(tr.blocks, pb)
		wire, err := encodeSafely(enc, buf[:0], in)
		if err == nil && len(wire) > lim.maxBlock {
			err = fmt.Errorf("the encoder wrote a block of %d octets, over the per-block limit of %d (Options.MaxBlockSize, --max-block); real header blocks are far smaller", len(wire), lim.maxBlock)
		}
		var unsupported interface{ Unsupported() string }
		if errors.As(err, &unsupported) {
			// The encoder cannot express this block and encoded nothing:
			// the rest of the story depends on it, the next story does not.
			pb.encErr = err
			tr.unsupportedBlocks = append(tr.unsupportedBlocks, fmt.Sprintf("%s: %s", pb.where(), unsupported.Unsupported()))
			return true
		}
		if err != nil {
			pb.encErr = err
			tr.breakdown, tr.breakdownAt = err, pb
			return false
		}
		pb.wire = bytes.Clone(wire)
		if cap(wire) <= lim.maxBlock {
			buf = wire
		}
		sd.decode(pb)
		j.finish(tr, pb)
	}
	return true
}

func closeEncoder(enc Encoder) {
	if c, ok := enc.(interface{ Close() error }); ok {
		c.Close()
	}
}

// encodeSafely applies the acknowledged sizes and encodes one block,
// turning a panic of an in-process encoder into an error.
func encodeSafely(enc Encoder, dst []byte, in *block) (wire []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("encoder panicked: %v", r)
		}
	}()
	for _, n := range in.AckedSizes() {
		if err := enc.SetMaxDynamicTableSize(n); err != nil {
			return nil, fmt.Errorf("SetMaxDynamicTableSize(%d): %w", n, err)
		}
	}
	return enc.EncodeBlock(dst, in.Headers)
}

// grade decodes and judges the blocks of a transcript a source played
// (a Player's), without an encoder; inferred says their lists are
// inferred (Recording.InferredLists).
func grade(tr *Transcript, j *judging, inferred bool) *transcript {
	if tr.Unsupported != "" {
		return &transcript{scenario: tr.Scenario, unsupported: tr.Unsupported}
	}
	stories := make([]story, len(tr.Stories))
	for i, st := range tr.Stories {
		// The engine's stories are the story format's: each block a case
		// with the settings, the fields and the wire.
		stories[i] = story{Path: st.Name, Cases: make([]block, len(st.Blocks))}
		for k, b := range st.Blocks {
			stories[i].Cases[k] = block{Seqno: k, TableSizes: b.Acked, Headers: b.Sent, Wire: b.Wire}
		}
	}
	return playRecorded(tr.Scenario, stories, j, inferred)
}

// playRecorded decodes the recorded wire of stories without an encoder;
// inferred says their lists are inferred (Recording.InferredLists).
func playRecorded(name string, stories []story, j *judging, inferred bool) *transcript {
	tr := &transcript{scenario: name}
	lim := j.limits()
	for si := range stories {
		st := &stories[si]
		sd := newStoryDecoders(nil, lim, name)
		sd.inferred = inferred
		var prev *playedBlock
		for bi := range st.Cases {
			pb := &playedBlock{story: st, index: bi, wire: st.Cases[bi].Wire, prev: prev}
			prev = pb
			tr.blocks = append(tr.blocks, pb)
			sd.decode(pb)
			j.finish(tr, pb)
		}
		sd.settle(j)
	}
	return tr
}

// playScenario plays a scenario through the target, or explains why it
// cannot run.
func (r *runner) playScenario(t Target, sc string) (*transcript, error) {
	if p, ok := t.(Player); ok {
		tr, err := p.Play(sc)
		if err != nil {
			return nil, fmt.Errorf("playing scenario %s of %s: %w", sc, t.Name(), err)
		}
		return grade(tr, r.judging, inferredLists(t)), nil
	}
	stories, dropped, err := r.scenarioStories(sc, isUTF8Only(t), lacksOf(t))
	if err != nil {
		return nil, err
	}
	tr := play(t, sc, stories, r.judging)
	tr.dropped = dropped
	return tr, nil
}

// errNoReplayAfterBreakdown is the replay's error once the encoder broke
// down: nothing is played through it again.
var errNoReplayAfterBreakdown = errors.New("not replayed: the encoder broke down (the target's breakdown)")

// replay plays a scenario again, for the determinism check.
func (r *runner) replay(t Target, sc string) (*transcript, error) {
	stories, _, err := r.scenarioStories(sc, isUTF8Only(t), lacksOf(t))
	if err != nil {
		return nil, err
	}
	return play(t, sc, stories, r.judging), nil
}

// referenceTraffic plays the stories of like through the reference
// encoder once per run, for compression ratios.
func (r *runner) referenceTraffic(like *transcript) *transcript {
	var stories []story
	var key strings.Builder
	seen := map[*story]bool{}
	for _, b := range like.blocks {
		if !seen[b.story] {
			seen[b.story] = true
			st := story{Path: b.story.Path}
			for _, in := range b.story.Cases {
				st.Cases = append(st.Cases, block{TableSizes: in.AckedSizes(), Headers: in.Headers})
			}
			stories = append(stories, st)
			fmt.Fprintf(&key, "%s/%d;", st.Path, len(st.Cases))
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if tr, ok := r.refTraffic[key.String()]; ok {
		return tr
	}
	ref := Func("ref", func() Encoder { return NewReference(encoder.Config{}) })
	tr := play(ref, scTraffic, stories, &judging{lim: r.judging.lim})
	if r.refTraffic == nil {
		r.refTraffic = map[string]*transcript{}
	}
	r.refTraffic[key.String()] = tr
	return tr
}
