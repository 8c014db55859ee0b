package property

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// The escape-analysis gate compiles package encoder with -gcflags=-m and
// fails on any value that "escapes to heap" or is "moved to heap" in the
// encode path. Excluded, by function name found with go/parser:
//
//   - constructors: New and functions whose name starts with "new", and
//     function literals given as the New field of a composite literal (a
//     sync.Pool's New); they allocate an encoder's memory by design;
//   - the growth of the caller's buffer: "append escapes to heap" for a
//     call whose first argument is a []byte parameter of the function
//     (dst). That allocation happens only when the caller did not size dst
//     by MaxFieldLen, which the package doc makes the caller's job;
//   - constants converted to interfaces, such as the panic message of an
//     inlined standard-library check ("cannot be negative" in slices.Grow):
//     the compiler reports them as escaping, but they live in read-only
//     data and cost nothing at run time.
//
// _test.go files are not compiled by go build, so they never appear.

// escapeMessage matches one line of -m output.
var escapeMessage = regexp.MustCompile(`^(.+\.go):(\d+):(\d+): (.*)$`)

// constantEscape matches an escape of a string or number literal.
var constantEscape = regexp.MustCompile(`^("([^"\\]|\\.)*"|[0-9][0-9a-fA-Fx._]*) escapes to heap`)

// escapeFinding is one -m diagnostic inside the encoder's sources.
type escapeFinding struct {
	file      string // as the compiler prints it, relative to the module root
	line, col int
	msg       string
	fn        string // the enclosing function
}

func (f escapeFinding) String() string {
	return fmt.Sprintf("%s:%d:%d: %s (in %s)", f.file, f.line, f.col, f.msg, f.fn)
}

// sourceIndex locates functions and calls in parsed Go files.
type sourceIndex struct {
	fset  *token.FileSet
	files map[string]*ast.File // by the path the compiler prints
}

func parseSources(root string, files map[string][]byte) (*sourceIndex, error) {
	idx := &sourceIndex{fset: token.NewFileSet(), files: map[string]*ast.File{}}
	for name, src := range files {
		f, err := parser.ParseFile(idx.fset, filepath.Join(root, name), src, 0)
		if err != nil {
			return nil, err
		}
		idx.files[name] = f
	}
	return idx, nil
}

// source maps a path the compiler printed to the parsed file it names.
// The go command prints paths relative to the directory it ran in, and
// replays output from its build cache as first printed, from wherever that
// was: "encoder/table.go", "./table.go" and "table.go" all name the same
// file. Absolute paths and paths climbing out with ".." name other
// packages' files (the standard library's, when inlined).
func (idx *sourceIndex) source(printed string) (string, bool) {
	p := filepath.ToSlash(printed)
	if filepath.IsAbs(printed) || strings.HasPrefix(p, "../") {
		return "", false
	}
	p = strings.TrimPrefix(p, "./")
	for name := range idx.files {
		if p == name || p == path.Base(name) {
			return name, true
		}
	}
	return "", false
}

// enclosing returns the function declaration around line:col of file
// (nil at package level), its name, and whether the position is excluded
// from the gate: inside a constructor, or inside a function literal given
// as the New field of a composite literal anywhere in the file.
func (idx *sourceIndex) enclosing(file string, line, col int) (*ast.FuncDecl, string, bool) {
	f := idx.files[file]
	if f == nil {
		return nil, "", false
	}
	poolNew := false
	ast.Inspect(f, func(n ast.Node) bool {
		if kv, ok := n.(*ast.KeyValueExpr); ok {
			key, isIdent := kv.Key.(*ast.Ident)
			lit, isLit := kv.Value.(*ast.FuncLit)
			if isIdent && isLit && key.Name == "New" && idx.within(lit, line, col) {
				poolNew = true
			}
		}
		return true
	})
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || !idx.within(fd, line, col) {
			continue
		}
		constructor := fd.Name.Name == "New" || strings.HasPrefix(fd.Name.Name, "new")
		return fd, funcName(fd), constructor || poolNew
	}
	return nil, "package level", poolNew
}

// funcName names a function declaration as findings do: with its
// receiver type for a method, as in *Encoder.AppendField.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv != nil && len(fd.Recv.List) > 0 {
		return types(fd.Recv.List[0].Type) + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// within reports whether line:col falls inside n.
func (idx *sourceIndex) within(n ast.Node, line, col int) bool {
	start, end := idx.fset.Position(n.Pos()), idx.fset.Position(n.End())
	after := line > start.Line || line == start.Line && col >= start.Column
	before := line < end.Line || line == end.Line && col <= end.Column
	return after && before
}

// types renders a receiver type expression such as *Encoder.
func types(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return "*" + types(t.X)
	case *ast.Ident:
		return t.Name
	case *ast.IndexExpr:
		return types(t.X)
	}
	return "?"
}

// growsDst reports whether the call whose parenthesis is at line:col in fd
// appends to one of fd's []byte parameters.
func (idx *sourceIndex) growsDst(fd *ast.FuncDecl, line, col int) bool {
	params := map[string]bool{}
	for _, field := range fd.Type.Params.List {
		if arr, ok := field.Type.(*ast.ArrayType); ok && arr.Len == nil {
			if elt, ok := arr.Elt.(*ast.Ident); ok && elt.Name == "byte" {
				for _, n := range field.Names {
					params[n.Name] = true
				}
			}
		}
	}
	found := false
	ast.Inspect(fd, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		for _, p := range []token.Pos{call.Lparen, call.Pos()} {
			pos := idx.fset.Position(p)
			if pos.Line == line && pos.Column == col {
				if id, ok := call.Args[0].(*ast.Ident); ok && params[id.Name] {
					found = true
				}
			}
		}
		return true
	})
	return found
}

// classify splits the -m output of the encoder into the offending
// findings and the number of diagnostics that named encoder sources at all.
func classify(idx *sourceIndex, output string) (offending []escapeFinding, seen int) {
	dedup := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(output))
	for sc.Scan() {
		m := escapeMessage.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		file, ok := idx.source(m[1])
		if !ok {
			continue
		}
		seen++
		msg := m[4]
		if !strings.Contains(msg, "escapes to heap") && !strings.Contains(msg, "moved to heap") {
			continue
		}
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		fd, fn, excluded := idx.enclosing(file, line, col)
		switch {
		case excluded:
			continue
		case fd != nil && strings.HasPrefix(msg, "append escapes to heap") && idx.growsDst(fd, line, col):
			continue
		case constantEscape.MatchString(msg):
			continue
		}
		f := escapeFinding{file: file, line: line, col: col, msg: msg, fn: fn}
		if !dedup[f.String()] {
			dedup[f.String()] = true
			offending = append(offending, f)
		}
	}
	sort.Slice(offending, func(i, j int) bool { return offending[i].String() < offending[j].String() })
	return offending, seen
}

// TestEscapeAnalysisGate compiles package encoder with -gcflags=-m and
// fails on heap escapes in the encode path, printing each offending line.
func TestEscapeAnalysisGate(t *testing.T) {
	escapeGate(t, "encoder", func(idx *sourceIndex, out string) (problems []string, seen int) {
		offending, seen := classify(idx, out)
		for _, f := range offending {
			problems = append(problems, fmt.Sprintf("heap allocation in the encode path: %v", f))
		}
		return problems, seen
	})
}

// escapeGate compiles the module's package in directory pkg with
// -gcflags=-m and fails on every problem judge finds in the output, or
// when no diagnostic named the package's sources (nothing to judge).
func escapeGate(t *testing.T, pkg string, judge func(idx *sourceIndex, out string) (problems []string, seen int)) {
	t.Helper()
	idx, out := escapeDiagnostics(t, pkg)
	problems, seen := judge(idx, out)
	if seen == 0 {
		t.Fatalf("go build -gcflags=-m printed no diagnostics for the sources of %s; cannot judge:\n%s", pkg, out)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// escapeDiagnostics compiles the module's package in directory pkg with
// -gcflags=-m and returns its non-test sources, parsed, and the
// compiler's output.
func escapeDiagnostics(t *testing.T, pkg string) (*sourceIndex, string) {
	t.Helper()
	root := testenv.ModuleRoot()
	if root == "" {
		t.Fatal("no go.mod above the working directory")
	}
	goTool := testenv.GoTool(t, "to compile package "+pkg+" with -gcflags=-m")
	matches, err := filepath.Glob(filepath.Join(root, pkg, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, path := range matches {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, path)
		files[filepath.ToSlash(rel)] = src
	}
	idx, err := parseSources(root, files)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goTool, "build", "-gcflags=-m", "./"+pkg)
	cmd.Dir = root
	// The diagnostics must name the files by their paths: -trimpath (as
	// ci/test.sh sets in GOFLAGS) would name them by import path.
	cmd.Env = append(os.Environ(), "GOFLAGS="+strings.ReplaceAll(os.Getenv("GOFLAGS"), "-trimpath", ""))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m ./%s: %v\n%s", pkg, err, out)
	}
	return idx, string(out)
}

// TestEscapeClassifier checks the gate's filter on a made-up package, so
// that the gate is known to fail when it should.
func TestEscapeClassifier(t *testing.T) {
	src := `package encoder

type Encoder struct{ buf []byte }

var sink *int

func New() *Encoder { return &Encoder{buf: make([]byte, 8)} }

func newTable() []byte { return make([]byte, 8) }

func (e *Encoder) AppendX(dst []byte, b byte) []byte {
	return append(dst, b)
}

func (e *Encoder) leak() {
	x := 1
	sink = &x
}

func (e *Encoder) grow(b byte) {
	e.buf = append(e.buf, b)
}

type Pool struct{ New func() any }

var pool = Pool{New: func() any { return new(Encoder) }}

var global = func() *int {
	y := 2
	return &y
}()
`
	idx, err := parseSources("/x", map[string][]byte{"encoder/x.go": []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	out := strings.Join([]string{
		"# github.com/hpackcert/hpackcert/encoder",
		"encoder/x.go:7:30: &Encoder{...} escapes to heap",
		"encoder/x.go:7:44: make([]byte, 8) escapes to heap",
		"encoder/x.go:9:37: make([]byte, 8) escapes to heap",
		"encoder/x.go:12:15: append escapes to heap",
		"encoder/x.go:12:15: append escapes to heap",
		"encoder/x.go:16:2: moved to heap: x",
		"x.go:21:16: append escapes to heap",
		"encoder/x.go:26:42: new(Encoder) escapes to heap",
		"./x.go:29:2: moved to heap: y",
		"encoder/x.go:11:28: leaking param: dst to result ~r0 level=0",
		"x.go:21:16: \"cannot be negative\" escapes to heap",
		"x.go:21:16: 42 escapes to heap",
		"x.go:17:9: &x escapes to heap",
		"other/y.go:3:3: moved to heap: z",
		"/usr/local/go/src/slices/x.go:3:3: moved to heap: z",
		"../internal/x.go:3:3: moved to heap: z",
	}, "\n")
	offending, seen := classify(idx, out)
	var got []string
	for _, f := range offending {
		got = append(got, f.String())
	}
	want := []string{
		"encoder/x.go:16:2: moved to heap: x (in *Encoder.leak)",
		"encoder/x.go:17:9: &x escapes to heap (in *Encoder.leak)",
		"encoder/x.go:21:16: append escapes to heap (in *Encoder.grow)",
		"encoder/x.go:29:2: moved to heap: y (in package level)",
	}
	checkJudgement(t, got, seen, want, 13)
}

// checkJudgement compares what a gate's filter made of made-up compiler
// output with what it should have: the findings, and how many
// diagnostics named the package's sources.
func checkJudgement(t *testing.T, got []string, seen int, want []string, wantSeen int) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if seen != wantSeen {
		t.Errorf("seen %d diagnostics for the package's sources; want %d", seen, wantSeen)
	}
}
