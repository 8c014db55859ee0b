// Command plantedsrv serves the script of hpackcert live over HTTP/2 with
// an encoder that has one planted bug (internal/broken), for the
// tests of hpackcert live: it listens on a free loopback port, prints its
// URL on one line and serves until its standard input closes, or for two
// minutes at most.
//
//	plantedsrv -bug huffman-zero-padding -stories 1 -blocks 12 [-tls]
package main

import (
	"crypto/tls"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/broken"
	"github.com/hpackcert/hpackcert/source/live"
	"github.com/hpackcert/hpackcert/source/live/targets"
)

func main() {
	bugName := flag.String("bug", "none", "the planted bug, as certify/internal/broken names it")
	stories := flag.Int("stories", targets.DefaultStories, "traffic stories of the script, as hpackcert live --stories")
	blocks := flag.Int("blocks", targets.DefaultBlocks, "blocks per story, as hpackcert live --blocks")
	tlsOn := flag.Bool("tls", false, "serve TLS with ALPN h2 on a certificate of its own")
	flag.Parse()
	if err := serve(*bugName, *stories, *blocks, *tlsOn); err != nil {
		fmt.Fprintln(os.Stderr, "plantedsrv:", err)
		os.Exit(2)
	}
}

func serve(bugName string, stories, blocks int, tlsOn bool) error {
	bug, err := broken.ParseBug(bugName)
	if err != nil {
		return err
	}
	script, err := live.DefaultScript(stories, blocks)
	if err != nil {
		return err
	}
	srv := &live.Server{Script: script, NewEncoder: func() certify.Encoder { return broken.New(bug) }}
	scheme := "http"
	if tlsOn {
		cert, err := live.NewCertificate()
		if err != nil {
			return err
		}
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert.TLS}, NextProtos: []string{"h2"}}
		scheme = "https"
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Printf("%s://%s\n", scheme, ln.Addr())
	go srv.Serve(ln)
	stdinClosed := make(chan struct{})
	go func() {
		io.Copy(io.Discard, os.Stdin)
		close(stdinClosed)
	}()
	select {
	case <-stdinClosed:
	case <-time.After(2 * time.Minute):
	}
	return srv.Close()
}
