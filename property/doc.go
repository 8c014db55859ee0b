// Package property holds the property-based and model-based tests of the
// reference encoder (package encoder), written with gopter. It has no API:
// everything lives in its _test.go files.
//
// # What is tested
//
// TestStateMachine drives an encoder.Encoder with gopter commands: encode a
// block of generated fields (static-table names, pooled names and values
// that repeat, fresh octets 0x00-0xFF, empty strings, sensitive flags,
// values larger than the table), ack SETTINGS_HEADER_TABLE_SIZE values
// (0, above Capacity, down then up between two blocks), Reset, and a round
// trip through a Pool. After every command it checks the encoder against a
// plain slice-based model of the RFC 7541 §2.3.2 dynamic table and the
// documented indexing policy, against one decoder of every oracle
// registered in package oracle, and against the reference decoder
// (package decoder, told of each acknowledged setting by SetTableSize),
// whose dynamic table, read through TableEntry and TableSize, must equal
// the model's exactly: each block decodes to exactly the fields
// given (never-indexed where sensitive or where the policy says), with the
// representation the policy picks; the encoder's table, the model's and
// every decoder's are identical; TableSize <= MaxTableSize <= Capacity;
// every integer is minimal (§5.1); a string is Huffman coded exactly when
// the policy's HuffmanMode says (§5.2); a block starts with the size
// updates §4.2 asks for, at most two, and the strict decoder neither
// rejects nor warns.
//
// The reference decoder has properties of its own beyond package decoder's
// tests, on the blocks the encoder writes for the machine's commands, a
// quarter of them mutated: it agrees with oracle/strict on every block,
// fields, table, and the section and place of a refusal
// (TestDecoderAgreesWithStrict); DecodeFragment on a block cut anywhere
// gives what Decode gives (TestDecodeFragmentCuts); and its AppendHuffman
// reads back what the encoder codes, and refuses a changed coding when
// x/net's decoder does (TestDecoderHuffman).
//
// Smaller properties cover the pieces through the public API: integers on
// the wire with 4-, 5-, 6- and 7-bit prefixes (TestInteger*) and
// MaxFieldLen up to 2^32; Huffman round trip, length and the shorter-only
// rule for arbitrary octets (TestHuffman, TestHuffmanModes); compaction
// under long churn through tiny tables (TestCompactionKeepsTable); the
// giant-field fallback (TestGiantFieldLeavesTable); zero allocation of every
// call of generated sequences (TestZeroAllocation, not under -race), and of
// every call of the reference decoder on the blocks the encoder writes for
// them and on refused blocks (TestDecoderZeroAllocation); and an
// escape-analysis gate over the encode path (TestEscapeAnalysisGate), and
// the same gate over the reference decoder's decode path, with its emit
// callback not escaping (TestDecoderEscapeGate).
//
// # Reproducing and running longer
//
// Every property logs its seed, its run count and the command line that
// replays it (go test -v shows the log; a failure always does). The knobs,
// as flags (go test ./property -args -prop.seed=N) or environment:
//
//	HPACKCERT_PROP_SEED=N         replay seed N (-prop.seed)
//	HPACKCERT_PROP_RUNS=N         N successful runs per property (-prop.runs)
//	HPACKCERT_PROP_LONG=1         100 times the default runs (-prop.long)
//	HPACKCERT_PROP_REGRESSIONS=D  where failing sequences go (-prop.regressions)
//
// A replay needs the same seed and run count, since gopter grows the size
// of generated values with the run number. Under -race every property runs
// a tenth of its default runs.
//
// # Regression stories
//
// When TestStateMachine fails, gopter shrinks the command sequence and the
// test writes it to testdata/regressions (or HPACKCERT_PROP_REGRESSIONS) as
// a story file in the format of package vectors, with the "table_sizes"
// and "sensitive" extensions; the configuration, Resets and Pool round trips
// go on the first line of the description. TestRegressionStories replays
// every story there. No story is written while one already there still
// fails, so that runs against a known bug do not pile up copies.
//
// A command that hangs (an encoder stuck in an eviction loop) is left to
// the test binary's -timeout, which prints the stuck goroutine's stack: no
// wall-clock limit decides a result of the suite.
//
// # Files
//
// doc.go is the only file outside the tests. The state machine:
// machine_prop_test.go (TestStateMachine), machine_test.go (its commands),
// system_test.go (the encoder, its pool and a decoder per oracle),
// refdecoder_test.go (the reference decoder on the machine's connection),
// state_test.go and model_test.go (the model of a connection and of its
// dynamic table), verdict_test.go (the checks after each command) and
// gen_test.go (the generated fields). story_test.go writes a failing
// sequence as a story and regression_test.go replays them. The smaller
// properties are in integer_test.go, huffman_test.go, table_test.go,
// alloc_test.go, decoder_alloc_test.go, decoder_strict_test.go,
// decoder_fragment_test.go, escape_test.go and escape_decoder_test.go,
// several of them through pair_test.go
// (an encoder and a strict decoder kept in step). wire_test.go is the
// tests' own block walker, for those and for the machine's checks.
// params_test.go reads the knobs; race_test.go, norace_test.go,
// purego_test.go and nopurego_test.go say how the binary was built.
package property
