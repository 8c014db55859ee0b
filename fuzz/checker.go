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
// go-fuzz targets take one from a pool of checkers of the registered
// oracles (check), since under libFuzzer (go-118-fuzz-build) FuzzX itself
// runs once per input and can keep nothing between executions.
type checker struct {
	oracles  []func() oracle.Decoder
	made     []oracle.Decoder // made[i] came from oracles[i]; nil until first needed
	ref      *strict.Decoder
	encoders map[encoder.Config]*encoder.Encoder
	script   Script
	session  Session
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

// checkers holds checkers of every registered oracle for check.
var checkers = sync.Pool{New: func() any { return newChecker(oracle.Available()) }}

// check runs a check (a checker method such as (*checker).encodeRoundTrip)
// on data with a checker of every registered oracle from the pool. A
// check that panics does not give its checker back.
func check(run func(*checker, []byte) error, data []byte) error {
	c := checkers.Get().(*checker)
	err := run(c, data)
	checkers.Put(c)
	return err
}
