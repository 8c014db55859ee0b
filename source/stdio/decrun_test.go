package stdio_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/broken"
	"github.com/hpackcert/hpackcert/internal/certifytest"
	"github.com/hpackcert/hpackcert/source/stdio"
)

// quickDecoderOptions cuts the traffic stories of dec/3.2/1, for runs
// over stdio (a stdio target is driven as one: it has no marker).
func quickDecoderOptions() certify.DecoderOptions {
	return certify.DecoderOptions{TrafficStories: 4, TrafficBlocks: 40, Generated: 2}
}

// runBrokenDecoder serves the broken decoder with the bugs args[0]
// names, under the name of its in-process target.
func runBrokenDecoder(args []string) int {
	bugs, err := broken.ParseDecoderBugs(args[0])
	if err != nil {
		return exitStatus(err)
	}
	name := broken.NewDecoderTarget(bugs).Name()
	return exitStatus(stdio.ServeDecoder(os.Stdin, os.Stdout, name, func() certify.Decoder { return broken.NewDecoder(bugs) }))
}

// TestRunDecodersStdioStrict certifies the strict decoder over
// hpack-stdio/1: it must pass every dec/ case, as it does in process.
func TestRunDecodersStdioStrict(t *testing.T) {
	target := execDecoder(t, "strict", stdio.ExecOptions{})
	rep, err := certify.RunDecoders([]certify.DecoderTarget{target}, quickDecoderOptions())
	if err != nil {
		t.Fatal(err)
	}
	name := rep.Encoders[0]
	if b := rep.Targets[name].Breakdown; b != "" {
		t.Errorf("breakdown: %s", b)
	}
	if len(rep.Cases) < 20 {
		t.Errorf("%d dec/ cases graded; want the whole catalogue", len(rep.Cases))
	}
	for _, c := range rep.Cases {
		if res := rep.Results[name][c.ID]; res.Grade != certify.Pass {
			t.Errorf("%s: %s: %s\n%s", c.ID, res.Grade, res.Detail, res.Repro)
		}
	}
}

// TestPlantedDecoderBugsStdio runs the table of planted decoder bugs over
// hpack-stdio/1: the broken decoder served with each bug fails exactly
// the cases the table says (certifytest.PlantedDecoderBugs), and no
// other, with no breakdown. The bomb of a decoder without a header-list
// limit comes back as an answer over the line bound (16 MiB), which
// dec/7.3/1 grades as the expansion it is.
func TestPlantedDecoderBugsStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("a dec/ run for every planted bug; skipped in -short mode")
	}
	var targets []certify.DecoderTarget
	planted := certifytest.PlantedDecoderBugs()
	for _, p := range planted {
		targets = append(targets, execDecoder(t, "broken "+p.Name, stdio.ExecOptions{Timeout: 30 * time.Second}))
	}
	rep, err := certify.RunDecoders(targets, quickDecoderOptions())
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range planted {
		name := rep.Encoders[i]
		if b := rep.Targets[name].Breakdown; b != "" {
			t.Errorf("%s: breakdown: %s", p.Name, b)
		}
		var wrong []string
		for _, c := range rep.Cases {
			res := rep.Results[name][c.ID]
			want, listed := p.Fails[c.ID]
			switch {
			case listed && res.Grade != want:
				wrong = append(wrong, fmt.Sprintf("%s %s, want %s: %s", c.ID, res.Grade, want, res.Detail))
			case !listed && (res.Grade == certify.Fail || res.Grade == certify.NonStrict):
				wrong = append(wrong, fmt.Sprintf("%s %s, want no failure: %s", c.ID, res.Grade, res.Detail))
			}
		}
		if len(wrong) > 0 {
			t.Errorf("%s over stdio:\n%s", p.Name, strings.Join(wrong, "\n"))
		}
	}
}
