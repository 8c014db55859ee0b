package live

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/internal/proc"
	"github.com/hpackcert/hpackcert/internal/shell"
	"github.com/hpackcert/hpackcert/internal/tail"
	"github.com/hpackcert/hpackcert/vectors"
)

// ClientCommand is a client's command line, with placeholders for the
// URLs it must request: a word "{urls}" becomes every URL, one word each;
// each "{url}" inside a word becomes the next URL, in order.
type ClientCommand struct {
	// Args is the command line split into words, placeholders kept.
	Args []string
	// Headers are the fields its -H 'Name: value' and --header options
	// add to every request, names in lower case.
	Headers []vectors.Field
}

// ParseCommand splits a command line into words as a POSIX shell does
// for quotes ('...', "..." with \" \\ \$ \` escapes) and backslashes
// outside them; it runs no shell. The line must hold "{urls}" or "{url}".
func ParseCommand(line string) (*ClientCommand, error) {
	args, err := shell.Split(line)
	if err != nil {
		return nil, fmt.Errorf("live: client command %q: %w", line, err)
	}
	if len(args) == 0 {
		return nil, fmt.Errorf("live: client command %q: empty", line)
	}
	c := &ClientCommand{Args: args}
	if c.slots() == 0 && !c.all() {
		return nil, fmt.Errorf("live: client command %q: no {url} or {urls} for the URLs to request", line)
	}
	c.Headers = headerFields(args)
	return c, nil
}

// HeadersWord is the word of a client command line that WithHeaders
// replaces with -H options.
const HeadersWord = "{headers}"

// TakesHeaders reports whether the command has a word HeadersWord.
func (c *ClientCommand) TakesHeaders() bool {
	for _, a := range c.Args {
		if a == HeadersWord {
			return true
		}
	}
	return false
}

// WithHeaders returns a copy of the command with every word HeadersWord
// replaced by the words "-H", "name: value" of each of fields (the syntax
// of curl, nghttp and many other clients), and its Headers taken from its
// words again.
func (c *ClientCommand) WithHeaders(fields []vectors.Field) *ClientCommand {
	out := &ClientCommand{}
	for _, a := range c.Args {
		if a != HeadersWord {
			out.Args = append(out.Args, a)
			continue
		}
		for _, f := range fields {
			out.Args = append(out.Args, "-H", f.Name+": "+f.Value)
		}
	}
	out.Headers = headerFields(out.Args)
	return out
}

// headerFields returns the fields of a command line's -H 'Name: value'
// and --header options, names in lower case.
func headerFields(args []string) []vectors.Field {
	var out []vectors.Field
	for i := 0; i < len(args); i++ {
		a := args[i]
		var header string
		switch {
		case (a == "-H" || a == "--header") && i+1 < len(args):
			header = args[i+1]
			i++
		case strings.HasPrefix(a, "--header="):
			header = strings.TrimPrefix(a, "--header=")
		case strings.HasPrefix(a, "-H") && len(a) > 2:
			header = a[2:]
		default:
			continue
		}
		name, value, ok := strings.Cut(header, ":")
		if !ok || name == "" {
			continue
		}
		out = append(out, vectors.Field{Name: strings.ToLower(strings.TrimSpace(name)), Value: strings.TrimSpace(value)})
	}
	return out
}

func (c *ClientCommand) slots() int {
	n := 0
	for _, a := range c.Args {
		n += strings.Count(a, "{url}")
	}
	return n
}

// AllURLs reports whether the command takes every URL of a run at once
// ({urls}), so that it makes as many requests as it is given.
func (c *ClientCommand) AllURLs() bool { return c.all() }

func (c *ClientCommand) all() bool {
	for _, a := range c.Args {
		if a == "{urls}" {
			return true
		}
	}
	return false
}

// Requests returns the number of URLs the command takes: the number of
// "{url}" when it has no "{urls}", else def.
func (c *ClientCommand) Requests(def int) int {
	if c.all() {
		return def
	}
	return c.slots()
}

// String returns the command line, each word quoted where a shell needs
// it.
func (c *ClientCommand) String() string {
	if len(c.Args) == 0 {
		return "in process"
	}
	return shell.Join(c.Args)
}

// Expand returns the command's words with the placeholders replaced.
func (c *ClientCommand) Expand(urls []string) []string {
	var out []string
	next := 0
	for _, a := range c.Args {
		if a == "{urls}" {
			out = append(out, urls...)
			continue
		}
		for strings.Contains(a, "{url}") && next < len(urls) {
			a = strings.Replace(a, "{url}", urls[next], 1)
			next++
		}
		out = append(out, a)
	}
	return out
}

// maxClientOutput bounds what is kept of a client's output for notes.
const maxClientOutput = 4 << 10

// Run runs the command on urls in a process group of its own, killed
// whole when ctx ends, and returns an error saying how it failed, with
// the end of its output.
func (c *ClientCommand) Run(ctx context.Context, urls []string) error {
	words := c.Expand(urls)
	group := proc.Command(ctx, 2*time.Second, words[0], words[1:]...)
	out := tail.New(maxClientOutput)
	group.Cmd.Stdout, group.Cmd.Stderr = out, out
	if err := group.Start(); err != nil {
		return err
	}
	err := group.Wait()
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		err = fmt.Errorf("%w (%v)", ctx.Err(), err)
	}
	if end := strings.TrimSpace(strings.ToValidUTF8(string(out.Bytes()), "?")); end != "" {
		return fmt.Errorf("%s: %w; its output ends: %s", words[0], err, end)
	}
	return fmt.Errorf("%s: %w", words[0], err)
}
