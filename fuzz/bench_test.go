package fuzz

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/oracle"
)

// corpusTarget is a native target's check function, as its FuzzX wrapper in
// fuzz_test.go calls it.
type corpusTarget struct {
	name  string
	check func(data []byte) error
}

func corpusTargets() []corpusTarget {
	oracles := oracle.Available()
	return []corpusTarget{
		{targetEncodeRoundTrip, func(data []byte) error { return CheckEncodeRoundTrip(data, oracles) }},
		{targetHuffman, func(data []byte) error { return CheckHuffman(data, oracles) }},
		{targetInteger, func(data []byte) error { return CheckInteger(data, oracles) }},
		{targetDecoderDifferential, func(data []byte) error { return CheckDecoderDifferential(data, oracles) }},
		{targetCertifyXNetEncoder, CheckCertifyXNetEncoder},
	}
}

// readCorpus returns the committed raw seeds of target, corpus/<target>/,
// sorted by file name.
func readCorpus(tb testing.TB, target string) (names []string, inputs [][]byte) {
	tb.Helper()
	dir := filepath.Join("..", "corpus", target)
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			tb.Fatal(err)
		}
		names = append(names, e.Name())
		inputs = append(inputs, b)
	}
	if len(inputs) == 0 {
		tb.Fatalf("%s: no seeds", dir)
	}
	return names, inputs
}

// BenchmarkCorpus replays each target's committed seed corpus through its
// check function, with the oracles linked into the binary, as a fuzz
// engine's worker does: one op is one pass over the corpus. It reports the
// mean time of one execution (ns/exec), the rate one worker can reach on
// these inputs (execs/s), and the mean time of the slowest seed
// (slowest-ns/exec), which bounds how long the engine's minimizer waits
// on one candidate. For a profile:
//
//	go test -tags nghttp2 -run '^$' -bench 'Corpus/FuzzEncodeRoundTrip' -cpuprofile cpu.out ./fuzz
func BenchmarkCorpus(b *testing.B) {
	for _, target := range corpusTargets() {
		b.Run(target.name, func(b *testing.B) {
			names, inputs := readCorpus(b, target.name)
			perInput := make([]time.Duration, len(inputs))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				for i, in := range inputs {
					start := time.Now()
					if err := target.check(in); err != nil {
						b.Fatalf("seed %s: %v", names[i], err)
					}
					perInput[i] += time.Since(start)
				}
			}
			b.StopTimer()
			execs := float64(b.N) * float64(len(inputs))
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/execs, "ns/exec")
			b.ReportMetric(execs/b.Elapsed().Seconds(), "execs/s")
			slowest := 0
			for i := range perInput {
				if perInput[i] > perInput[slowest] {
					slowest = i
				}
			}
			b.ReportMetric(float64(perInput[slowest].Nanoseconds())/float64(b.N), "slowest-ns/exec")
			b.Logf("slowest seed: %s", names[slowest])
		})
	}
}
