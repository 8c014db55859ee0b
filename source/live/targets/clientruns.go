package targets

import (
	"context"
	"fmt"
	"slices"

	"github.com/hpackcert/hpackcert/source/live"
	"github.com/hpackcert/hpackcert/vectors"
)

// clientFunc makes the command of a client target that adds headers to
// every request, over TLS or h2c, and the function that runs it.
type clientFunc func(tlsOn bool, headers []vectors.Field) (*live.ClientCommand, func(ctx context.Context, urls []string) error, error)

// clientFields are the fields a client target is told to add to every
// request of each of its runs.
type clientFields struct {
	// traffic is for the first run (live.FirstRun) and, unless replay is
	// set, its replay.
	traffic []vectors.Field
	// generated is for the generated run: live.GeneratedClientHeaders.
	generated []vectors.Field
	// replay, when set, is for a replay pair of runs of its own rather
	// than the first run made again, and replayWhy says why.
	replay    []vectors.Field
	replayWhy string
}

// The names of a client target's runs after the first.
const (
	againRun       = "client-again"
	replayRun      = "client-replay"
	replayAgainRun = "client-replay-again"
	generatedRun   = "client-generated"
	steadyRun      = "client-steady"
)

// newClientFields returns live.ClientHeaders and
// live.GeneratedClientHeaders for the client called name, strings over
// 16 KiB included when large (a client that takes its fields other than
// on a command line), each field kept only when keep says so (nil keeps
// all).
func newClientFields(name string, large bool, keep func(vectors.Field) bool) clientFields {
	filter := func(list []vectors.Field) []vectors.Field {
		if keep == nil {
			return list
		}
		var out []vectors.Field
		for _, f := range list {
			if keep(f) {
				out = append(out, f)
			}
		}
		return out
	}
	return clientFields{
		traffic:   filter(live.ClientHeaders(name, large)),
		generated: filter(live.GeneratedClientHeaders(name, large)),
	}
}

// clientRuns returns the command of a client target's first run, the
// options of its capture but the time limits and the number of requests,
// and the notes to report: the first run with the traffic fields, the
// replay (the first run again, or a pair of runs of its own with the
// replay fields), the generated run, and a steady run of the traffic
// fields (live.ClientRun.Steady: live.SteadyRequests requests, no table
// size setting), where a client that indexes its requests fills its
// table and evicts, as no run under the schedule's changes lets every
// client do.
func clientRuns(t *TargetSpec, tlsOn bool) (*live.ClientCommand, live.ClientOptions, []string, error) {
	f := t.fields
	cmd, run, err := t.client(tlsOn, f.traffic)
	if err != nil {
		return nil, live.ClientOptions{}, nil, err
	}
	o := live.ClientOptions{Run: run, Headers: cmd.Headers, TLS: tlsOn}
	var notes []string
	if f.replay == nil {
		o.More = append(o.More, live.ClientRun{Name: againRun, Run: run, Headers: cmd.Headers, Again: live.FirstRun})
	} else {
		rcmd, rrun, err := t.client(tlsOn, f.replay)
		if err != nil {
			return nil, live.ClientOptions{}, nil, err
		}
		o.More = append(o.More,
			live.ClientRun{Name: replayRun, Run: rrun, Headers: rcmd.Headers},
			live.ClientRun{Name: replayAgainRun, Run: rrun, Headers: rcmd.Headers, Again: replayRun})
		notes = append(notes, fmt.Sprintf("the replay (enc/2.2/1) is a pair of runs of their own (%s, %s), not the first run made again: %s", replayRun, replayAgainRun, f.replayWhy))
	}
	if f.generated != nil {
		gcmd, grun, err := t.client(tlsOn, f.generated)
		if err != nil {
			return nil, live.ClientOptions{}, nil, err
		}
		o.More = append(o.More, live.ClientRun{Name: generatedRun, Run: grun, Headers: gcmd.Headers, Generated: true})
	}
	o.More = append(o.More, live.ClientRun{Name: steadyRun, Run: run, Headers: cmd.Headers, Requests: live.SteadyRequests, Steady: true})
	return cmd, o, notes, nil
}

// CommandClientRuns returns the command and the runs of a client command
// line of the user's (hpackcert live --client), parsed, as clientRuns
// gives a client target's: the first run, the same again (enc/2.2/1),
// and, for a line with {urls}, the steady run. Each word {headers} of the
// line (live.HeadersWord) becomes -H 'name: value' options (curl's and
// nghttp's syntax), one a field: of live.ClientHeaders for the first run,
// and of live.GeneratedClientHeaders for a generated run, which only a
// line with {headers} gets. The options' Requests, Timeout and
// StepTimeout are left to the caller.
func CommandClientRuns(name string, line *live.ClientCommand, tlsOn bool) (*live.ClientCommand, live.ClientOptions, []string, error) {
	t := &TargetSpec{Name: name, client: func(_ bool, headers []vectors.Field) (*live.ClientCommand, func(context.Context, []string) error, error) {
		cmd := line.WithHeaders(headers)
		return cmd, cmd.Run, nil
	}}
	headers := line.TakesHeaders()
	if headers {
		t.fields = newClientFields(name, false, nil)
	}
	cmd, o, notes, err := clientRuns(t, tlsOn)
	if err != nil {
		return nil, live.ClientOptions{}, nil, err
	}
	if !headers {
		notes = append(notes, "the command line has no {headers}: its requests carry the client's own fields only, so cases that need more (every octet, the static names, credentials, the generated run) may judge nothing; put {headers} where the client takes -H 'name: value' options")
	}
	if !cmd.AllURLs() {
		// A line of {url} slots requests as many URLs as it has.
		o.More = slices.DeleteFunc(o.More, func(r live.ClientRun) bool { return r.Steady })
	}
	return cmd, o, notes, nil
}
