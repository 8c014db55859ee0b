package stdio_test

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/certifytest"
	"github.com/hpackcert/hpackcert/source/inprocess"
)

// TestJobsSameReport certifies in-process encoders and planted bugs over
// hpack-stdio one at a time and three at once (Options.Jobs): the two
// reports must be the same, target for target and case for case, but
// for the times.
func TestJobsSameReport(t *testing.T) {
	enc := filepath.Join(stdioBinaries(t), "stdioenc")
	targets := func() []certify.Target {
		var ts []certify.Target
		for _, name := range []string{"ref", "xnet"} {
			b, err := inprocess.Builtin(name)
			if err != nil {
				t.Fatal(err)
			}
			ts = append(ts, b)
		}
		for _, p := range certifytest.PlantedBugs[:6] {
			ts = append(ts, execTarget(t, enc+" -bug "+p.Bug.String(), 10*time.Second))
		}
		return append(ts, execTarget(t, enc, 10*time.Second))
	}
	run := func(jobs int) (*certify.Report, any) {
		opts := certifytest.Quick()
		opts.Jobs = jobs
		opts.ExpectFail = []string{"enc/4.4/1"}
		rep, err := certify.Run(targets(), opts)
		if err != nil {
			t.Fatal(err)
		}
		return rep, withoutTimes(t, map[string]any{
			"encoders": rep.Encoders, "results": rep.Results, "coverage": rep.Coverage,
			"targets": rep.Targets, "stale": rep.StaleExpectations,
		})
	}
	one, a := run(1)
	_, b := run(3)
	if !reflect.DeepEqual(a, b) {
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		t.Fatalf("reports differ:\n one at a time: %.3000s\n three at once: %.3000s", ja, jb)
	}
	if len(one.Encoders) != 9 || one.Results[one.Encoders[2]] == nil {
		t.Fatalf("encoders %v: want 9, with results", one.Encoders)
	}
}

// withoutTimes returns v as JSON values, every member whose name says
// elapsed left out.
func withoutTimes(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	var strip func(any)
	strip = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			for k, v := range x {
				if strings.Contains(strings.ToLower(k), "elapsed") {
					delete(x, k)
					continue
				}
				strip(v)
			}
		case []any:
			for _, v := range x {
				strip(v)
			}
		}
	}
	strip(out)
	return out
}
