package certify

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// namedTarget is a target that is only a name, for the checks of the
// expect file against a run's encoders.
type namedTarget string

func (n namedTarget) Name() string               { return string(n) }
func (namedTarget) NewEncoder() (Encoder, error) { return nil, os.ErrInvalid }
func (namedTarget) Close() error                 { return nil }

// TestReadExpectations checks that an expect file gives its expected
// failures and its declarations, in the forms Options takes.
func TestReadExpectations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "expected.txt")
	file := strings.Join([]string{
		"# known failures",
		"enc/4.2/1",
		"  okhttp 3.13.1 enc/3.2/2  ",
		"",
		"unsupported enc/7.1.3/1: no never-index API",
		"unsupported enc/4.2/, enc/6.3/ for Protocol::HTTP2 1.10 (no never-index API): one size update per block: its Compressor",
		"unsupported\tenc/5.2/4 for my enc: never Huffman-codes\r",
	}, "\n")
	if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	failures, declared, err := ReadExpectations(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"enc/4.2/1", "okhttp 3.13.1 enc/3.2/2"}; !reflect.DeepEqual(failures, want) {
		t.Errorf("failures %q; want %q", failures, want)
	}
	perl, reason := "Protocol::HTTP2 1.10 (no never-index API)", "one size update per block: its Compressor"
	want := []Declaration{
		{Case: "enc/7.1.3/1", Reason: "no never-index API"},
		{Case: "enc/4.2/", Encoder: perl, Reason: reason},
		{Case: "enc/6.3/", Encoder: perl, Reason: reason},
		{Case: "enc/5.2/4", Encoder: "my enc", Reason: "never Huffman-codes"},
	}
	if !reflect.DeepEqual(declared, want) {
		t.Errorf("declared\n%+v\nwant\n%+v", declared, want)
	}
	if _, _, err := ReadExpectations(filepath.Join(t.TempDir(), "absent.txt")); err == nil || !strings.Contains(err.Error(), "absent.txt") {
		t.Errorf("absent file: error %v; want one naming it", err)
	}
}

// TestExpectationsErrors checks that every wrong line is refused with the
// file, the line and what is wrong, a declaration without its reason
// included: read as an expected failure of an encoder named
// "unsupported", it would let the lack it meant to declare fail the run
// with no word of why.
func TestExpectationsErrors(t *testing.T) {
	for _, tc := range []struct {
		name, line, want string
	}{
		{"not a case", "enc4.2/1", `x.txt:2: "enc4.2/1" is not a case id (enc/... or dec/... or qenc/... or qdec/...), nor a declaration`},
		{"unknown case", "enc/9.9/9", `x.txt:2: no case "enc/9.9/9"`},
		{"failure of a prefix", "enc/4.2/", `x.txt:2: no case "enc/4.2/"`},
		{"no reason", "unsupported enc/7.1.3/1", "x.txt:2: declaration: no reason"},
		{"empty reason", "unsupported enc/7.1.3/1:   ", "x.txt:2: declaration: the reason after the colon is empty"},
		{"no reason after the encoder", "unsupported enc/7.1.3/1 for okhttp", "x.txt:2: declaration: no reason"},
		{"unknown prefix", "unsupported enc/9.: no such section", `x.txt:2: declaration: no case id starts with "enc/9."`},
		{"prefix not enc/ or dec/", "unsupported enc/7.1.3/1,foo/1: decoders", `x.txt:2: declaration: "foo/1" is not a case id or id prefix`},
		{"empty prefix", "unsupported enc/7.1.3/1,,enc/4.2/: x", "x.txt:2: declaration: an empty case id"},
		{"ids without commas", "unsupported enc/7.1.3/1 enc/4.2/1: x", `x.txt:2: declaration: "enc/7.1.3/1 enc/4.2/1": separate case ids with commas`},
		{"no encoder after for", "unsupported enc/7.1.3/1 for : x", `x.txt:2: declaration: no encoder name after "for"`},
		// A decoder's declaration is read as an encoder's is (issue 37:
		// one rule for both sides), not as a failure expected of a
		// decoder named "unsupported".
		{"decoder declaration without reason", "unsupported dec/7.1.3/1", "x.txt:2: declaration: no reason"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := caseNames().ParseExpectations(strings.NewReader("enc/4.2/1\n"+tc.line+"\n"), "x.txt")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%q: error %v; want one containing %q", tc.line, err, tc.want)
			}
		})
	}
}

// TestParseDeclaration checks the value of --declare-unsupported: one or
// more ids or prefixes, an encoder or none, a reason always.
func TestParseDeclaration(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []Declaration
	}{
		{"enc/7.1.3/1,enc/4.2/: no never-index API", []Declaration{
			{Case: "enc/7.1.3/1", Reason: "no never-index API"},
			{Case: "enc/4.2/", Reason: "no never-index API"},
		}},
		{"  enc/7.1.3/ for tomcat-coyote 9.0.70 (no per-field never-index API):  HpackEncoder: none ", []Declaration{
			{Case: "enc/7.1.3/", Encoder: "tomcat-coyote 9.0.70 (no per-field never-index API)", Reason: "HpackEncoder: none"},
		}},
		// The line of an expect file, keyword and all, works as a flag too.
		{"unsupported enc/5.2/ for Protocol::HTTP2 1.10: why: this", []Declaration{{Case: "enc/5.2/", Encoder: "Protocol::HTTP2 1.10", Reason: "why: this"}}},
		{"enc/: nothing can be graded", []Declaration{{Case: "enc/", Reason: "nothing can be graded"}}},
	} {
		got, err := ParseDeclaration(tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseDeclaration(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"", "no reason"},
		{"enc/7.1.3/1", `declaration "enc/7.1.3/1": no reason: want "CASES: REASON" or "CASES for ENCODER: REASON"`},
		{"enc/7.1.3/1:", "the reason after the colon is empty"},
		{"enc/7.1.3/1 for x:", "the reason after the colon is empty"},
		{"enc/7.1.3/1 for   : x", `no encoder name after "for"`},
		{"enc/8/: x", `no case id starts with "enc/8/"`},
		{"unsupported: x", `"unsupported" is not a case id`},
		{"7.1.3/1: x", `"7.1.3/1" is not a case id or id prefix`},
	} {
		if got, err := ParseDeclaration(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseDeclaration(%q) = %+v, %v; want an error containing %q", tc.in, got, err, tc.want)
		}
	}
}

// TestCheckDeclared checks the declarations against the run: a case
// prefix of the catalogue, a reason, and an encoder of the run when one
// is named, since a declaration for an encoder the run does not have
// declares nothing.
func TestCheckDeclared(t *testing.T) {
	targets := []string{"ref", "okhttp 3.13.1 (no never-index API)"}
	checkDeclared := func(decls []Declaration, names []string) error {
		_, err := runRules("encoder", names, false, nil, decls)
		return err
	}
	ok := []Declaration{
		{Case: "enc/7.1.3/1", Reason: "no never-index API"},
		{Case: "enc/4.2/", Encoder: "okhttp 3.13.1 (no never-index API)", Reason: "no never-index API"},
	}
	if err := checkDeclared(ok, targets); err != nil {
		t.Errorf("checkDeclared: %v", err)
	}
	if err := checkDeclared(nil, nil); err != nil {
		t.Errorf("checkDeclared(nil): %v", err)
	}
	for _, tc := range []struct {
		d    Declaration
		want string
	}{
		{Declaration{Case: "enc/4.2/", Encoder: "okhttp 3.13.2", Reason: "r"}, `declared unsupported "enc/4.2/" for "okhttp 3.13.2": no encoder "okhttp 3.13.2" in this run (have ["ref" "okhttp 3.13.1 (no never-index API)"])`},
		{Declaration{Case: "enc/7.1.3/1", Reason: " "}, `declared unsupported "enc/7.1.3/1": no reason given`},
		{Declaration{Case: "enc/9/", Reason: "r"}, `no case id starts with "enc/9/"`},
		{Declaration{Case: "", Reason: "r"}, `"" is not a case id or id prefix`},
	} {
		if err := checkDeclared(append(ok[:2:2], tc.d), targets); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("checkDeclared(%+v): %v; want an error containing %q", tc.d, err, tc.want)
		}
	}
}

// TestDeclarationCovers checks what a declaration declares: its id or
// every id under its prefix, for its encoder or, with none, for all.
func TestDeclarationCovers(t *testing.T) {
	for _, tc := range []struct {
		d       Declaration
		enc, id string
		want    bool
	}{
		{Declaration{Case: "enc/4.2/"}, "any", "enc/4.2/3", true},
		{Declaration{Case: "enc/4.2/"}, "any", "enc/4.1/1", false},
		{Declaration{Case: "enc/7.1.3/1", Encoder: "a"}, "a", "enc/7.1.3/1", true},
		{Declaration{Case: "enc/7.1.3/1", Encoder: "a"}, "b", "enc/7.1.3/1", false},
	} {
		if got := tc.d.Covers(tc.enc, tc.id); got != tc.want {
			t.Errorf("%+v Covers(%q, %q) = %v; want %v", tc.d, tc.enc, tc.id, got, tc.want)
		}
	}
}

// TestAdaptersDeclared checks the declarations ci/matrix.sh passes, the
// lacks of the adapted libraries: the file reads, it holds declarations
// only (the matrix records failures, it expects none), and each is of one
// library, since one library's lack says nothing of another's.
func TestAdaptersDeclared(t *testing.T) {
	failures, declared, err := ReadExpectations(filepath.Join("..", "adapters", "declared.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(failures) > 0 || len(declared) == 0 {
		t.Fatalf("adapters/declared.txt: expected failures %q and %d declarations; want declarations only", failures, len(declared))
	}
	for _, d := range declared {
		if d.Encoder == "" {
			t.Errorf("adapters/declared.txt declares %s for every encoder (%s); want one library's", d.Case, d.Reason)
		}
	}
}
