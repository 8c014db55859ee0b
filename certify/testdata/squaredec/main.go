// Command squaredec is a decoder program speaking hpack-stdio/1 for the
// certifier's timing tests (dec/7.3/2): the strict decoder, each block
// followed by (n/4)² steps of work, or with -wait as many nanoseconds of
// sleep, for a block of n octets. That is 0.2 s for the 40000-octet
// string's 57000 octets of wire and 0.8 ms for the 2500-octet one's
// 3600, well over the 0.2 to 0.5 ms of CPU time the protocol costs the
// program a request (a JSON line each way), which would otherwise bring
// the smallest string's time near the largest's. It is built without the
// race detector whatever the tests run with, which would multiply that
// cost.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/source/inprocess"
	"github.com/hpackcert/hpackcert/source/stdio"
)

func main() {
	wait := flag.Bool("wait", false, "sleep instead of working: quadratic wall time, linear CPU time")
	flag.Parse()
	name := "squaredec work"
	if *wait {
		name = "squaredec wait"
	}
	err := stdio.ServeDecoder(os.Stdin, os.Stdout, name, func() certify.Decoder {
		return &squareDecoder{Decoder: inprocess.NewStrictDecoder(), wait: *wait}
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "squaredec:", err)
		os.Exit(1)
	}
}

// squareDecoder is the strict decoder followed by work or a wait that
// grows with the square of the block's length.
type squareDecoder struct {
	certify.Decoder
	wait bool
}

func (s *squareDecoder) DecodeBlock(b []byte) ([]certify.Field, error) {
	fields, err := s.Decoder.DecodeBlock(b)
	steps := (len(b) / 4) * (len(b) / 4)
	if s.wait {
		time.Sleep(time.Duration(steps))
	} else {
		x := uint64(len(b))
		for range steps {
			x = x*6364136223846793005 + 1442695040888963407
		}
		sink += x
	}
	return fields, err
}

// sink keeps the work's result, so that the compiler keeps its loop.
var sink uint64
