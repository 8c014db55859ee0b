package certify

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/oracle"
)

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

// builtins maps the names Builtin accepts to their constructors; the
// nghttp2 adapter adds itself when built with the nghttp2 tag.
var builtins = map[string]func() Encoder{
	"ref":  func() Encoder { return NewReference(encoder.Config{}) },
	"xnet": func() Encoder { return NewXNet() },
}

// builtinNames maps builtin names to the names the reports use.
var builtinNames = map[string]string{
	"ref":  "ref",
	"xnet": "x/net",
}

// BuiltinNames returns the names Builtin accepts: "ref" and "xnet", then
// any others (such as "nghttp2") sorted.
func BuiltinNames() []string {
	out := []string{"ref", "xnet"}
	var more []string
	for name := range builtins {
		if name != "ref" && name != "xnet" {
			more = append(more, name)
		}
	}
	sort.Strings(more)
	return append(out, more...)
}

// Builtin returns the target for one of the encoders built into hpackcert:
// "ref" (package encoder), "xnet" (golang.org/x/net/http2/hpack) and, when
// built with the nghttp2 tag, "nghttp2" (libnghttp2's deflater).
func Builtin(name string) (Target, error) {
	newEncoder, ok := builtins[name]
	if !ok && name == "nghttp2" {
		return nil, errors.New("certify: built-in encoder \"nghttp2\" is not in this build: build with -tags nghttp2 (needs libnghttp2-dev and pkg-config), e.g. go build -tags nghttp2 -o hpackcert ./cmd/hpackcert")
	}
	if !ok {
		return nil, fmt.Errorf("certify: no built-in encoder %q (have %s)", name, strings.Join(BuiltinNames(), ", "))
	}
	return Func(builtinNames[name], newEncoder), nil
}

// Reference adapts the reference encoder (package encoder) to Encoder.
type Reference struct {
	enc *encoder.Encoder
}

// NewReference returns a reference encoder with the given configuration.
func NewReference(cfg encoder.Config) *Reference {
	return &Reference{enc: encoder.New(cfg)}
}

// SetMaxDynamicTableSize implements Encoder.
func (r *Reference) SetMaxDynamicTableSize(n uint32) error {
	r.enc.SetMaxDynamicTableSize(n)
	return nil
}

// EncodeBlock implements Encoder. The block starts with any pending size
// updates, so that a block without fields still carries them (RFC 7541
// §4.2).
func (r *Reference) EncodeBlock(dst []byte, fields []Field) ([]byte, error) {
	dst = r.enc.AppendSizeUpdates(dst)
	for _, f := range fields {
		dst = r.enc.AppendFieldString(dst, f.Name, f.Value, f.Sensitive)
	}
	return dst, nil
}

// Table implements TableReader.
func (r *Reference) Table() []oracle.Field {
	out := make([]oracle.Field, r.enc.TableLen())
	for i := range out {
		name, value := r.enc.TableEntry(i)
		out[i] = oracle.Field{Name: string(name), Value: string(value)}
	}
	return out
}

// Reset starts a new context, as the determinism case checks.
func (r *Reference) Reset() { r.enc.Reset() }

// XNet adapts golang.org/x/net/http2/hpack's Encoder to Encoder. Its
// table is not visible, so the certifier compares the oracles' tables
// with each other only.
type XNet struct {
	buf bytes.Buffer
	enc *hpack.Encoder
}

// NewXNet returns an x/net encoder with a table of 4096 octets.
func NewXNet() *XNet {
	x := &XNet{}
	x.enc = hpack.NewEncoder(&x.buf)
	return x
}

// SetMaxDynamicTableSize implements Encoder. x/net caps the size at its
// limit, 4096 by default, as the setting allows.
func (x *XNet) SetMaxDynamicTableSize(n uint32) error {
	x.enc.SetMaxDynamicTableSize(n)
	return nil
}

// EncodeBlock implements Encoder.
func (x *XNet) EncodeBlock(dst []byte, fields []Field) ([]byte, error) {
	x.buf.Reset()
	for _, f := range fields {
		if err := x.enc.WriteField(hpack.HeaderField{Name: f.Name, Value: f.Value, Sensitive: f.Sensitive}); err != nil {
			return dst, err
		}
	}
	return append(dst, x.buf.Bytes()...), nil
}
