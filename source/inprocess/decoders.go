package inprocess

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/hpackcert/hpackcert/certify"
)

// builtinDecoder is one decoder built into hpackcert: the name its
// reports use and a constructor of fresh contexts.
type builtinDecoder struct {
	reportName string
	newDecoder func() certify.Decoder
}

// builtinDecoders maps the names BuiltinDecoder accepts to the decoders;
// the nghttp2 inflater adds itself when built with the nghttp2 tag.
var builtinDecoders = map[string]builtinDecoder{
	"strict": {"strict", func() certify.Decoder { return NewStrictDecoder() }},
	"xnet":   {"x/net", func() certify.Decoder { return NewXNetDecoder() }},
	"ref":    {"ref", func() certify.Decoder { return NewRefDecoder() }},
}

// BuiltinDecoderNames returns the names BuiltinDecoder accepts: "strict"
// and "xnet", then the others ("nghttp2", "ref") sorted. Strict, the
// judge of every dec/ case, keeps the first column of a report, and the
// columns of earlier reports keep their places.
func BuiltinDecoderNames() []string {
	out := []string{"strict", "xnet"}
	var more []string
	for name := range builtinDecoders {
		if name != "strict" && name != "xnet" {
			more = append(more, name)
		}
	}
	sort.Strings(more)
	return append(out, more...)
}

// BuiltinDecoder returns the decoder target for one of the decoders built
// into hpackcert, for the dec/ cases: "strict" (oracle/strict), "xnet"
// (golang.org/x/net/http2/hpack as net/http2 drives it), "ref" (package
// decoder, the reference decoder) and, when built with the nghttp2 tag,
// "nghttp2" (libnghttp2's inflater). Each context
// it opens returns every decoding error wrapped by certify.Reject, and a
// panic of the library as a plain error, a breakdown.
func BuiltinDecoder(name string) (certify.DecoderTarget, error) {
	b, ok := builtinDecoders[name]
	if !ok && name == "nghttp2" {
		return nil, errors.New("built-in decoder \"nghttp2\" is not in this build: build with -tags nghttp2 (needs libnghttp2-dev and pkg-config), e.g. go build -tags nghttp2 -o hpackcert ./cmd/hpackcert")
	}
	if !ok {
		return nil, fmt.Errorf("no built-in decoder %q (have %s)", name, strings.Join(BuiltinDecoderNames(), ", "))
	}
	return certify.DecoderFunc(b.reportName, b.newDecoder), nil
}

// listLimit converts a SETTINGS_MAX_HEADER_LIST_SIZE value to the int
// limits of the oracles, where 0 and less mean none, as 0 does in the
// setting's certify form. A value an int cannot hold is no limit either.
func listLimit(n uint32) int {
	if uint64(n) > math.MaxInt {
		return 0
	}
	return int(n)
}

// guard runs call, one call into a decoding library, and turns a panic
// inside it into a plain error naming the library and the panic: a
// breakdown of the target, never a decoding error.
func guard[T any](library string, call func() (T, error)) (result T, err error) {
	defer func() {
		if r := recover(); r != nil {
			var zero T
			result, err = zero, fmt.Errorf("inprocess: the %s decoder panicked: %v", library, r)
		}
	}()
	return call()
}
