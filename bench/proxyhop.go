package bench

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/hpackcert/hpackcert/encoder"
	ourhpack "github.com/hpackcert/hpackcert/hpack"
	"golang.org/x/net/http2/hpack"
)

// A proxy hop is what an HTTP/2 proxy does with every header block it
// forwards: decode the block it received (here with x/net's Decoder, as Go
// proxies do) and encode the fields again for the next hop. The blocks are
// recorded once, up front, by x/net's Encoder, a fresh one per connection;
// every operation replays them all, each connection through a fresh
// Decoder and a fresh encoding context, so that the decoder's table
// follows the recording (recordWire, wire.go). The decoded names and
// values are new strings on every pass, as a proxy's are. The decoding is
// the same for every implementation; the ratios are those of the whole
// hop. The hop-* rows (hop.go) decode with each implementation's own
// decoder instead.

// proxyHopOps returns the proxy-hop operations over rec for ours
// (AppendFieldString from a Pool), x/net's Encoder and package hpack.
func proxyHopOps(rec wireRecording) []PairedOp {
	var fields []hpack.HeaderField
	emit := func(f hpack.HeaderField) { fields = append(fields, f) }
	// hop decodes every block of rec and hands each block's fields to
	// encode; startConn sets up the encoding context of a new connection.
	hop := func(startConn func(), encode func([]hpack.HeaderField) error) func(n int) error {
		return func(n int) error {
			for range n {
				for c, blocks := range rec.conns {
					dec := hpack.NewDecoder(4096, emit)
					startConn()
					for b, block := range blocks {
						fields = fields[:0]
						if _, err := dec.Write(block); err != nil {
							return fmt.Errorf("proxy hop: connection %d block %d: %w", c, b, err)
						}
						// Close reports a block cut short, as the end of a
						// HEADERS frame's block tells a proxy.
						if err := dec.Close(); err != nil {
							return fmt.Errorf("proxy hop: connection %d block %d: %w", c, b, err)
						}
						if err := encode(fields); err != nil {
							return err
						}
					}
				}
			}
			return nil
		}
	}

	var pool encoder.Pool
	var ours *encoder.Encoder
	dst := make([]byte, 0, rec.largest)
	oursOp := hop(func() {
		if ours != nil {
			pool.Put(ours)
		}
		ours = pool.Get()
	}, func(fs []hpack.HeaderField) error {
		dst = dst[:0]
		for i := range fs {
			f := &fs[i]
			dst = ours.AppendFieldString(dst, f.Name, f.Value, f.Sensitive)
		}
		return nil
	})

	var xbuf bytes.Buffer
	var xenc *hpack.Encoder
	xnetOp := hop(func() { xenc = hpack.NewEncoder(&xbuf) }, func(fs []hpack.HeaderField) error {
		xbuf.Reset()
		for _, f := range fs {
			if err := xenc.WriteField(f); err != nil {
				return err
			}
		}
		return nil
	})

	var cbuf bytes.Buffer
	var cenc *ourhpack.Encoder
	compatOp := hop(func() { cenc = ourhpack.NewEncoder(&cbuf) }, func(fs []hpack.HeaderField) error {
		cbuf.Reset()
		for _, f := range fs {
			if err := cenc.WriteField(ourhpack.HeaderField(f)); err != nil {
				return err
			}
		}
		return nil
	})
	return []PairedOp{{Impl: "ours", Op: oursOp}, {Impl: "xnet", Op: xnetOp}, {Impl: "hpack", Op: compatOp}}
}

// ProxyHopWorkloads returns the proxy-hop workloads named in names, or
// all of them if all is set: proxy-stories, the raw-data stories of dir (a
// pass over all of them, header-heavy proxied traffic) and proxy-churn,
// workload (c)'s 1024 requests on one connection (rotating bearer tokens
// and request ids).
func ProxyHopWorkloads(dir string, names []string, all bool) ([]PairedWorkload, error) {
	var out []PairedWorkload
	for _, p := range []struct {
		name string
		load func() (*Workload, error)
	}{
		{"proxy-stories", func() (*Workload, error) { return Stories(dir) }},
		{"proxy-churn", func() (*Workload, error) { return Churn(), nil }},
	} {
		if !all && !slices.Contains(names, p.name) {
			continue
		}
		w, err := p.load()
		if err != nil {
			return nil, err
		}
		out = append(out, PairedWorkload{Name: p.name, Unit: "pass", Ops: proxyHopOps(recordWire(w))})
	}
	return out, nil
}
