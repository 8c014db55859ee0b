package bench

import "slices"

// DecodeWorkloads returns the paired workloads of issue 38 named in names,
// or all of them if all is set: decode-batch and decode-stories, the
// recording of workload (a) or (b) decoded (decode.go); huffman-decode
// (huffdecode.go); hop-stories and hop-churn, the proxy hop with one
// implementation on both halves over the recording of (b) or (c). dir is
// the hpack-test-case directory for the stories. Ours comes first in each.
func DecodeWorkloads(dir string, names []string, all bool) ([]PairedWorkload, error) {
	var out []PairedWorkload
	fail := func(err error) ([]PairedWorkload, error) {
		for _, w := range out {
			w.Close()
		}
		return nil, err
	}
	for _, d := range []struct {
		name, unit string
		load       func() (*Workload, error)
		hop        bool
	}{
		{"decode-batch", "block", func() (*Workload, error) { return Batch(), nil }, false},
		{"decode-stories", "pass", func() (*Workload, error) { return Stories(dir) }, false},
		{"hop-stories", "pass", func() (*Workload, error) { return Stories(dir) }, true},
		{"hop-churn", "pass", func() (*Workload, error) { return Churn(), nil }, true},
	} {
		if !all && !slices.Contains(names, d.name) {
			continue
		}
		w, err := d.load()
		if err != nil {
			return fail(err)
		}
		runs, err := decodeRuns(recordWire(w), d.hop)
		if err != nil {
			return fail(err)
		}
		out = append(out, PairedWorkload{Name: d.name, Unit: d.unit, Ops: pairedOps(runs)})
	}
	if all || slices.Contains(names, "huffman-decode") {
		out = append(out, PairedWorkload{Name: "huffman-decode", Unit: "op", Ops: pairedOps(huffmanDecodeRuns())})
	}
	return out, nil
}
