package hpack

import (
	"testing"

	xhpack "golang.org/x/net/http2/hpack"
)

// TestHeaderFieldMethods checks IsPseudo, String and Size against x/net's
// HeaderField for the same fields, and that the types convert.
func TestHeaderFieldMethods(t *testing.T) {
	for _, f := range []HeaderField{
		{},
		{Name: ":path", Value: "/"},
		{Name: ":", Value: ""},
		{Name: "cookie", Value: "a=b", Sensitive: true},
		{Name: "x-quote", Value: "say \"hi\"\n"},
		{Name: "user-agent", Value: string(make([]byte, 300))},
	} {
		x := xhpack.HeaderField(f)
		if got, want := f.IsPseudo(), x.IsPseudo(); got != want {
			t.Errorf("%+v.IsPseudo() = %v; x/net says %v", f, got, want)
		}
		if got, want := f.String(), x.String(); got != want {
			t.Errorf("%+v.String() = %q; x/net says %q", f, got, want)
		}
		if got, want := f.Size(), x.Size(); got != want {
			t.Errorf("%+v.Size() = %d; x/net says %d", f, got, want)
		}
		if back := HeaderField(x); back != f {
			t.Errorf("converting %+v to x/net's type and back gives %+v", f, back)
		}
	}
}
