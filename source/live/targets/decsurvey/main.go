// Command decsurvey sends a handful of crafted header blocks, valid and
// invalid, to every installed live server and proxy of the catalogue
// (or the ones named) as requests, and prints a Markdown table of what
// each target's HPACK decoder did with each: accepted, refused (and the
// GOAWAY code, or how the connection ended), or broke down. It is the
// raw material of docs/FINDINGS-decoders.md, not a grade: the dec/
// cases grade (certify.RunDecoders).
//
//	go run ./source/live/targets/decsurvey [-tls] [-targets nginx,h2o] [-timeout 5s]
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/source/live"
	"github.com/hpackcert/hpackcert/source/live/targets"
)

func main() {
	tlsOn := flag.Bool("tls", false, "run the targets over TLS with ALPN h2 rather than h2c")
	names := flag.String("targets", "", "comma-separated targets (default: every installed server and proxy)")
	timeout := flag.Duration("timeout", live.DefaultBlockTimeout, "bound on the verdict on each block")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "decsurvey: no arguments expected, flags only")
		os.Exit(2)
	}
	interrupted := make(chan os.Signal, 1)
	signal.Notify(interrupted, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-interrupted
		targets.KillTargets()
		os.Exit(2)
	}()
	o := targets.DecoderOptions{TLS: *tlsOn, BlockTimeout: *timeout}
	list, left, err := pick(*names, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "decsurvey:", err)
		os.Exit(2)
	}
	survey(os.Stdout, list, stories(*tlsOn))
	for _, l := range left {
		fmt.Printf("- left out: %s\n", live.PeerText(l))
	}
}

// pick returns the decoder targets named, or every installed server and
// proxy, and the ones left out.
func pick(names string, o targets.DecoderOptions) ([]certify.DecoderTarget, []string, error) {
	if names == "" {
		list, left := targets.DecoderTargets(o)
		return list, left, nil
	}
	var list []certify.DecoderTarget
	var left []string
	for _, name := range strings.Split(names, ",") {
		spec, err := targets.LookupTarget(strings.TrimSpace(name))
		if err != nil {
			return nil, nil, err
		}
		dt, err := targets.DecoderTarget(spec, o)
		if errors.Is(err, targets.ErrNotInstalled) {
			err = fmt.Errorf("%s: %w", spec.Name, err)
		}
		if err != nil {
			left = append(left, err.Error())
			continue
		}
		list = append(list, dt)
	}
	return list, left, nil
}

// survey runs every story against every target, one target at a time,
// and writes the table, a row per target, and below it the breakdowns
// and the bomb's measures in full.
func survey(w io.Writer, list []certify.DecoderTarget, stories []story) {
	fmt.Fprint(w, "| target |")
	for _, s := range stories {
		fmt.Fprintf(w, " %s |", s.id)
	}
	fmt.Fprint(w, "\n|---|")
	for range stories {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprintln(w)
	var details []string
	for _, dt := range list {
		fmt.Fprintf(w, "| %s |", dt.Name())
		for _, s := range stories {
			cell, detail := run(dt, s)
			fmt.Fprintf(w, " %s |", cell)
			if detail != "" {
				details = append(details, fmt.Sprintf("%s %s: %s", dt.Name(), s.id, detail))
			}
		}
		fmt.Fprintln(w)
		if err := dt.Close(); err != nil {
			details = append(details, fmt.Sprintf("%s: closing: %v", dt.Name(), err))
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Columns (dec/ case of the invalid block): ")
	for _, s := range stories {
		want := "accept"
		if s.invalid {
			want = "refuse"
		}
		fmt.Fprintf(w, "- %s: %s (want %s)\n", s.id, s.what, want)
	}
	fmt.Fprintln(w, "\nCells: ok and the response's status (or RST and the stream reset's code) = accepted; 431 = refused by a response of status 431; a GOAWAY code = refused with it; close/reset = refused by ending the connection without GOAWAY; BREAK = neither (below); a cell marked ! is not the strict decoder's verdict.")
	for _, d := range details {
		fmt.Fprintln(w, "- "+live.PeerText(d))
	}
}

// run plays story s against dt on a new connection and returns the cell
// of the table for it and, for a breakdown, a wrong refusal or a large
// block, a line of detail.
func run(dt certify.DecoderTarget, s story) (cell, detail string) {
	d, err := dt.NewDecoder()
	if err != nil {
		return "BREAK", err.Error()
	}
	for i, b := range s.blocks {
		_, err := d.DecodeBlock(b)
		measures := ""
		if ld, ok := d.(*live.Decoder); ok && len(b) > 1000 {
			measures = fmt.Sprintf("%d-octet block, verdict in %v", len(b), ld.LastElapsed().Round(time.Millisecond))
			if peak, ok := ld.PeakMemory(); ok {
				rise, _ := ld.PeakMemoryRise()
				measures += fmt.Sprintf(", target's peak RSS %d MiB (up %d MiB over the block)", peak>>20, rise>>20)
			}
		}
		last := i == len(s.blocks)-1
		switch {
		case err == nil && !last:
			continue
		case err == nil:
			cell := "ok"
			if ld, ok := d.(*live.Decoder); ok {
				cell += " " + shortAnswer(ld.LastAnswer())
			}
			return mark(cell, !s.invalid), measures
		case certify.Rejected(err):
			var g *live.GoAwayError
			var c *live.ClosedError
			cell := "refused"
			switch {
			case errors.Is(err, live.ErrStatus431):
				cell = "431"
			case errors.As(err, &g):
				cell = strings.TrimSuffix(g.Code.String(), "_ERROR")
			case errors.As(err, &c) && c.Reset:
				cell = "reset"
			case errors.As(err, &c):
				cell = "close"
			}
			if !last {
				return mark(cell, false), fmt.Sprintf("block %d of %d refused: %v", i+1, len(s.blocks), err)
			}
			if !s.invalid {
				measures = strings.TrimPrefix(measures+"; "+err.Error(), "; ")
			}
			return mark(cell, s.invalid), measures
		default:
			return "BREAK", err.Error()
		}
	}
	return "BREAK", "the story has no block"
}

// shortAnswer shortens a live decoder's LastAnswer for a cell: the
// status, or RST and the reset's code.
func shortAnswer(answer string) string {
	if status, ok := strings.CutPrefix(answer, "answered "); ok {
		return status
	}
	answer = strings.TrimPrefix(answer, "reset the stream (RST_STREAM ")
	return "RST " + strings.TrimSuffix(strings.TrimSuffix(answer, ")"), "_ERROR")
}

// mark returns cell, marked with ! when the verdict is not the strict
// decoder's.
func mark(cell string, right bool) string {
	if right {
		return cell
	}
	return cell + " !"
}
