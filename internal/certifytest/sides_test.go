package certifytest

import (
	"fmt"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/broken"
)

// A side of the certifier as TestVerdictRulesBothSides drives it: targets
// of known grades made under any name, and the run.

// runRules is what a row asks of a run beyond its targets.
type runRules struct {
	expect   []string
	declared []certify.Declaration
	strict   bool
}

// role is what a row needs a target to be.
type role int

const (
	plain     role = iota // grades no case fail nor non-strict
	failing               // fails the side's failID
	nonStrict             // is graded non-strict on nonStrictID
	lacking               // declares a lack that leaves lackID unsupported
	hanging               // stops answering after its fifth request
)

// side drives one side: make returns a target of a role under a name,
// run grades targets, made by make, on the side's cases.
type side struct {
	name                        string
	failID, nonStrictID, lackID string
	make                        func(r role, name string, h *hang) any
	run                         func(targets []any, r runRules) (*certify.Report, error)
}

var encoderSide = side{
	name: "encoder", failID: "enc/7.1.3/1", nonStrictID: "enc/7.1.3/2", lackID: "enc/7.1.3/1",
	make: func(r role, name string, h *hang) any {
		bug := map[role]broken.Bug{failing: broken.SensitiveIndexed, nonStrict: broken.AuthorizationIndexed}[r]
		switch r {
		case failing, nonStrict:
			return certify.Func(name, func() certify.Encoder { return broken.New(bug) })
		case lacking:
			return certify.Declare(certify.Func(name, reference), certify.Lacks{NeverIndex: true})
		case hanging:
			return &hangingEncoder{name: name, h: h}
		}
		return certify.Func(name, reference)
	},
	run: func(targets []any, r runRules) (*certify.Report, error) {
		opts := Quick()
		opts.Cases, opts.ExpectFail, opts.Declared, opts.Strict = []string{"enc/7.1.3/", "enc/2.3.2/"}, r.expect, r.declared, r.strict
		var ts []certify.Target
		for _, t := range targets {
			ts = append(ts, t.(certify.Target))
		}
		return certify.Run(ts, opts)
	},
}

var decoderSide = side{
	name: "decoder", failID: "dec/7.1.3/1", nonStrictID: "dec/4.2/2", lackID: "dec/7.1.3/1",
	make: func(r role, name string, h *hang) any {
		bugs := map[role]broken.DecoderBugs{failing: broken.LoseNeverIndexed, nonStrict: broken.AcceptMissingUpdate}[r]
		sound := certify.DecoderFunc(name, func() certify.Decoder { return broken.NewDecoder(bugs) })
		switch r {
		case lacking:
			return certify.DeclareDecoder(sound, certify.DecoderLacks{NeverIndexed: true})
		case hanging:
			return &hangingDecoder{name: name, h: h}
		}
		return sound
	},
	run: func(targets []any, r runRules) (*certify.Report, error) {
		opts := certify.DecoderOptions{Cases: []string{"dec/7.1.3/", "dec/4.2/2", "dec/6.2.1/"}, TrafficStories: 2, TrafficBlocks: 20, Generated: 1,
			ExpectFail: r.expect, Declared: r.declared, Strict: r.strict}
		var ts []certify.DecoderTarget
		for _, t := range targets {
			ts = append(ts, t.(certify.DecoderTarget))
		}
		return certify.RunDecoders(ts, opts)
	},
}

func reference() certify.Encoder { return certify.NewReference(encoder.Config{}) }

// hang is a program that answers five requests, then none: each request
// after the fifth waits for the certifier's timeout (here at once), and
// the calls made once it stopped answering are counted.
type hang struct {
	requests int
	// afterBreakdown counts the requests after the first unanswered one.
	afterBreakdown int
}

// request is one request to the program: nil while it answers.
func (h *hang) request() error {
	h.requests++
	switch {
	case h.requests == 6:
		return fmt.Errorf("no answer to request 6 in time: %w", certify.ErrTimeout)
	case h.requests > 6:
		h.afterBreakdown++
		return fmt.Errorf("no answer to request %d in time: %w", h.requests, certify.ErrTimeout)
	}
	return nil
}

// hangStderr is what the hanging program wrote, its stderr tail.
const hangStderr = "hang: stopped answering after 5 requests"

// hangingEncoder is the encoder side's hanging program: the reference
// encoder behind it, driven as a program (no InProcess marker).
type hangingEncoder struct {
	name string
	h    *hang
}

func (e *hangingEncoder) Name() string       { return e.name }
func (e *hangingEncoder) Close() error       { return nil }
func (e *hangingEncoder) StderrTail() string { return hangStderr }
func (e *hangingEncoder) NewEncoder() (certify.Encoder, error) {
	if e.h.requests >= 6 {
		return nil, e.h.request()
	}
	return &hangingContext{Encoder: reference(), h: e.h}, nil
}

type hangingContext struct {
	certify.Encoder
	h *hang
}

func (c *hangingContext) EncodeBlock(dst []byte, fields []certify.Field) ([]byte, error) {
	if err := c.h.request(); err != nil {
		return dst, err
	}
	return c.Encoder.EncodeBlock(dst, fields)
}

// hangingDecoder is the decoder side's hanging program: a sound decoder
// behind it, driven as a program.
type hangingDecoder struct {
	name string
	h    *hang
}

func (d *hangingDecoder) Name() string       { return d.name }
func (d *hangingDecoder) Close() error       { return nil }
func (d *hangingDecoder) StderrTail() string { return hangStderr }
func (d *hangingDecoder) NewDecoder() (certify.Decoder, error) {
	if d.h.requests >= 6 {
		return nil, d.h.request()
	}
	return &hangingDecoding{Decoder: broken.NewDecoder(0), h: d.h}, nil
}

type hangingDecoding struct {
	*broken.Decoder
	h *hang
}

func (d *hangingDecoding) DecodeBlock(block []byte) ([]certify.Field, error) {
	if err := d.h.request(); err != nil {
		return nil, err
	}
	return d.Decoder.DecodeBlock(block)
}
