// Package fuzz holds hpackcert's fuzz targets, written once and run
// unchanged by Go's native fuzzing (go test -fuzz), go-fuzz, and libFuzzer
// through OSS-Fuzz or ClusterFuzzLite (see docs/FUZZING.md).
//
// Each target is a Check function here, taking the fuzzer's input as one
// []byte and returning an error that describes a failure readably:
//
//   - CheckEncodeRoundTrip: a Script (fields, sensitive flags, table-size
//     changes, block boundaries, resets) through the reference encoder;
//     every oracle must decode each block to the script's fields and hold
//     the encoder's dynamic table; the strict oracle must see the size
//     updates §4.2 asks for, in blocks without fields too.
//   - CheckHuffman: octets through the encoder's Huffman coder, directly
//     (AppendHuffman, HuffmanLen) and as a field value, and every oracle's
//     decoder; Huffman in a field only when the mode says, of the length
//     the code lengths give, octet-equal to x/net's code; and the
//     octets read as a Huffman code by the reference decoder's
//     AppendHuffman, which must accept or refuse it as x/net's decoder
//     does, with the same octets.
//   - CheckInteger: integers written by encoder.AppendInteger with every
//     prefix from 1 to 8, values up to 2^64-1, and by the field API with
//     4-, 5-, 6- and 7-bit prefixes, read back by the wire walker of
//     internal/wire, which the certifier uses too.
//   - CheckDecoderDifferential: a Session of arbitrary blocks and settings
//     fed to every oracle, which must agree with the strict oracle except
//     where oracle.KnownLeniencies says why not, and to the broken
//     decoder without bugs (internal/broken), which must agree with it
//     exactly. Its seeds include the blocks of the dec/ catalogue's
//     stories (certify.DecoderStoryBlocks). Every registered oracle is
//     judged (TestDifferentialJudgesEveryOracle): the reference decoder
//     (package decoder) joins it by registering in oracle/all.
//   - CheckCertifyXNetEncoder: a Script through the encoder of
//     golang.org/x/net/http2/hpack, judged by the strict oracle.
//   - CheckQPACKEncodeRoundTrip: a QScript (QPACK settings, header lists
//     and a delivery schedule) through the reference QPACK encoder
//     (package qencoder, as source/inprocess serves it); the encoder
//     stream reaches the decoders in pieces and late, sections out of
//     order, some streams are reset, and the strict QPACK decoder
//     (oracle/qstrict) must decode every section to its list and never
//     refuse; what it writes on the decoder stream goes back to the
//     encoder, which must accept it. The other QPACK decoders must decode
//     the same fields (quic-go/qpack: the sections with a Required Insert
//     Count of 0).
//   - CheckQPACKDecoders: a QSession of arbitrary encoder-stream octets,
//     field sections and stream resets fed to qstrict and the other QPACK
//     decoders, which must agree with it (quic-go/qpack on the sections
//     with a Required Insert Count of 0) except where qpackDifferences
//     says why not; qstrict's errors must carry the code of the stream at
//     fault, and its decoder stream be well formed.
//
// The QPACK decoders the two QPACK targets hold against qstrict are the
// list qpackDecoders (qpack.go), each opened through certify/qpack's
// Decoder interface and marked static-only or not. libnghttp3's decoder
// (internal/libnghttp3, tag nghttp3) joins by one entry appended to that
// list in a file built with the tag; TestQPACKRoundTripCatches and
// TestQPACKDecodersCatches already drive the path of a decoder with a
// dynamic table, with qstrict behind the interface.
//
// fuzz_test.go wraps each CheckX as the native target FuzzX, and gofuzz.go
// (build tag gofuzz) as the go-fuzz entry point FuzzGoX. A native target's
// name appears in fuzz_test.go and in no other file under fuzz/: OSS-Fuzz's
// compile_native_go_fuzzer finds the file to rewrite by grepping the
// package directory for the name, and fails when more than one file has it. The oracles
// are those linked into the binary: strict, ref and x/net always, nghttp2
// with -tags nghttp2.
//
// # Reuse between executions
//
// A fuzz engine calls a target thousands of times a second, so the targets
// keep what does not depend on the input: each runs its check with a
// checker kept from one execution to the next (checker.go), which holds
// one decoder per oracle, reset for every connection (strict.Decoder.Reset,
// nghttp2.Decoder.Reset; x/net has none and is made anew), one reference
// strict decoder, one encoder per Config (encoder.Encoder.Reset), and the
// arrays of the parsed script or session. In the round-trip target the
// strict oracle is the reference as well, so it decodes each block once.
// Every connection starts from the state of a new one, so no verdict
// depends on an earlier execution (TestCheckerReuse). The CheckX
// functions, which take oracle factories, make a new checker on every
// call.
//
// # Bounds on one execution
//
// Each bound keeps one execution within a few milliseconds, and the go
// command's minimization of a new input within seconds (BenchmarkCorpus and
// BenchmarkRandomInputs show what executions cost; fuzz/measure.sh how
// long fuzzing stalls). The minimizer, which fuzzing waits for, tries to
// remove every stretch of a new input, some n²/2 executions for n octets
// that cannot go, so the octets a target reads are bounded as well as what
// they can ask for. A parser stops at the op that would break a bound and
// reads no further:
//
//   - Scripts (round trip, x/net encoder): the first MaxScriptInput (224)
//     octets; a name or value of at most MaxString (1,023) octets, longer
//     ones cut; a header list of at most MaxScriptListSize (2,048) octets
//     in the whole script, counted as name + value + 32 per field; at most
//     MaxScriptBlocks (64) ops that end a block (setting changes, ends of
//     block, resets). With that list bound a table of 4,096 octets or more
//     evicts only after a setting has lowered it; the capacities of 64,
//     100, 256 and 1,024 octets evict without one, and fill the encoder's
//     arena until it compacts.
//   - Sessions (decoder differential): the first MaxSessionInput (320)
//     octets, and so at most as many octets of blocks, and at most
//     MaxSessionSteps (64) blocks and settings.
//   - QScripts (QPACK round trip): a Script's bounds, MaxScriptInput
//     octets, MaxString a string, MaxScriptListSize for all the lists,
//     MaxScriptBlocks ops other than fields; SETTINGS_QPACK_MAX_TABLE_CAPACITY
//     up to 4,096 and SETTINGS_QPACK_BLOCKED_STREAMS up to 100.
//   - QSessions (QPACK decoders): a Session's, MaxSessionInput octets and
//     MaxSessionSteps steps.
//   - Huffman: the first MaxHuffmanInput (192) octets of the input.
//   - Integer (field API): octets 0 to 4, as before; table sizes below
//     2^15 and string lengths below 2^15 (a slice of one string of 0xff
//     made once), and dynamic indices up to 61 + 256 (1,085 until the
//     bounds were set: each index past 61 costs an entry that every oracle
//     decodes), the table filled with "n0": "v0" ... made once and sent
//     raw. Each bound lets every integer length the prefix can take below
//     2^15 occur. The direct check of AppendInteger reads octets 0 to 8 and
//     takes any 64-bit value; it costs no more.
//
// TestSeedsWithinBounds checks that no committed seed is cut by a bound.
//
// # Files
//
// One file per target: roundtrip.go (CheckEncodeRoundTrip), with the
// Script it parses in script.go; huffman.go (CheckHuffman); integer.go
// (CheckInteger); differential.go (CheckDecoderDifferential and its
// Session); xnetencoder.go (CheckCertifyXNetEncoder, and CertifyScript,
// which judges any ScriptEncoder). independent.go is the differential
// target's second decoder, internal/broken's without bugs;
// independent_gofuzz.go puts the strict decoder in its place under the
// gofuzz tag, where internal/broken cannot be built. checker.go is the
// checker the targets share, and gofuzz.go the go-fuzz entry points.
// The QPACK targets keep no checker (qstrict has no Reset): qpack.go
// holds the decoder list, the quic-go/qpack adapter and the known
// differences, qpack_script.go the QScript, qpack_roundtrip.go
// CheckQPACKEncodeRoundTrip, qpack_decoders.go the QSession and
// CheckQPACKDecoders; qpack_encoder.go opens the reference encoder
// through source/inprocess, and qpack_encoder_gofuzz.go through package
// qencoder itself under the gofuzz tag, where source/inprocess (which
// imports the embedded raw-data of package vectors) cannot be built.
// Their seeds come from TestQPACKSeeds (qpack_seeds_test.go).
package fuzz
