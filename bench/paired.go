package bench

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/internal/cputime"
)

// A paired measurement runs the implementations of a workload in short
// alternating slices, rotating their order every round, and divides each
// peer's time by ours within the same round. On a shared virtual machine
// the speed of a vCPU changes by up to 2x from one second to the next
// (the host's other tenants), which the medians of whole benchmark runs
// (compare.sh) absorb only partly: a run of ours in a slow second and one
// of a peer in a fast second make a ratio that describes neither. Slices a
// few milliseconds long, side by side, see the same conditions, so the
// median of the per-round ratios is much steadier than the ratio of the
// medians. Command paired prints them; BENCHMARKS.md gives both.

// PairedOp is one implementation's operation in a paired measurement.
type PairedOp struct {
	Impl string
	// Op performs n operations of the workload.
	Op func(n int) error
	// Close, when set, releases what Op holds outside the Go heap.
	Close func()
}

// PairedWorkload is a workload with an operation per implementation, ours
// first.
type PairedWorkload struct {
	Name string
	Unit string // what one operation is: "block", "pass" or "op"
	Ops  []PairedOp
}

// Close releases every operation's resources.
func (w PairedWorkload) Close() {
	for _, op := range w.Ops {
		if op.Close != nil {
			op.Close()
		}
	}
}

// PairedWorkloads returns the workloads the issue 16 targets name, (a)
// batch, (b) stories, (c) churn and (d) Huffman on varied text and random
// octets, with an operation for each of impls (ours must come first;
// Impls() puts it there) and, for (d), ours and x/net; and compat-batch
// and compat-stories, (a) and (b) through package hpack's x/net API
// against x/net's Encoder (CompatImpls); block-batch, block-stories and
// block-churn, (a) to (c) through the encoder's block API (AppendBlock,
// "ours-block") against the same peers; the proxy hops of
// ProxyHopWorkloads; the decoding rows of DecodeWorkloads (issue 38); and
// the qpack-encode row of QPACKWorkloads (issue 39).
// dir is the hpack-test-case directory for the stories. Only the
// workloads named in names are built (all if names is empty).
func PairedWorkloads(dir string, impls []Impl, names []string) ([]PairedWorkload, error) {
	want := func(name string) bool { return len(names) == 0 || slices.Contains(names, name) }
	var out []PairedWorkload
	fail := func(err error) ([]PairedWorkload, error) {
		for _, w := range out {
			w.Close()
		}
		return nil, err
	}
	runners := func(name, unit string, w *Workload, steady bool, impls []Impl) error {
		pw := PairedWorkload{Name: name, Unit: unit}
		for _, impl := range impls {
			r, err := impl.NewRunner(w)
			if err != nil {
				pw.Close()
				return fmt.Errorf("%s: %s: %w", name, impl.Name, err)
			}
			op := r.Passes
			warm := 1
			if steady {
				op, warm = r.Steps, w.Blocks()
			}
			pw.Ops = append(pw.Ops, PairedOp{Impl: impl.Name, Close: r.Close})
			if _, err := op(warm); err != nil {
				pw.Close()
				return fmt.Errorf("%s: %s: %w", name, impl.Name, err)
			}
			pw.Ops[len(pw.Ops)-1].Op = func(n int) error { _, err := op(n); return err }
		}
		out = append(out, pw)
		return nil
	}
	// (a), (b) and (c), then the block API's rows: the same with ours
	// encoding each block by one AppendBlock call, against the same peers.
	blockImpls := append([]Impl{{Name: "ours-block", NewRunner: func(w *Workload) (Runner, error) { return NewOursBlock(w), nil }}}, impls[1:]...)
	for _, set := range []struct {
		prefix string
		impls  []Impl
	}{{"", impls}, {"block-", blockImpls}} {
		if want(set.prefix + "batch") {
			if err := runners(set.prefix+"batch", "block", Batch(), true, set.impls); err != nil {
				return fail(err)
			}
		}
		if want(set.prefix + "stories") {
			w, err := Stories(dir)
			if err != nil {
				return fail(err)
			}
			if err := runners(set.prefix+"stories", "pass", w, false, set.impls); err != nil {
				return fail(err)
			}
		}
		if want(set.prefix + "churn") {
			if err := runners(set.prefix+"churn", "block", Churn(), true, set.impls); err != nil {
				return fail(err)
			}
		}
	}
	if want("compat-batch") {
		if err := runners("compat-batch", "block", Batch(), true, CompatImpls()); err != nil {
			return fail(err)
		}
	}
	if want("compat-stories") {
		w, err := Stories(dir)
		if err != nil {
			return fail(err)
		}
		if err := runners("compat-stories", "pass", w, false, CompatImpls()); err != nil {
			return fail(err)
		}
	}
	hops, err := ProxyHopWorkloads(dir, slices.DeleteFunc(slices.Clone(names), func(n string) bool {
		return !strings.HasPrefix(n, "proxy-")
	}), len(names) == 0)
	if err != nil {
		return fail(err)
	}
	out = append(out, hops...)
	decodes, err := DecodeWorkloads(dir, names, len(names) == 0)
	if err != nil {
		return fail(err)
	}
	out = append(out, decodes...)
	qpackRows, err := QPACKWorkloads(names, len(names) == 0)
	if err != nil {
		return fail(err)
	}
	out = append(out, qpackRows...)
	for _, h := range []struct {
		name     string
		variants func() [][]string
	}{
		{"huffman-text-varied", HuffmanTextVaried},
		{"huffman-random-varied", HuffmanRandomVaried},
	} {
		if !want(h.name) {
			continue
		}
		variants := h.variants()
		size := totalLen(variants[0])
		pw := PairedWorkload{Name: h.name, Unit: "op"}
		for _, impl := range []struct {
			name   string
			append func(dst []byte, values []string) []byte
		}{{"ours", appendHuffmanOurs}, {"xnet", appendHuffmanXNet}} {
			dst := make([]byte, 0, 4*size+8)
			next := 0
			pw.Ops = append(pw.Ops, PairedOp{Impl: impl.name, Op: func(n int) error {
				for range n {
					dst = impl.append(dst[:0], variants[next])
					if next++; next == len(variants) {
						next = 0
					}
				}
				return nil
			}})
		}
		out = append(out, pw)
	}
	return out, nil
}

// totalLen returns the number of octets of values.
func totalLen(values []string) int {
	n := 0
	for _, v := range values {
		n += len(v)
	}
	return n
}

// PairedResult is the outcome of MeasurePaired.
type PairedResult struct {
	Workload string
	Unit     string
	Impls    []string    // Ops' names, ours first
	NsPerOp  [][]float64 // NsPerOp[i][r]: implementation i's ns per operation in round r
	CPUTime  bool        // the thread's CPU time was measured, not wall time
}

// MeasurePaired runs w's operations in rounds slices each: every round runs
// each operation once for about slice, the order rotating from round to
// round, with a garbage collection before each slice so that none pays for
// another's garbage. It measures the CPU time of the thread (wall time
// where that clock is missing) on one locked OS thread.
func MeasurePaired(w PairedWorkload, rounds int, slice time.Duration) (*PairedResult, error) {
	if rounds < 1 || len(w.Ops) == 0 {
		return nil, fmt.Errorf("%s: nothing to measure", w.Name)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	_, cpuOK := cputime.Thread()
	clock := func() time.Duration {
		if cpuOK {
			d, _ := cputime.Thread()
			return d
		}
		return time.Duration(time.Now().UnixNano())
	}
	res := &PairedResult{Workload: w.Name, Unit: w.Unit, CPUTime: cpuOK}
	// Calibrate: the number of operations that take about slice.
	counts := make([]int, len(w.Ops))
	for i, op := range w.Ops {
		res.Impls = append(res.Impls, op.Impl)
		n := 1
		for {
			start := clock()
			if err := op.Op(n); err != nil {
				return nil, fmt.Errorf("%s: %s: %w", w.Name, op.Impl, err)
			}
			took := clock() - start
			if took >= slice/4 || n >= 1<<30 {
				counts[i] = max(1, int(float64(n)*float64(slice)/float64(max(took, 1))))
				break
			}
			n *= 2
		}
	}
	res.NsPerOp = make([][]float64, len(w.Ops))
	for r := range rounds {
		for k := range w.Ops {
			i := (r + k) % len(w.Ops)
			runtime.GC()
			start := clock()
			if err := w.Ops[i].Op(counts[i]); err != nil {
				return nil, fmt.Errorf("%s: %s: %w", w.Name, w.Ops[i].Impl, err)
			}
			took := clock() - start
			res.NsPerOp[i] = append(res.NsPerOp[i], float64(took)/float64(counts[i]))
		}
	}
	return res, nil
}

// Median returns implementation i's median ns per operation.
func (r *PairedResult) Median(i int) float64 { return quantile(r.NsPerOp[i], 0.5) }

// Ratios returns the quartiles (0.25, 0.5, 0.75) of peer i's time divided
// by ours (implementation 0) in the same round: how many times faster ours
// was.
func (r *PairedResult) Ratios(i int) (q1, median, q3 float64) {
	ratios := make([]float64, len(r.NsPerOp[0]))
	for k := range ratios {
		ratios[k] = r.NsPerOp[i][k] / r.NsPerOp[0][k]
	}
	return quantile(ratios, 0.25), quantile(ratios, 0.5), quantile(ratios, 0.75)
}

// quantile returns the q-quantile of xs, interpolating between the two
// nearest values.
func quantile(xs []float64, q float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	pos := q * float64(len(s)-1)
	lo := int(pos)
	if lo+1 >= len(s) {
		return s[len(s)-1]
	}
	frac := pos - float64(lo)
	return s[lo]*(1-frac) + s[lo+1]*frac
}
