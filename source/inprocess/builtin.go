// Package inprocess is the in-process source: the Go encoders built into
// hpackcert (the reference encoder, x/net's and, under the nghttp2 build
// tag, libnghttp2's deflater), by name, as certify Targets. A Go user's own
// encoder needs no source: certify.Func and certify.TestEncoder take it.
//
// The Go decoders built into hpackcert are here too, for the dec/ cases:
// BuiltinDecoder returns the strict decoder, x/net's, the reference
// decoder (package decoder) and, under the nghttp2 build tag,
// libnghttp2's inflater as certify DecoderTargets.
//
// The files: builtin.go and nghttp2.go (the encoders), decoders.go (the
// decoders by name), decoder_strict.go, decoder_xnet.go, decoder_ref.go
// and decoder_nghttp2.go (each decoder as the engine drives it).
package inprocess

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/encoder"
)

// builtins maps the names Builtin accepts to their constructors; the
// nghttp2 adapter adds itself when built with the nghttp2 tag.
var builtins = map[string]func() certify.Encoder{
	"ref":  func() certify.Encoder { return certify.NewReference(encoder.Config{}) },
	"xnet": func() certify.Encoder { return NewXNet() },
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
func Builtin(name string) (certify.Target, error) {
	newEncoder, ok := builtins[name]
	if !ok && name == "nghttp2" {
		return nil, errors.New("built-in encoder \"nghttp2\" is not in this build: build with -tags nghttp2 (needs libnghttp2-dev and pkg-config), e.g. go build -tags nghttp2 -o hpackcert ./cmd/hpackcert")
	}
	if !ok {
		return nil, fmt.Errorf("no built-in encoder %q (have %s)", name, strings.Join(BuiltinNames(), ", "))
	}
	return certify.Func(builtinNames[name], newEncoder), nil
}

// XNet adapts golang.org/x/net/http2/hpack's Encoder to certify.Encoder. Its
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
func (x *XNet) EncodeBlock(dst []byte, fields []certify.Field) ([]byte, error) {
	x.buf.Reset()
	for _, f := range fields {
		if err := x.enc.WriteField(hpack.HeaderField{Name: f.Name, Value: f.Value, Sensitive: f.Sensitive}); err != nil {
			return dst, err
		}
	}
	return append(dst, x.buf.Bytes()...), nil
}
