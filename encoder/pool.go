package encoder

import "sync"

// A Pool keeps encoders of one Config for reuse across connections. Get
// returns an encoder in the state of a new connection; Put takes one back.
// A warm Get and Put allocate nothing. The zero Pool hands out encoders
// of the zero Config. A Pool is safe for concurrent use; like sync.Pool,
// which it wraps, it may drop idle encoders at any time.
type Pool struct {
	// Config configures the encoders the pool makes. Set it before the
	// first Get and do not change it after.
	Config Config

	pool sync.Pool
}

// Get returns an encoder of the pool's Config in the state of a new
// connection, reusing one given back by Put when it can.
func (p *Pool) Get() *Encoder {
	if e, ok := p.pool.Get().(*Encoder); ok {
		return e
	}
	return New(p.Config)
}

// Put resets e and keeps it for a later Get. The caller must not use e
// after Put. Encoders of another Config than the pool's are dropped, and
// so is nil.
func (p *Pool) Put(e *Encoder) {
	if e == nil || e.config != normalize(p.Config) {
		return
	}
	e.Reset()
	p.pool.Put(e)
}
