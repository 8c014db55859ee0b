package bench

import (
	"strings"
	"testing"
)

// TestProxyHop checks that every proxy-hop operation replays the churn
// recording, and that a block the decoder rejects fails the operation with
// its place named.
func TestProxyHop(t *testing.T) {
	ws, err := ProxyHopWorkloads("", []string{"proxy-churn"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 1 || ws[0].Name != "proxy-churn" {
		t.Fatalf("got %d workloads; want proxy-churn alone", len(ws))
	}
	for _, op := range ws[0].Ops {
		if err := op.Op(1); err != nil {
			t.Errorf("%s: %v", op.Impl, err)
		}
	}

	rec := recordWire(Batch())
	rec.conns[0] = append(rec.conns[0], []byte{0xff}) // an index cut short
	for _, op := range proxyHopOps(rec) {
		err := op.Op(1)
		if err == nil || !strings.Contains(err.Error(), "connection 0 block 1") {
			t.Errorf("%s: replaying a truncated block: %v; want an error naming connection 0 block 1", op.Impl, err)
		}
	}
}
