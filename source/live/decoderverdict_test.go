package live

import (
	"bytes"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/certify"
)

// answerWith answers the first request with status, then, after wait,
// closes the connection, or keeps it open when keepOpen is set.
func answerWith(status string, wait time.Duration, keepOpen bool) func(nc net.Conn, fr *http2.Framer) error {
	return func(nc net.Conn, fr *http2.Framer) error {
		if err := fr.WriteSettings(); err != nil {
			return err
		}
		stream, _, _, err := readRequest(fr)
		if err != nil {
			return err
		}
		var block bytes.Buffer
		hpack.NewEncoder(&block).WriteField(hpack.HeaderField{Name: ":status", Value: status})
		if err := fr.WriteHeaders(http2.HeadersFrameParam{StreamID: stream, BlockFragment: block.Bytes(), EndHeaders: true, EndStream: true}); err != nil {
			return err
		}
		time.Sleep(wait)
		if keepOpen {
			io.Copy(io.Discard, nc)
		}
		return nil
	}
}

func TestDecoderStatus431IsARefusal(t *testing.T) {
	d := openTestDecoder(t, newTestDecoderTarget(t, startFakePeer(t, answerWith("431", 0, true)), 5*time.Second))
	_, err := d.DecodeBlock(rfcC31)
	if !certify.Rejected(err) || !strings.Contains(err.Error(), "431") {
		t.Errorf("a response of status 431: got %v; want a refusal naming 431", err)
	}
}

func TestDecoderAnswerThenCloseIsARefusal(t *testing.T) {
	d := openTestDecoder(t, newTestDecoderTarget(t, startFakePeer(t, answerWith("200", 0, false)), 5*time.Second))
	_, err := d.DecodeBlock(rfcC31)
	if !certify.Rejected(err) || !strings.Contains(err.Error(), "just after it answered 200") {
		t.Errorf("an answer and a close at once: got %v; want a refusal saying both", err)
	}
}

func TestDecoderLaterCloseIsABreakdownOfTheNextBlock(t *testing.T) {
	d := openTestDecoder(t, newTestDecoderTarget(t, startFakePeer(t, answerWith("200", 100*time.Millisecond, false)), 5*time.Second))
	if _, err := d.DecodeBlock(rfcC31); err != nil {
		t.Fatalf("block 1, answered, the close 100ms later: %v; want it accepted", err)
	}
	time.Sleep(200 * time.Millisecond)
	_, err := d.DecodeBlock(rfcC31)
	if err == nil || certify.Rejected(err) || !strings.Contains(err.Error(), "after block 1 was accepted") {
		t.Errorf("block 2 after the close: got %v; want a breakdown blaming no block", err)
	}
}

func TestDecoderNewDecoderSaysAfterWhat(t *testing.T) {
	var mu sync.Mutex
	served := 0
	answer := answerWith("204", 0, true)
	url := startFakePeer(t, func(nc net.Conn, fr *http2.Framer) error {
		mu.Lock()
		served++
		first := served == 1
		mu.Unlock()
		if !first {
			return nil // the target stopped serving: closed at once
		}
		return answer(nc, fr)
	})
	dt := newTestDecoderTarget(t, url, time.Second)
	d := openTestDecoder(t, dt)
	if _, err := d.DecodeBlock(rfcC31); err != nil {
		t.Fatal(err)
	}
	_, err := dt.NewDecoder()
	want := "target stopped serving after 1 connection (the last: block 1 answered 204)"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("NewDecoder after the target stopped: %v; want it to say %q", err, want)
	}
}

func TestDecoderFloodIsABreakdown(t *testing.T) {
	url := startFakePeer(t, func(nc net.Conn, fr *http2.Framer) error {
		if err := fr.WriteSettings(); err != nil {
			return err
		}
		if _, _, _, err := readRequest(fr); err != nil {
			return err
		}
		go io.Copy(io.Discard, nc)
		for {
			if err := fr.WritePing(true, [8]byte{}); err != nil {
				return nil
			}
		}
	})
	d := openTestDecoder(t, newTestDecoderTarget(t, url, 5*time.Second))
	_, err := d.DecodeBlock(rfcC31)
	if err == nil || certify.Rejected(err) || !strings.Contains(err.Error(), "frames without a header block") {
		t.Errorf("a flood of PING acknowledgements: got %v; want a breakdown naming the flood", err)
	}
}
