package fuzz

import (
	"sync"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/oracle"
	"github.com/hpackcert/hpackcert/oracle/strict"
)

// A checker runs the checks against one list of oracles and keeps from one
// execution to the next what does not depend on the input: one decoder per
// oracle, reset for each connection when it has a Reset method (strict and
// nghttp2 do) and made anew otherwise, a strict reference decoder, one
// encoder per Config (reset), and the parsed script's and session's arrays.
// Every connection still starts from the state of a new one, so a check's
// verdict does not depend on what ran before it; TestCheckerReuse holds
// that.
//
// The CheckX functions make a new checker for each call. The native and
// go-fuzz targets take an idle checker of the registered oracles (check),
// kept at package level, since under libFuzzer (go-118-fuzz-build) FuzzX
// itself runs once per input and can keep nothing between executions.
type checker struct {
	oracles  []func() oracle.Decoder
	made     []oracle.Decoder // made[i] came from oracles[i]; nil until first needed
	ref      *strict.Decoder
	encoders map[encoder.Config]*encoder.Encoder
	script   Script
	session  Session
	// independentBugs are the bugs of the broken decoder the differential
	// target compares with strict: none, except in the tests that show
	// the target catches them.
	independentBugs bugSet
}

func newChecker(oracles []func() oracle.Decoder) *checker {
	return &checker{
		oracles:  oracles,
		made:     make([]oracle.Decoder, len(oracles)),
		ref:      strict.New(),
		encoders: map[encoder.Config]*encoder.Encoder{},
	}
}

type resetter interface{ Reset() }

// decoder returns a decoder of oracles[i] in the state of a new connection.
func (c *checker) decoder(i int) oracle.Decoder {
	if d, ok := c.made[i].(resetter); ok {
		d.Reset()
		return c.made[i]
	}
	c.made[i] = c.oracles[i]()
	return c.made[i]
}

// decoders appends to dst a decoder of every oracle, in the state of a new
// connection, and returns the extended slice.
func (c *checker) decoders(dst []oracle.Decoder) []oracle.Decoder {
	for i := range c.oracles {
		dst = append(dst, c.decoder(i))
	}
	return dst
}

// reference returns the strict reference decoder in the state of a new
// connection.
func (c *checker) reference() *strict.Decoder {
	c.ref.Reset()
	return c.ref
}

// encoder returns an encoder of cfg in the state of a new connection.
func (c *checker) encoder(cfg encoder.Config) *encoder.Encoder {
	if e, ok := c.encoders[cfg]; ok {
		e.Reset()
		return e
	}
	e := encoder.New(cfg)
	c.encoders[cfg] = e
	return e
}

// idle holds the checkers of every registered oracle that no check is
// using: one per check running at once, kept for good (a sync.Pool would
// drop them at every other collection, and with them the encoders'
// tables, which a worker collecting every few dozen executions would then
// allocate again and again).
var idle struct {
	sync.Mutex
	checkers []*checker
}

// check runs a check (a checker method such as (*checker).encodeRoundTrip)
// on data with an idle checker of every registered oracle, or a new one.
// A check that panics does not give its checker back.
func check(run func(*checker, []byte) error, data []byte) error {
	var c *checker
	idle.Lock()
	if n := len(idle.checkers); n > 0 {
		c = idle.checkers[n-1]
		idle.checkers = idle.checkers[:n-1]
	}
	idle.Unlock()
	if c == nil {
		c = newChecker(oracle.Available())
	}
	err := run(c, data)
	idle.Lock()
	idle.checkers = append(idle.checkers, c)
	idle.Unlock()
	return err
}
