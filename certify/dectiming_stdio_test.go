package certify_test

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/shell"
	"github.com/hpackcert/hpackcert/internal/testenv"
	"github.com/hpackcert/hpackcert/source/stdio"
)

// TestTimingStdio grades dec/7.3/2 for decoder programs over
// hpack-stdio/1 (testdata/squaredec), which are timed by their own CPU
// time (/proc/PID/task/*/schedstat): the program whose work grows with
// the square of the string is non-strict, the one that waits as long and
// works linearly passes. Off Linux, where wall time is all there is,
// both are inconclusive. Grades only are asserted, never times.
func TestTimingStdio(t *testing.T) {
	dir := testenv.BuildCommands(t, "certify/testdata/squaredec")
	tests := []struct {
		name, flags string
		want        certify.Grade
	}{
		{"work", "", certify.NonStrict},
		{"wait", "-wait", certify.Pass},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.want
			if runtime.GOOS != "linux" {
				want = certify.Info
			}
			// One thread runs the program's Go code: the CPU time of idle
			// threads spinning for work to steal is not the decoding's.
			t.Setenv("GOMAXPROCS", "1")
			target, err := stdio.ExecDecoder(shell.Quote(filepath.Join(dir, "squaredec"))+" "+tt.flags, stdio.ExecOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer target.Close()
			name := target.Name()
			rep, err := certify.RunDecoders([]certify.DecoderTarget{target}, certify.DecoderOptions{Cases: []string{"dec/7.3/2"}})
			if err != nil {
				t.Fatal(err)
			}
			res := rep.Results[name]["dec/7.3/2"]
			t.Logf("%s: %s", res.Grade, res.Detail)
			if res.Grade != want || want != certify.Info && !strings.Contains(res.Detail, "CPU time of the decoder program") {
				t.Errorf("%s %q; want %s, timed by the program's CPU time", res.Grade, res.Detail, want)
			}
		})
	}
}
