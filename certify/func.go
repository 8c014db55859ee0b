package certify

// Func returns a target for a Go encoder running in this process: each
// call of newEncoder must return a fresh encoding context.
func Func(name string, newEncoder func() Encoder) Target {
	return &funcTarget{name: name, new: newEncoder}
}

type funcTarget struct {
	name string
	new  func() Encoder
}

func (t *funcTarget) Name() string                 { return t.name }
func (t *funcTarget) NewEncoder() (Encoder, error) { return t.new(), nil }
func (t *funcTarget) Close() error                 { return nil }
func (t *funcTarget) InProcess()                   {}
