package stdio_test

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/hpackstdio"
)

// TestExecBreakdownError checks that the breakdowns of a program reach
// the engine as what they are, through the Target's encoder: a
// *hpackstdio.BreakdownError naming the request, which matches
// certify.ErrTimeout for a timeout only.
func TestExecBreakdownError(t *testing.T) {
	enc := filepath.Join(stdioBinaries(t), "stdioenc")
	tests := []struct {
		flags   string
		timeout bool
		want    string // the whole error; "" for any
	}{
		{"-garbage", false, `encoder broke hpack-stdio at request 3: the answer to encode is not JSON (at octet 2): "this is not JSON"`},
		{"-hang-after 0", true, "encoder broke hpack-stdio at request 3: no answer to encode within 2s"},
		{"-crash-after 0", false, "encoder broke hpack-stdio at request 3: the encoder exited (exit status 3) without answering encode"},
		{"-big-wire 1048577", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.flags, func(t *testing.T) {
			target := execTarget(t, enc+" "+tt.flags, 2*time.Second)
			e, err := target.NewEncoder()
			if err != nil {
				t.Fatal(err)
			}
			_, err = e.EncodeBlock(nil, []certify.Field{{Name: "a", Value: "b"}})
			var be *hpackstdio.BreakdownError
			switch {
			case !errors.As(err, &be) || be.Request != 3 || be.Op != hpackstdio.OpEncode:
				t.Errorf("error %#v; want a *hpackstdio.BreakdownError of request 3, encode", err)
			case tt.want != "" && err.Error() != tt.want:
				t.Errorf("error %q; want %q", err, tt.want)
			case errors.Is(err, certify.ErrTimeout) != tt.timeout:
				t.Errorf("error %v: matches certify.ErrTimeout %t; want %t", err, !tt.timeout, tt.timeout)
			}
		})
	}
}
