package certify

// TestingT is what TestEncoder needs of a test: the methods of
// *testing.T it calls, with Run taking the test type itself. *testing.T
// satisfies TestingT[*testing.T]; the certifier does not import package
// testing, so that it is not linked into the hpackcert command.
type TestingT[T any] interface {
	Helper()
	Name() string
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Logf(format string, args ...any)
	Skipf(format string, args ...any)
	Run(name string, f func(t T)) bool
}

// TestEncoder certifies a Go encoder from its own tests, the way
// nettest.TestConn checks a net.Conn: every case runs as a subtest named
// by its id. A failing case fails its subtest with the detail and the
// reproduction; a non-strict case is logged, or fails when opts sets
// Strict; info cases are logged and unsupported ones skipped.
//
// t is the test's *testing.T. newEncoder must return a fresh encoding
// context on every call. opts, at most one, replaces the default Options;
// to keep the test quick under -race, set TrafficStories and
// TrafficBlocks:
//
//	func TestConformance(t *testing.T) {
//		certify.TestEncoder(t, func() certify.Encoder { return newMyAdapter() },
//			certify.Options{TrafficStories: 4, TrafficBlocks: 50})
//	}
func TestEncoder[T TestingT[T]](t T, newEncoder func() Encoder, opts ...Options) {
	t.Helper()
	var o Options
	switch len(opts) {
	case 0:
	case 1:
		o = opts[0]
	default:
		t.Fatalf("certify.TestEncoder: %d Options given, want at most one", len(opts))
	}
	rep, err := Run([]Target{Func(t.Name(), newEncoder)}, o)
	if err != nil {
		t.Fatalf("certify.TestEncoder: %v", err)
	}
	results := rep.Results[rep.Encoders[0]]
	for _, c := range rep.Cases {
		res := results[c.ID]
		t.Run(c.ID, func(t T) {
			// A failure points at the caller's line: the subtest function
			// is a helper too.
			t.Helper()
			switch res.Grade {
			case Fail:
				if res.Expected {
					t.Logf("expected failure: %s", res.Detail)
					return
				}
				t.Errorf("%s: %s\n%s\n%s", c.Title, res.Detail, c.RFC, res.Repro)
			case NonStrict:
				t.Logf("non-strict: %s: %s\n%s", c.Title, res.Detail, res.Repro)
			case Unsupported:
				t.Skipf("unsupported: %s", res.Detail)
			default:
				t.Logf("%s: %s", res.Grade, res.Detail)
			}
		})
	}
	if cov := rep.Coverage[rep.Encoders[0]]; cov != nil {
		t.Logf("coverage: %s", cov)
	}
}
