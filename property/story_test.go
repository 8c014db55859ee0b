package property

import (
	"fmt"

	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hpackcert/hpackcert/encoder"

	"github.com/hpackcert/hpackcert/vectors"
	"github.com/leanovate/gopter/commands"
)

// A regression story is a command sequence of the state machine written
// in the story format of package vectors: one case per encoded block, the
// sizes acked before it in "table_sizes", sensitive flags in "sensitive".
// What the format has no field for goes on the first line of the
// description, as space-separated key=value pairs:
//
//	hpackcert-property capacity=256 policy=index-all huffman=never events=reset@2,pool@4
//
// capacity is Config.Capacity, policy is "default" or "index-all", huffman
// is the policy's HuffmanMode ("shorter", "not-longer" or "never"; absent
// means "shorter"), and events lists the Resets and Pool round trips, each before the case of
// the given index (the number of cases: after the last). Sizes acked right
// before an event, or at the very end, travel in a case without headers.

// storyTag starts the description of every regression story.
const storyTag = "hpackcert-property"

// historyStory turns a command sequence into a story. lossy reports that
// some octets were not valid UTF-8 and were replaced by 'a' (JSON strings
// cannot carry them).
func historyStory(initial *connState, history []commands.Command, note string) (s *vectors.Story, lossy bool) {
	var events []string
	var sizes []uint32
	s = &vectors.Story{Context: "request"}
	addCase := func(fields []genField) {
		c := vectors.Case{Seqno: len(s.Cases), TableSizes: sizes, Headers: []vectors.Field{}}
		for _, f := range fields {
			name, value := validUTF8(f.Name), validUTF8(f.Value)
			lossy = lossy || name != f.Name || value != f.Value
			c.Headers = append(c.Headers, vectors.Field{Name: name, Value: value, Sensitive: f.Sensitive})
		}
		s.Cases = append(s.Cases, c)
		sizes = nil
	}
	for _, cmd := range history {
		switch c := cmd.(type) {
		case encodeCmd:
			addCase(c.fields)
		case sizesCmd:
			sizes = append(sizes, c.sizes...)
		case resetCmd, poolCmd:
			if len(sizes) > 0 {
				addCase(nil)
			}
			name := "reset"
			if _, ok := c.(poolCmd); ok {
				name = "pool"
			}
			events = append(events, fmt.Sprintf("%s@%d", name, len(s.Cases)))
		}
	}
	if len(sizes) > 0 {
		addCase(nil)
	}
	meta := storyTag + " " + configString(initial.cfg)
	if len(events) > 0 {
		meta += " events=" + strings.Join(events, ",")
	}
	s.Description = meta + "\n" + note
	return s, lossy
}

// huffmanModes names the Huffman modes in story descriptions.
var huffmanModes = map[encoder.HuffmanMode]string{
	encoder.HuffmanShorter:   "shorter",
	encoder.HuffmanNotLonger: "not-longer",
	encoder.HuffmanNever:     "never",
}

// configString describes the configurations the state machine uses, as
// key=value words.
func configString(cfg encoder.Config) string {
	policy := "default"
	if cfg.Policy.IndexAll {
		policy = "index-all"
	}
	s := fmt.Sprintf("capacity=%d policy=%s", cfg.Capacity, policy)
	if cfg.Policy.Huffman != encoder.HuffmanShorter {
		s += " huffman=" + huffmanModes[cfg.Policy.Huffman]
	}
	return s
}

// parseConfigWord applies one key=value word of configString to cfg.
func parseConfigWord(cfg *encoder.Config, key, value string) error {
	switch key {
	case "capacity":
		n, err := strconv.ParseUint(value, 10, 32)
		if err != nil {
			return fmt.Errorf("capacity=%q: %v", value, err)
		}
		cfg.Capacity = uint32(n)
	case "policy":
		huffman := cfg.Policy.Huffman
		switch value {
		case "default":
			cfg.Policy = encoder.Policy{}
		case "index-all":
			cfg.Policy = encoder.IndexAllPolicy()
		default:
			return fmt.Errorf("policy=%q: want default or index-all", value)
		}
		cfg.Policy.Huffman = huffman
	case "huffman":
		for mode, name := range huffmanModes {
			if name == value {
				cfg.Policy.Huffman = mode
				return nil
			}
		}
		return fmt.Errorf("huffman=%q: want shorter, not-longer or never", value)
	}
	return nil
}

// validUTF8 returns s, or s with every octet above 0x7f replaced by 'a'
// when s is not valid UTF-8; the length stays the same.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := []byte(s)
	for i, c := range b {
		if c > 0x7f {
			b[i] = 'a'
		}
	}
	return string(b)
}

// storyCommands turns a regression story back into the initial state and
// the command sequence.
func storyCommands(s *vectors.Story) (*connState, []commands.Command, error) {
	first, _, _ := strings.Cut(s.Description, "\n")
	words := strings.Fields(first)
	if len(words) == 0 || words[0] != storyTag {
		return nil, nil, fmt.Errorf("%s: description does not start with %q", s.Path, storyTag)
	}
	var cfg encoder.Config
	events := map[int][]commands.Command{}
	for _, w := range words[1:] {
		key, value, _ := strings.Cut(w, "=")
		switch key {
		case "capacity", "policy", "huffman":
			if err := parseConfigWord(&cfg, key, value); err != nil {
				return nil, nil, fmt.Errorf("%s: %v", s.Path, err)
			}
		case "events":
			for _, e := range strings.Split(value, ",") {
				name, at, _ := strings.Cut(e, "@")
				i, err := strconv.Atoi(at)
				if err != nil || i < 0 || i > len(s.Cases) {
					return nil, nil, fmt.Errorf("%s: event %q: want name@case with case in [0, %d]", s.Path, e, len(s.Cases))
				}
				switch name {
				case "reset":
					events[i] = append(events[i], resetCmd{})
				case "pool":
					events[i] = append(events[i], poolCmd{})
				default:
					return nil, nil, fmt.Errorf("%s: event %q: want reset or pool", s.Path, e)
				}
			}
		default:
			return nil, nil, fmt.Errorf("%s: unknown key %q in %q", s.Path, key, first)
		}
	}
	var cmds []commands.Command
	for i, c := range s.Cases {
		cmds = append(cmds, events[i]...)
		if sizes := c.AckedSizes(); len(sizes) > 0 {
			cmds = append(cmds, sizesCmd{slices.Clone(sizes)})
		}
		fields := make([]genField, len(c.Headers))
		for j, h := range c.Headers {
			fields[j] = genField{Name: h.Name, Value: h.Value, Sensitive: h.Sensitive}
		}
		cmds = append(cmds, encodeCmd{fields})
	}
	cmds = append(cmds, events[len(s.Cases)]...)
	return newConnState(cfg), cmds, nil
}

// replayStory runs a regression story through the state machine and
// returns the first failure, or "".
func replayStory(s *vectors.Story) (string, error) {
	initial, cmds, err := storyCommands(s)
	if err != nil {
		return "", err
	}
	sys := newSystem(initial, map[string]int{})
	res := commands.Replay(sys, initial, cmds...)
	if res.Success() {
		return "", nil
	}
	if sys.failure != "" {
		return sys.failure, nil
	}
	return fmt.Sprintf("%v %v", res.Status, res.Labels), nil
}

// knownFailure returns the first story in dir that still fails, or "".
// While one does, a new failure is most likely the same bug, and writing
// a story for every run would only pile up copies.
func knownFailure(dir string) string {
	stories, err := vectors.ReadStoryDir(dir)
	if err != nil {
		return ""
	}
	for _, s := range stories {
		if failure, err := replayStory(s); err != nil || failure != "" {
			return s.Path
		}
	}
	return ""
}

// errKnownFailure reports that no story was written because one in the
// directory still fails.
type errKnownFailure struct{ path string }

func (e errKnownFailure) Error() string {
	return fmt.Sprintf("not written: %s still fails; fix that first (or set HPACKCERT_PROP_REGRESSIONS to another directory)", e.path)
}

// writeRegression writes a failing sequence to the regressions directory
// and replays the file, so the report can say whether it reproduces.
func writeRegression(name string, r *failedRun, note string) (path string, reproduces string, err error) {
	s, lossy := historyStory(r.initial, r.history, note)
	if lossy {
		s.Description += "\n(octets that are not valid UTF-8 were replaced by 'a')"
	}
	dir := regressionsDir()
	if known := knownFailure(dir); known != "" {
		return "", "", errKnownFailure{known}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", err
	}
	path = filepath.Join(dir, name+".json")
	if err := vectors.WriteStory(path, s); err != nil {
		return "", "", err
	}
	back, err := vectors.ReadStory(path)
	if err != nil {
		return path, "", err
	}
	reproduces, err = replayStory(back)
	return path, reproduces, err
}
