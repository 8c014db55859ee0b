package h3

import (
	"context"
	"io"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/quic-go/quic-go"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/oracle/qstrict"
	"github.com/hpackcert/hpackcert/qencoder"
)

// refResponse is the i-th response of refServer.
func refResponse(i int) []qpack.Field {
	return []qpack.Field{
		{Name: ":status", Value: "200"},
		{Name: "x-h3live-repeat", Value: "the same value on every response"},
		{Name: "x-h3live-path", Value: "/h3live/" + strconv.Itoa(i%4)},
		{Name: "x-h3live-index", Value: strconv.Itoa(i)},
	}
}

// refPeer is the state of refServer's connection: the reference
// encoder, fed the certifier's decoder stream by one goroutine while
// the requests are answered by another.
type refPeer struct {
	mu  sync.Mutex
	enc *qencoder.Encoder
	// increments sums the Insert Count Increments received.
	increments uint64
	err        error
	progress   chan struct{}
}

// decoderStream feeds the certifier's decoder stream to the encoder.
func (p *refPeer) decoderStream(r io.Reader) {
	var pending []byte
	buf := make([]byte, 512)
	for {
		n, err := r.Read(buf)
		pending = append(pending, buf[:n]...)
		p.mu.Lock()
		used, derr := p.enc.DecoderStream(pending)
		for q := 0; q < used && derr == nil; {
			in, next, _ := qspec.ReadDecoderInstruction(pending, q)
			if in.Kind == qspec.InsertCountIncrement {
				p.increments += in.Value
			}
			q = next
		}
		pending = pending[used:]
		if derr != nil && p.err == nil {
			p.err = derr
		}
		p.mu.Unlock()
		select {
		case p.progress <- struct{}{}:
		default:
		}
		if err != nil || derr != nil {
			return
		}
	}
}

// refServer plays an HTTP/3 server whose response encoder is the
// reference QPACK encoder with a dynamic table: it answers the i-th
// request with refResponse(i) and, before the second, waits until the
// certifier's Insert Count Increments acknowledged every insertion of
// the first, so that the second response references the dynamic table.
// The returned function says what the encoder made of the decoder
// stream.
func refServer(t *testing.T) (string, func() error) {
	p := &refPeer{enc: qencoder.New(qencoder.Config{TableCapacity: 4096, PeerMaxTableCapacity: settings.MaxTableCapacity}), progress: make(chan struct{}, 1)}
	addr := hostileServer(t, func(ctx context.Context, conn *quic.Conn) {
		go func() {
			for {
				str, err := conn.AcceptUniStream(ctx)
				if err != nil {
					return
				}
				go func() {
					var typ [1]byte
					if _, err := io.ReadFull(str, typ[:]); err == nil && typ[0] == streamDecoder {
						p.decoderStream(str)
					}
					io.Copy(io.Discard, str)
				}()
			}
		}()
		encStr, err := conn.OpenUniStreamSync(ctx)
		if err != nil {
			return
		}
		encStr.Write([]byte{streamEncoder})
		mirror := qstrict.New(qstrict.Settings{MaxTableCapacity: settings.MaxTableCapacity, BlockedStreams: settings.BlockedStreams})
		for i := 0; ; i++ {
			str, err := readRequest(ctx, conn)
			if err != nil {
				return
			}
			for i == 1 {
				p.mu.Lock()
				done := p.increments >= mirror.InsertCount()
				p.mu.Unlock()
				if done {
					break
				}
				select {
				case <-p.progress:
				case <-ctx.Done():
					return
				}
			}
			p.mu.Lock()
			section, encOut := p.enc.AppendSection(nil, nil, uint64(str.StreamID()), refResponse(i))
			p.mu.Unlock()
			if mirror.EncoderStream(encOut) != nil {
				return
			}
			encStr.Write(encOut)
			str.Write(appendFrame(nil, frameHeaders, section))
			str.Close()
		}
	})
	return addr, func() error {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.err
	}
}

// TestDynamicTable captures a server whose encoder uses the dynamic
// table: the insertions are captured and decoded, the certifier's
// increments and Section Acknowledgments reach the encoder, which takes
// them, and they are in the transcript as Told events.
func TestDynamicTable(t *testing.T) {
	const n = 6
	addr, encoderErr := refServer(t)
	tr, err := CaptureServer(context.Background(), "ref", addr, Options{Requests: n})
	if err != nil {
		t.Fatal(err)
	}
	sections := replay(t, tr)
	if len(sections) != n {
		t.Fatalf("%d sections, want %d", len(sections), n)
	}
	for i, s := range sections {
		if !slices.Equal(s.fields, refResponse(i)) {
			t.Errorf("section %d decodes to %v, want %v", i, s.fields, refResponse(i))
		}
	}
	// The reference encoder inserts a field the second time it sees it
	// and references it from then on: the later responses reference the
	// table (a Required Insert Count of 0 is the one prefix whose first
	// octet is 0).
	var told []byte
	var referencing []uint64
	wrote := 0
	for _, e := range tr.Events {
		switch {
		case e.Kind == qpack.Told:
			told = append(told, e.Data...)
		case e.Kind == qpack.Wrote:
			wrote += len(e.Data)
		case e.Kind == qpack.Section && e.Data[0] != 0:
			referencing = append(referencing, e.Stream)
		}
	}
	if len(referencing) == 0 {
		t.Error("no response references the dynamic table")
	}
	if wrote == 0 {
		t.Error("no encoder-stream octets captured")
	}
	var acked []uint64
	for q := 0; q < len(told); {
		in, next, err := qspec.ReadDecoderInstruction(told, q)
		if err != nil {
			t.Fatalf("told %x: offset %d: %v", told, q, err)
		}
		if in.Kind == qspec.SectionAck {
			acked = append(acked, in.Value)
		}
		q = next
	}
	if len(referencing) == 0 || !slices.Equal(acked, referencing) {
		t.Errorf("told %x acknowledges streams %v, want the streams whose sections reference the table, %v", told, acked, referencing)
	}
	if err := encoderErr(); err != nil {
		t.Errorf("the encoder refused the certifier's decoder stream: %v", err)
	}
}
