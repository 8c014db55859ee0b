// Package engine is the verdict model of hpackcert written once for every
// side (encoders, decoders) and, next, every codec (HPACK, QPACK): the
// grades, a case's result and its evidence, the root-cause bookkeeping
// (consequences), the declarations and expected failures of a run, checked
// against the run's targets and cases with one precedence, the naming of
// targets, and the breakdown of a target, its one failure. A side (package
// certify's encoder side, its decoder side) plays its targets and judges
// its transcripts; it hands each result to Settle, and the rules a user
// relies on are then the same whichever side is graded.
//
// The files: grade.go (Grade), result.go (Result, Consequence, Evidence),
// expect.go (Expectations, the expect-fail list), declare.go
// (Declaration), settle.go (Settle and the rules of a run applied to each
// result), target.go (target names, kinds and breakdowns).
package engine
