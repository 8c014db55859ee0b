package live

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"slices"
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
		frames := make(chan [][]uint32, 1)
		go func() { frames <- serveSettingsRecorder(ln) }()
		conns, err := CaptureServer(context.Background(), ServerOptions{URL: "http://" + ln.Addr().String(), Script: script, StepTimeout: 5 * time.Second, SettingsInOneFrame: oneFrame})
		ln.Close()
		if err != nil {
			t.Fatalf("one frame %v: %v", oneFrame, err)
		}
		got := <-frames
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

// serveSettingsRecorder serves one connection of ln: it acknowledges
// every SETTINGS frame, answers every request with ":status: 200", and
// returns the SETTINGS_HEADER_TABLE_SIZE values of each SETTINGS frame
// that carried any.
func serveSettingsRecorder(ln net.Listener) [][]uint32 {
	var out [][]uint32
	nc, err := ln.Accept()
	if err != nil {
		return nil
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	preface := make([]byte, len(http2.ClientPreface))
	if _, err := io.ReadFull(nc, preface); err != nil {
		return nil
	}
	fr := http2.NewFramer(nc, nc)
	fr.WriteSettings()
	var buf bytes.Buffer
	enc := hpack.NewEncoder(&buf)
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			return out
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
				out = append(out, sizes)
			}
			fr.WriteSettingsAck()
		case *http2.HeadersFrame:
			buf.Reset()
			enc.WriteField(hpack.HeaderField{Name: ":status", Value: "200"})
			fr.WriteHeaders(http2.HeadersFrameParam{StreamID: f.StreamID, BlockFragment: buf.Bytes(), EndHeaders: true, EndStream: true})
		case *http2.GoAwayFrame:
			return out
		}
	}
}
