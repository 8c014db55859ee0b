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
// ids.go (CompareIDs), expect.go (Expectations, the expect-fail list),
// expectfile.go (Catalogue: the expect file and declarations read and
// checked against the cases), declare.go (Declaration), settle.go
// (Rules.Settle, the rules of a run applied to each result), target.go
// (target names, kinds, stderr tails and breakdowns), report.go (the
// per-target parts of a report: TargetInfo, LiveInfo, Ungraded, Repro,
// ReproPath), version.go (Version).
//
// Still in package certify, to move here once a report no longer holds
// the encoder side's Case and Coverage: the Report and its verdict
// methods (Failed, Ungraded, NothingJudged), WriteRepros.
package engine
