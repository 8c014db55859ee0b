package fuzz

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"
)

// corpusTarget is a native target's check, run as its FuzzX wrapper in
// fuzz_test.go runs it.
type corpusTarget struct {
	name  string
	run   func(*checker, []byte) error
	check func(data []byte) error
}

func corpusTargets() []corpusTarget {
	targets := []corpusTarget{
		{name: targetEncodeRoundTrip, run: (*checker).encodeRoundTrip},
		{name: targetHuffman, run: (*checker).huffman},
		{name: targetInteger, run: (*checker).integer},
		{name: targetDecoderDifferential, run: (*checker).decoderDifferential},
		{name: targetCertifyXNetEncoder, run: (*checker).certifyXNetEncoder},
	}
	for i := range targets {
		run := targets[i].run
		targets[i].check = func(data []byte) error { return check(run, data) }
	}
	return targets
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
//	go test -tags nghttp2 -run '^$' -bench 'Corpus/<Target>$' -cpuprofile cpu.out ./fuzz
func BenchmarkCorpus(b *testing.B) {
	for _, target := range corpusTargets() {
		b.Run(target.name, func(b *testing.B) {
			names, inputs := readCorpus(b, target.name)
			benchmarkInputs(b, target, names, inputs)
		})
	}
}

// benchmarkInputs runs target's check over inputs, one pass an op, and
// reports ns/exec, execs/s and the mean time of the slowest input.
func benchmarkInputs(b *testing.B, target corpusTarget, names []string, inputs [][]byte) {
	perInput := make([]time.Duration, len(inputs))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for i, in := range inputs {
			start := time.Now()
			if err := target.check(in); err != nil {
				b.Fatalf("input %s: %v", names[i], err)
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
	b.Logf("slowest input: %s", names[slowest])
}

// BenchmarkRandomInputs runs each target's check over 1,000 pseudo-random
// inputs of 1 to 1,024 octets (a fixed seed), closer than the corpus to
// what a fuzz engine's mutations hand a target: a random script asks for
// giant runs, a random session for long blocks of junk. It reports what
// BenchmarkCorpus does.
func BenchmarkRandomInputs(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	inputs := make([][]byte, 1000)
	names := make([]string, len(inputs))
	for i := range inputs {
		inputs[i] = make([]byte, 1+rng.IntN(1024))
		for j := range inputs[i] {
			inputs[i][j] = byte(rng.Uint32())
		}
		names[i] = fmt.Sprintf("%d (%d octets)", i, len(inputs[i]))
	}
	for _, target := range corpusTargets() {
		b.Run(target.name, func(b *testing.B) {
			benchmarkInputs(b, target, names, inputs)
		})
	}
}
