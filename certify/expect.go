package certify

import (
	"sync"

	"github.com/hpackcert/hpackcert/certify/decoders"
	"github.com/hpackcert/hpackcert/certify/qdecoders"
	"github.com/hpackcert/hpackcert/certify/qencoders"
	"github.com/hpackcert/hpackcert/engine"
)

// Declaration says that a case, or every case under an id prefix, cannot
// be graded for a target (engine.Declaration).
type Declaration = engine.Declaration

// caseNames are the cases of both sides, for what users name.
var caseNames = sync.OnceValue(func() *engine.Catalogue {
	c := &engine.Catalogue{Prefixes: []string{"enc/", "dec/", "qenc/", "qdec/"}}
	for _, cs := range allCases {
		c.IDs = append(c.IDs, cs.ID)
	}
	for _, cs := range decoders.DecoderCases() {
		c.IDs = append(c.IDs, cs.ID)
	}
	for _, cs := range qencoders.Cases() {
		c.IDs = append(c.IDs, cs.ID)
	}
	for _, cs := range qdecoders.Cases() {
		c.IDs = append(c.IDs, cs.ID)
	}
	return c
})

// runRules checks a run's expected failures and declarations against
// its targets and the catalogue (engine.Catalogue.Rules).
func runRules(side string, names []string, strict bool, expectFail []string, decls []Declaration) (*engine.Rules, error) {
	return caseNames().Rules(side, names, strict, expectFail, decls)
}

// ParseDeclaration parses one declaration of cases a target cannot be
// graded on, the value of hpackcert's --declare-unsupported
// (engine.Catalogue.ParseDeclaration).
func ParseDeclaration(s string) ([]Declaration, error) { return caseNames().ParseDeclaration(s) }

// ReadExpectations reads an expect file, the file of hpackcert's
// --expect-fail (engine.Catalogue.ReadExpectations).
func ReadExpectations(path string) (failures []string, declared []Declaration, err error) {
	return caseNames().ReadExpectations(path)
}

// finishExpectations marks the targets declared to judge nothing that
// judged nothing, and lists the expectations no finding met.
func (r *Report) finishExpectations(expect *engine.Expectations) {
	for _, name := range r.Encoders {
		// Expectations name a target as it names itself (Reported),
		// as for its breakdown and failures, not as the report
		// renamed a second target of that name ("NAME #2").
		if r.NothingJudged(name) && expect.NothingJudged(r.Targets[name].Reported) {
			info := r.Targets[name]
			info.NothingJudgedExpected = true
			r.Targets[name] = info
		}
	}
	r.StaleExpectations = expect.Stale()
}
