package property

import (
	"bufio"
	"fmt"
	"go/ast"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The escape-analysis gate of the reference decoder (package decoder)
// applies the encoder gate's rules (escape_test.go) to the decode path:
// the functions reachable by calls from decodePathRoots, which a
// connection calls for every block. Elsewhere the decoder allocates by
// design: New and SetMaxStringLength give it memory, AppendHuffman
// returns a new *Error, Error formats a string. One function on the path
// allocates by design too, decodePathGrowth: after a setting above the
// memory New gave (Config.TableSize or Config.Capacity), the table grows
// when the peer's entries fill it (package decoder's doc, "Memory"). On
// top of that gate:
//
//   - a variable "moved to heap" fails anywhere in the package but in a
//     constructor, since it costs an allocation on every call of its
//     function;
//   - the emit parameter of Decode and DecodeFragment must be reported as
//     not escaping: if it escaped, every caller's closure would be
//     allocated at every call, which no AllocsPerRun of the decoder's own
//     tests sees, as they build their closure outside the measured
//     function.
//
// The header block does leak, into emit: the compiler cannot know that
// emit keeps nothing of the views it is handed, so a caller's block on
// the stack moves to the heap; header blocks come from a connection's
// buffers, on the heap anyway. The gate does not judge leaks, only
// escapes.

// decodePathRoots are the decoder's entry points for every block: the
// decoding calls and the reads of the table and limits between blocks.
var decodePathRoots = []string{"Decode", "BeginBlock", "DecodeFragment", "TableLen", "TableEntry", "TableSize", "SetMaxHeaderListSize"}

// decodePathGrowth are the functions of the decode path allowed to
// allocate: the table's growth beyond the memory New gave it.
var decodePathGrowth = []string{"*dynamicTable.grow", "newTable"}

// emitTakers are the functions whose emit parameter must not escape.
var emitTakers = []string{"Decode", "DecodeFragment"}

// reachable returns the names (as funcName renders them) of the functions
// of idx reachable by calls from the functions named roots, and the roots
// it found no function for. A call is matched by the called name alone, a
// method by its selector, so the set may hold functions the path does not
// call: never fewer than it does.
func (idx *sourceIndex) reachable(roots []string) (map[string]bool, []string) {
	byName := map[string][]*ast.FuncDecl{}
	for _, f := range idx.files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				byName[fd.Name.Name] = append(byName[fd.Name.Name], fd)
			}
		}
	}
	seen := map[string]bool{}
	var missing []string
	var visit func(name string)
	visit = func(name string) {
		for _, fd := range byName[name] {
			if seen[funcName(fd)] || fd.Body == nil {
				continue
			}
			seen[funcName(fd)] = true
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					switch fun := call.Fun.(type) {
					case *ast.Ident:
						visit(fun.Name)
					case *ast.SelectorExpr:
						visit(fun.Sel.Name)
					}
				}
				return true
			})
		}
	}
	for _, r := range roots {
		if len(byName[r]) == 0 {
			missing = append(missing, r)
		}
		visit(r)
	}
	return seen, missing
}

// decodePathProblems judges the -m output of the decoder by the rules
// above and returns each problem, and the number of diagnostics that named
// the decoder's sources at all.
func decodePathProblems(idx *sourceIndex, output string) (problems []string, seen int) {
	path, missing := idx.reachable(append(decodePathRoots, emitTakers...))
	for _, r := range missing {
		problems = append(problems, fmt.Sprintf("no function %s in the sources: the gate's roots need a look", r))
	}
	offending, seen := classify(idx, output)
	for _, f := range offending {
		switch {
		case path[f.fn] && !slices.Contains(decodePathGrowth, f.fn):
			problems = append(problems, fmt.Sprintf("heap allocation in the decode path: %v", f))
		case strings.HasPrefix(f.msg, "moved to heap"):
			problems = append(problems, fmt.Sprintf("variable moved to heap: %v", f))
		}
	}
	// Every diagnostic, by file:line:col, to find the emit parameters'.
	said := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(output))
	for sc.Scan() {
		if m := escapeMessage.FindStringSubmatch(sc.Text()); m != nil {
			if file, ok := idx.source(m[1]); ok {
				said[fmt.Sprintf("%s:%s:%s: %s", file, m[2], m[3], m[4])] = true
			}
		}
	}
	for file, f := range idx.files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !slices.Contains(emitTakers, fd.Name.Name) {
				continue
			}
			for _, field := range fd.Type.Params.List {
				for _, name := range field.Names {
					pos := idx.fset.Position(name.Pos())
					at := fmt.Sprintf("%s:%d:%d", file, pos.Line, pos.Column)
					if name.Name == "emit" && !said[at+": emit does not escape"] {
						problems = append(problems, fmt.Sprintf("%s: the compiler does not report %s's emit as not escaping", at, funcName(fd)))
					}
				}
			}
		}
	}
	sort.Strings(problems)
	return problems, seen
}

// TestDecoderEscapeGate compiles package decoder with -gcflags=-m and
// fails on heap escapes in the decode path, on any variable moved to the
// heap, and unless Decode's and DecodeFragment's emit do not escape.
func TestDecoderEscapeGate(t *testing.T) {
	escapeGate(t, "decoder", decodePathProblems)
}

// TestDecodePathClassifier checks the decoder gate's judgement on a
// made-up package, so that the gate is known to fail when it should: an
// escape in a function the decode path calls fails, one outside it does
// not, a variable moved to the heap fails anywhere, and so does an emit
// the compiler does not report as not escaping.
func TestDecodePathClassifier(t *testing.T) {
	src := `package decoder

type Decoder struct{ buf []byte }

func (d *Decoder) Decode(block []byte, emit func(name, value []byte, sensitive bool) error) error {
	return d.field(block)
}

func (d *Decoder) DecodeFragment(frag []byte, final bool, emit func(name, value []byte, sensitive bool) error) (int, error) {
	return 0, nil
}

func (d *Decoder) BeginBlock() {}
func (d *Decoder) TableLen() int { return 0 }
func (d *Decoder) TableEntry(i int) (name, value []byte) { return nil, nil }
func (d *Decoder) TableSize() (size, maxSize uint32) { return 0, 0 }
func (d *Decoder) SetMaxHeaderListSize(n uint32) {}

func (d *Decoder) field(b []byte) error {
	d.buf = make([]byte, len(b))
	return nil
}

func (d *Decoder) SetMaxStringLength(n int) {
	d.buf = make([]byte, n)
}

var sink *int

func (e *Decoder) Error() string {
	x := 1
	sink = &x
	return ""
}
`
	idx, err := parseSources("/x", map[string][]byte{"decoder/x.go": []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	out := strings.Join([]string{
		"# github.com/hpackcert/hpackcert/decoder",
		"decoder/x.go:5:40: emit does not escape",
		"decoder/x.go:9:59: leaking param: emit",
		"decoder/x.go:20:13: make([]byte, len(b)) escapes to heap",
		"decoder/x.go:25:13: make([]byte, n) escapes to heap",
		"decoder/x.go:31:2: moved to heap: x",
	}, "\n")
	problems, seen := decodePathProblems(idx, out)
	want := []string{
		"decoder/x.go:9:59: the compiler does not report *Decoder.DecodeFragment's emit as not escaping",
		"heap allocation in the decode path: decoder/x.go:20:13: make([]byte, len(b)) escapes to heap (in *Decoder.field)",
		"variable moved to heap: decoder/x.go:31:2: moved to heap: x (in *Decoder.Error)",
	}
	checkJudgement(t, problems, seen, want, 5)
}
