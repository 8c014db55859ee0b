package bench

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/cputime"
	"github.com/hpackcert/hpackcert/internal/testenv"
)

var implsFlag = flag.String("impls", "", "comma-separated `names` of the implementations to benchmark (ours, xnet, nghttp2); empty: all")

// benchImpl reports whether the benchmarks run implementation name, as
// -impls says: compare.sh runs a purego build of ours alone this way.
func benchImpl(name string) bool {
	return *implsFlag == "" || slices.Contains(strings.Split(*implsFlag, ","), name)
}

// cAllocCounter is implemented by runners whose allocations happen in C,
// out of sight of ReportAllocs.
type cAllocCounter interface {
	CAllocs() (calls, bytes int64)
}

// timed runs op(b.N) as the timed part of b. Besides wall time it reports
// cpu-ns/op, the CPU time of the thread running op (Linux only): the loop,
// Go's or nghttp2's in C, runs on one locked thread, so time spent
// descheduled while other processes run is left out. Go's garbage collector
// works on other threads, so cpu-ns/op leaves out part of the cost of an
// implementation that allocates (x/net).
func timed(b *testing.B, op func(n int) error) {
	b.ReportAllocs()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// Finish the garbage collection that setup (reading the stories,
	// building a runner) or an earlier benchmark (x/net's garbage) may
	// have started, so that its mark workers do not run beside the
	// timed loop on the other CPU.
	runtime.GC()
	b.ResetTimer()
	cpu0, cpuOK := cputime.Thread()
	if err := op(b.N); err != nil {
		b.Fatal(err)
	}
	cpu1, _ := cputime.Thread()
	b.StopTimer()
	if cpuOK {
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
	}
}

// run times op (Steps or Passes of r) with timed and reports, for a runner
// allocating in C, its C allocations per operation beside Go's allocs/op.
func run(b *testing.B, r Runner, op func(n int) (int, error)) {
	counter, inC := r.(cAllocCounter)
	var calls0, bytes0 int64
	if inC {
		calls0, bytes0 = counter.CAllocs()
	}
	timed(b, func(n int) error {
		_, err := op(n)
		return err
	})
	if inC {
		calls, bytes := counter.CAllocs()
		b.ReportMetric(float64(calls-calls0)/float64(b.N), "C-allocs/op")
		b.ReportMetric(float64(bytes-bytes0)/float64(b.N), "C-B/op")
	}
}

// benchSteps runs a steady workload: one long-lived context per
// implementation, one block per operation, after a warm-up cycle over every
// block so the dynamic tables start full.
func benchSteps(b *testing.B, w *Workload) {
	for _, impl := range Impls() {
		if !benchImpl(impl.Name) {
			continue
		}
		b.Run("impl="+impl.Name, func(b *testing.B) {
			r := newRunner(b, impl, w)
			if _, err := r.Steps(w.Blocks()); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(w.RawBytes() / w.Blocks()))
			run(b, r, r.Steps)
		})
	}
}

// benchPasses runs a pass workload: one pass over every connection per
// operation, each on a fresh context.
func benchPasses(b *testing.B, w *Workload, impls []Impl) {
	for _, impl := range impls {
		if !benchImpl(impl.Name) {
			continue
		}
		b.Run("impl="+impl.Name, func(b *testing.B) {
			r := newRunner(b, impl, w)
			if _, err := r.Passes(1); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(w.RawBytes()))
			run(b, r, r.Passes)
			if w.Blocks() > 1 {
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*w.Blocks()), "ns/block")
			}
		})
	}
}

// BenchmarkBatch is workload (a): the 4-field batch on a warm connection.
func BenchmarkBatch(b *testing.B) { benchSteps(b, Batch()) }

// BenchmarkStories is workload (b): one operation encodes all 32 raw-data
// stories, each on a fresh (for ours, pooled) encoder; ns/block divides by
// the 3,384 blocks.
func BenchmarkStories(b *testing.B) {
	w, err := Stories(testenv.TestCaseDir(b))
	if err != nil {
		b.Fatal(err)
	}
	benchPasses(b, w, Impls())
}

// BenchmarkChurn is workload (c): an edge proxy's request stream with a
// fresh request id and a rotating bearer token in every block.
func BenchmarkChurn(b *testing.B) { benchSteps(b, Churn()) }

// BenchmarkSetup is workload (e): set up a connection's encoder, encode
// one small block, release the encoder. pool=new makes a new encoder every
// time (x/net and nghttp2 can do nothing else); pool=pooled takes ours from
// an encoder.Pool and puts it back.
func BenchmarkSetup(b *testing.B) {
	w := Setup()
	b.Run("pool=new", func(b *testing.B) {
		impls := Impls()
		for i := range impls {
			if impls[i].Name == "ours" {
				impls[i].NewRunner = func(w *Workload) (Runner, error) { return NewOursUnpooled(w), nil }
			}
		}
		benchPasses(b, w, impls)
	})
	b.Run("pool=pooled", func(b *testing.B) {
		benchPasses(b, w, Impls()[:1])
	})
}

// BenchmarkCreate is the time to create the encoder of a new connection,
// told the table size of the case, and release it, encoding nothing.
// pool=new makes it (x/net: hpack.NewEncoder; nghttp2:
// nghttp2_hd_deflate_new2 and _del, in a loop in C); pool=pooled takes ours
// from an encoder.Pool and puts it back. Ours has the table size as its
// Capacity.
func BenchmarkCreate(b *testing.B) {
	for _, size := range []uint32{4096, 65536} {
		b.Run(fmt.Sprintf("table=%d", size), func(b *testing.B) {
			create := []struct {
				name string
				op   func(n int) error
			}{
				{"pool=new/impl=ours", func(n int) error {
					for range n {
						e := encoder.New(encoder.Config{Capacity: size})
						if size != 4096 {
							e.SetMaxDynamicTableSize(size)
						}
						createSink = e
					}
					return nil
				}},
				{"pool=new/impl=xnet", func(n int) error {
					for range n {
						e := hpack.NewEncoder(io.Discard)
						if size != 4096 {
							e.SetMaxDynamicTableSizeLimit(size)
							e.SetMaxDynamicTableSize(size)
						}
						createSink = e
					}
					return nil
				}},
				{"pool=pooled/impl=ours", func(n int) error {
					pool := encoder.Pool{Config: encoder.Config{Capacity: size}}
					pool.Put(pool.Get())
					for range n {
						e := pool.Get()
						if size != 4096 {
							e.SetMaxDynamicTableSize(size)
						}
						pool.Put(e)
					}
					return nil
				}},
			}
			if createNghttp2 != nil {
				create = append(create, struct {
					name string
					op   func(n int) error
				}{"pool=new/impl=nghttp2", func(n int) error { return createNghttp2(size, n) }})
			}
			for _, c := range create {
				impl := c.name[strings.LastIndex(c.name, "=")+1:]
				if !benchImpl(impl) {
					continue
				}
				b.Run(c.name, func(b *testing.B) { timed(b, c.op) })
			}
		})
	}
}

// createSink keeps BenchmarkCreate's encoders from being optimized away.
var createSink any

// BenchmarkHuffman is workload (d): Huffman coding alone (RFC 7541 §5.2)
// of typical header values and of random octets of the same lengths, with
// encoder.AppendHuffmanString and x/net's hpack.AppendHuffmanString.
// libnghttp2 exports no Huffman function, so it is absent here. The inputs
// text and random are the same every operation; text-varied and
// random-varied take the next of HuffmanVariants variants each operation
// (see HuffmanTextVaried); text-joined is the text as one string.
func BenchmarkHuffman(b *testing.B) {
	fixed := func(s []string) [][]string { return [][]string{s} }
	for _, input := range []struct {
		name     string
		variants [][]string
	}{
		{"text", fixed(HuffmanText())},
		{"random", fixed(HuffmanRandom())},
		{"text-varied", HuffmanTextVaried()},
		{"random-varied", HuffmanRandomVaried()},
		// The text as one string: against input=text, the cost of
		// coding it one value at a time (calls, string ends).
		{"text-joined", fixed([]string{strings.Join(HuffmanText(), "")})},
	} {
		b.Run("input="+input.name, func(b *testing.B) {
			size := totalLen(input.variants[0])
			dst := make([]byte, 0, 4*size+8) // room for AppendHuffmanString to code without counting first
			for _, impl := range []struct {
				name   string
				append func(dst []byte, values []string) []byte
			}{{"ours", appendHuffmanOurs}, {"xnet", appendHuffmanXNet}} {
				if !benchImpl(impl.name) {
					continue
				}
				b.Run("impl="+impl.name, func(b *testing.B) {
					b.SetBytes(int64(size))
					timed(b, func(n int) error {
						for i := range n {
							dst = impl.append(dst[:0], input.variants[i%len(input.variants)])
						}
						return nil
					})
				})
			}
		})
	}
}
