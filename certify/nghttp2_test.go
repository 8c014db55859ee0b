//go:build nghttp2

package certify_test

import (
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
)

// TestNghttp2Grades certifies libnghttp2's deflater: it breaks no rule,
// strictly.
func TestNghttp2Grades(t *testing.T) {
	target, err := certify.Builtin("nghttp2")
	if err != nil {
		t.Fatal(err)
	}
	opts := quick()
	opts.Strict = true
	rep, err := certify.Run([]certify.Target{target}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if bad := gradesWithout(rep, "nghttp2"); len(bad) > 0 {
		t.Errorf("nghttp2 with Strict:\n%s", strings.Join(bad, "\n"))
	}
	if n := rep.Counts("nghttp2")[certify.Pass]; n < len(rep.Cases)-5 {
		t.Errorf("nghttp2 passed %d of %d cases; want all but the info cases", n, len(rep.Cases))
	}
}
