package bench

import "github.com/hpackcert/hpackcert/hpack"

// Compat runs the reference encoder through package hpack, the x/net
// Encoder API over it: the same calls as XNet (WriteField into a
// bytes.Buffer, a new Encoder per connection of a pass), so the two
// compare what a program gets by changing its import.
type Compat = fieldWriterRunner[hpack.HeaderField, *hpack.Encoder]

// NewCompat returns a runner of package hpack's Encoder over w.
func NewCompat(w *Workload) *Compat {
	return newFieldWriterRunner[hpack.HeaderField](w, hpack.NewEncoder)
}

// CompatImpls returns the implementations of the compat workloads: package
// hpack (named "hpack", in the place of ours) and x/net's Encoder, driven
// by the same calls.
func CompatImpls() []Impl {
	return []Impl{
		{Name: "hpack", NewRunner: func(w *Workload) (Runner, error) { return NewCompat(w), nil }},
		{Name: "xnet", NewRunner: func(w *Workload) (Runner, error) { return NewXNet(w), nil }},
	}
}
