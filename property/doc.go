// Package property holds the property-based and model-based tests of the
// reference encoder (package encoder). It has no API: everything lives in
// its _test.go files.
//
// The state-machine test drives an encoder.Encoder with gopter commands
// (encode a block, set the peer's SETTINGS_HEADER_TABLE_SIZE, Reset, a round
// trip through a Pool) and checks it after every command against a plain
// slice-based model of the RFC 7541 §2.3.2 dynamic table and against every
// decoder registered in package oracle. Smaller properties cover the pieces:
// the integer representation (§5.1), the Huffman string representation
// (§5.2), compaction of the table arena, the giant-field fallback, zero
// allocation, and an escape-analysis gate over the encode path.
//
// Runs are reproducible. Every property logs its seed and run count;
// HPACKCERT_PROP_SEED (or -prop.seed) replays a seed, HPACKCERT_PROP_RUNS
// (or -prop.runs) sets the number of runs, and HPACKCERT_PROP_LONG=1 (or
// -prop.long) multiplies the default runs by 100 for a night's run. A failing
// command sequence is shrunk and written as a story file in the vectors
// format to testdata/regressions (or HPACKCERT_PROP_REGRESSIONS), and
// TestRegressionStories replays every story there.
package property
