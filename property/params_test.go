package property

import (
	"flag"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
)

// The knobs of a property run. Each flag has an environment twin so that a
// replay works through `go test ./...` too, where flags of one package are
// awkward to pass.
var (
	seedFlag        = flag.Int64("prop.seed", 0, "replay every property with this seed (env HPACKCERT_PROP_SEED; 0 means a fresh seed)")
	runsFlag        = flag.Int("prop.runs", 0, "successful runs per property (env HPACKCERT_PROP_RUNS; 0 means each property's default)")
	longFlag        = flag.Bool("prop.long", false, "long mode for a night's run: 100 times the default runs (env HPACKCERT_PROP_LONG=1)")
	regressionsFlag = flag.String("prop.regressions", "", "directory for shrunk failing sequences (env HPACKCERT_PROP_REGRESSIONS; default testdata/regressions)")
)

// longFactor multiplies default runs in long mode; raceDivisor divides them
// under -race, where everything is about ten times slower.
const (
	longFactor  = 100
	raceDivisor = 10
)

// envInt reads an integer environment variable; a malformed value stops
// the test with the variable's name rather than being ignored.
func envInt(t testing.TB, name string) (int64, bool) {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return 0, false
	}
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		t.Fatalf("%s=%q: not an integer: %v", name, s, err)
	}
	return v, true
}

// propSeed returns the seed a property runs with and whether it was asked
// for (a replay).
func propSeed(t testing.TB) (int64, bool) {
	t.Helper()
	if *seedFlag != 0 {
		return *seedFlag, true
	}
	if v, ok := envInt(t, "HPACKCERT_PROP_SEED"); ok && v != 0 {
		return v, true
	}
	return time.Now().UnixNano(), false
}

// longMode reports whether the night's-run mode is on.
func longMode() bool {
	if *longFlag {
		return true
	}
	v, err := strconv.ParseBool(os.Getenv("HPACKCERT_PROP_LONG"))
	return err == nil && v
}

// propRuns returns how many successful runs a property with the given
// default needs: an explicit count wins, then long mode, then -race cuts.
func propRuns(t testing.TB, defaultRuns int) int {
	t.Helper()
	if *runsFlag > 0 {
		return *runsFlag
	}
	if v, ok := envInt(t, "HPACKCERT_PROP_RUNS"); ok && v > 0 {
		return int(v)
	}
	n := defaultRuns
	if longMode() {
		n *= longFactor
	}
	if raceEnabled {
		n = max(n/raceDivisor, 3)
	}
	return n
}

// regressionsDir is where shrunk failing sequences are written.
func regressionsDir() string {
	if *regressionsFlag != "" {
		return *regressionsFlag
	}
	if d := os.Getenv("HPACKCERT_PROP_REGRESSIONS"); d != "" {
		return d
	}
	return "testdata/regressions"
}

// propConfig describes one property run.
type propConfig struct {
	runs    int // default successful runs, before flags, long mode and -race
	maxSize int // gopter's size bound: slice lengths, command counts
}

// params builds gopter parameters for t and logs how to replay them.
func params(t *testing.T, cfg propConfig) *gopter.TestParameters {
	t.Helper()
	seed, replay := propSeed(t)
	runs := propRuns(t, cfg.runs)
	p := gopter.DefaultTestParametersWithSeed(seed)
	p.MinSuccessfulTests = runs
	p.MaxSize = cfg.maxSize
	p.Workers = 1
	how := "fresh"
	if replay {
		how = "replayed"
	}
	t.Logf("%s seed %d, %d runs; replay: %s", how, seed, runs, replayHint(t, seed, runs))
	return p
}

// replayHint is the command line that reruns t with this seed and count.
// The count matters: gopter grows the size parameter with the run number.
func replayHint(t *testing.T, seed int64, runs int) string {
	top, _, _ := strings.Cut(t.Name(), "/")
	return fmt.Sprintf("HPACKCERT_PROP_SEED=%d HPACKCERT_PROP_RUNS=%d go test ./property -run '^%s$'", seed, runs, top)
}

// check runs prop with p and reports a failure with its shrunk arguments,
// labels and the replay command line.
func check(t *testing.T, p *gopter.TestParameters, prop gopter.Prop) *gopter.TestResult {
	t.Helper()
	res := prop.Check(p)
	if res.Passed() {
		t.Logf("passed %d runs in %v", res.Succeeded, res.Time.Round(time.Millisecond))
		return res
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%v after %d passed runs\n", res.Status, res.Succeeded)
	for _, l := range res.Labels {
		fmt.Fprintf(&b, "  %s\n", l)
	}
	if res.Error != nil {
		fmt.Fprintf(&b, "  error: %v\n%s\n", res.Error, res.ErrorStack)
	}
	for i, a := range res.Args {
		fmt.Fprintf(&b, "  arg %d (shrunk %d times): %s\n", i, a.Shrinks, a.ArgFormatted)
	}
	fmt.Fprintf(&b, "  replay: %s", replayHint(t, p.Seed(), p.MinSuccessfulTests))
	t.Error(b.String())
	return res
}

// forAll is prop.ForAll for a condition that returns an error: nil passes,
// and an error fails the property (and is shrunk) with its text as the
// label. prop.ForAll itself would count an error as a crash of the check.
func forAll(condition interface{}, gens ...gopter.Gen) gopter.Prop {
	f := reflect.ValueOf(condition)
	in := make([]reflect.Type, f.Type().NumIn())
	for i := range in {
		in[i] = f.Type().In(i)
	}
	resultType := reflect.TypeOf((*gopter.PropResult)(nil))
	wrapped := reflect.MakeFunc(reflect.FuncOf(in, []reflect.Type{resultType}, false), func(args []reflect.Value) []reflect.Value {
		res := &gopter.PropResult{Status: gopter.PropTrue}
		if err, _ := f.Call(args)[0].Interface().(error); err != nil {
			res = &gopter.PropResult{Status: gopter.PropFalse, Labels: []string{err.Error()}}
		}
		return []reflect.Value{reflect.ValueOf(res)}
	})
	return prop.ForAll(wrapped.Interface(), gens...)
}
