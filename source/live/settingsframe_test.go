package live

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"slices"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// TestSettingsInOneFrame checks ServerOptions.SettingsInOneFrame against
// a server that records the SETTINGS frames it reads: a step's several
// table sizes arrive in one frame, in order, with the option and in one
// frame each without it; either way the block after them was written
// under the same acknowledged sizes.
func TestSettingsInOneFrame(t *testing.T) {
	script := &Script{Conns: []ScriptConn{{Name: "c00", Steps: []Step{
		{Label: "first", Response: fields(":status", "200")},
		{Label: "several", Settings: []uint32{256, 100, 4096}, Response: fields(":status", "200")},
	}}}}
	for _, oneFrame := range []bool{false, true} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		rec := &pathRecorder{}
		go rec.serve(ln)
		conns, err := CaptureServer(context.Background(), ServerOptions{URL: "http://" + ln.Addr().String(), Script: script, StepTimeout: 5 * time.Second, SettingsInOneFrame: oneFrame})
		ln.Close()
		if err != nil {
			t.Fatalf("one frame %v: %v", oneFrame, err)
		}
		got := rec.settings()
		want := [][]uint32{{256}, {100}, {4096}}
		if oneFrame {
			want = [][]uint32{{256, 100, 4096}}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("one frame %v: the server read the table sizes in frames %v; want %v", oneFrame, got, want)
		}
		if len(conns) != 1 || len(conns[0].Blocks) != 2 || !slices.Equal(conns[0].Blocks[1].Acked, []uint32{256, 100, 4096}) {
			t.Errorf("one frame %v: captured %+v; want two blocks, the second after 256, 100, 4096", oneFrame, conns)
		}
	}
}

// TestReplayInLockstep checks that a connection and its replay
// (ScriptConn.ReplayOf) take turns, one step each, the first connection
// first, and that the replay goes on alone once the first stops: the
// server closes the first connection at its third request.
func TestReplayInLockstep(t *testing.T) {
	ok := fields(":status", "200")
	steps := func(n int) []Step {
		out := make([]Step, n)
		for i := range out {
			out[i] = Step{Label: fmt.Sprintf("step %d", i), Response: ok}
		}
		return out
	}
	for _, stopFirst := range []bool{false, true} {
		script := &Script{Conns: []ScriptConn{
			{Name: "c00", Steps: steps(4)},
			{Name: "c01-again", Steps: steps(4), ReplayOf: "c00"},
			{Name: "c02", Steps: steps(1)},
		}}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		rec := &pathRecorder{}
		if stopFirst {
			rec.closeAt = Path(0, 2)
		}
		go rec.serve(ln)
		conns, err := CaptureServer(context.Background(), ServerOptions{URL: "http://" + ln.Addr().String(), Script: script, StepTimeout: 5 * time.Second})
		ln.Close()
		if err != nil {
			t.Fatalf("stop first %v: %v", stopFirst, err)
		}
		want := []string{Path(0, 0), Path(1, 0), Path(0, 1), Path(1, 1), Path(0, 2), Path(1, 2), Path(0, 3), Path(1, 3), Path(2, 0)}
		blocks := []int{4, 4, 1}
		if stopFirst {
			want = []string{Path(0, 0), Path(1, 0), Path(0, 1), Path(1, 1), Path(0, 2), Path(1, 2), Path(1, 3), Path(2, 0)}
			blocks = []int{2, 4, 1}
		}
		if got := rec.order(); !slices.Equal(got, want) {
			t.Errorf("stop first %v: requests in the order %v; want %v", stopFirst, got, want)
		}
		var got []int
		var names []string
		for _, c := range conns {
			got, names = append(got, len(c.Blocks)), append(names, c.Name)
		}
		if !slices.Equal(got, blocks) || !slices.Equal(names, []string{"c00", "c01-again", "c02"}) {
			t.Errorf("stop first %v: connections %v with %v blocks; want c00, c01-again, c02 with %v", stopFirst, names, got, blocks)
		}
		if stopFirst && (conns[0].Stop == nil || conns[1].Stop != nil) {
			t.Errorf("stop first: stops %v, %v; want the first connection stopped, its replay not", conns[0].Stop, conns[1].Stop)
		}
	}
}

// pathRecorder serves HTTP/2 connections that answer every request with
// ":status: 200" and records the order of the request paths and the
// SETTINGS_HEADER_TABLE_SIZE values of each SETTINGS frame that carried
// any; it closes the connection of a request for closeAt without
// answering.
type pathRecorder struct {
	mu      sync.Mutex
	paths   []string
	sizes   [][]uint32
	closeAt string
}

func (r *pathRecorder) order() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.paths)
}

func (r *pathRecorder) settings() [][]uint32 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.sizes)
}

func (r *pathRecorder) serve(ln net.Listener) {
	for {
		nc, err := ln.Accept()
		if err != nil {
			return
		}
		go r.conn(nc)
	}
}

func (r *pathRecorder) conn(nc net.Conn) {
	defer nc.Close()
	fr := servePreface(nc)
	if fr == nil {
		return
	}
	fr.ReadMetaHeaders = hpack.NewDecoder(4096, nil)
	var buf bytes.Buffer
	enc := hpack.NewEncoder(&buf)
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			return
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if f.IsAck() {
				continue
			}
			var sizes []uint32
			f.ForeachSetting(func(s http2.Setting) error {
				if s.ID == http2.SettingHeaderTableSize {
					sizes = append(sizes, s.Val)
					enc.SetMaxDynamicTableSize(s.Val)
				}
				return nil
			})
			if len(sizes) > 0 {
				r.mu.Lock()
				r.sizes = append(r.sizes, sizes)
				r.mu.Unlock()
			}
			fr.WriteSettingsAck()
		case *http2.MetaHeadersFrame:
			path := f.PseudoValue("path")
			r.mu.Lock()
			r.paths = append(r.paths, path)
			r.mu.Unlock()
			if path == r.closeAt {
				return
			}
			buf.Reset()
			enc.WriteField(hpack.HeaderField{Name: ":status", Value: "200"})
			fr.WriteHeaders(http2.HeadersFrameParam{StreamID: f.StreamID, BlockFragment: buf.Bytes(), EndHeaders: true, EndStream: true})
		case *http2.GoAwayFrame:
			return
		}
	}
}
