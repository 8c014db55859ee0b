// Command stdioenc is a misbehaving hpack-stdio/1 encoder for the
// certifier's tests: a broken encoder from certify/internal/broken, and
// optionally a process that hangs, crashes, floods stderr, prints garbage
// or lies about the fields it encoded.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/certify/internal/broken"
)

var (
	bugName    = flag.String("bug", "none", "bug of the encoder: "+strings.Join(broken.Names(), ", "))
	hangAfter  = flag.Int("hang-after", -1, "stop answering after this many encode requests")
	crashAfter = flag.Int("crash-after", -1, "exit with status 3 after this many encode requests")
	noisy      = flag.Bool("noisy", false, "write 100 KiB to stderr on every request")
	garbage    = flag.Bool("garbage", false, "answer encode requests with a line that is not JSON")
	lie        = flag.Bool("lie", false, "encode other values than the ones asked for")
	noHello    = flag.Bool("no-hello", false, "never answer anything")
)

// misbehaving wraps an encoder with the misbehaviour the flags ask for.
type misbehaving struct {
	enc     certify.Encoder
	encodes *int
}

func (m *misbehaving) SetMaxDynamicTableSize(n uint32) error { return m.enc.SetMaxDynamicTableSize(n) }

func (m *misbehaving) EncodeBlock(dst []byte, fields []certify.Field) ([]byte, error) {
	*m.encodes++
	if *noisy {
		fmt.Fprintln(os.Stderr, strings.Repeat("noise ", 100<<10/6))
	}
	if *hangAfter >= 0 && *m.encodes > *hangAfter {
		fmt.Fprintln(os.Stderr, "stdioenc: hanging")
		time.Sleep(time.Hour)
	}
	if *crashAfter >= 0 && *m.encodes > *crashAfter {
		fmt.Fprintln(os.Stderr, "stdioenc: simulated crash")
		os.Exit(3)
	}
	if *garbage {
		fmt.Println("this is not JSON")
	}
	if *lie {
		lied := make([]certify.Field, len(fields))
		for i, f := range fields {
			lied[i] = certify.Field{Name: f.Name, Value: f.Value + "!", Sensitive: f.Sensitive}
		}
		fields = lied
	}
	return m.enc.EncodeBlock(dst, fields)
}

func main() {
	flag.Parse()
	bug, err := broken.ParseBug(*bugName)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if *noHello {
		bufio.NewReader(os.Stdin).ReadString('\n')
		time.Sleep(time.Hour)
	}
	encodes := 0
	err = certify.Serve(os.Stdin, os.Stdout, "stdioenc "+bug.String(), func() certify.Encoder {
		return &misbehaving{enc: broken.New(bug), encodes: &encodes}
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
