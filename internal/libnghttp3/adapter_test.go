//go:build nghttp3

package libnghttp3

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/internal/testenv"
	"github.com/hpackcert/hpackcert/oracle/qstrict"
	"github.com/hpackcert/hpackcert/qencoder"
)

// adapterBuild is the program buildAdapter compiled, once per test
// binary, in a directory TestMain removes.
var adapterBuild struct {
	once      sync.Once
	dir, prog string
	err       error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if adapterBuild.dir != "" {
		os.RemoveAll(adapterBuild.dir)
	}
	os.Exit(code)
}

// buildAdapter compiles adapters/nghttp3-qpack as adapters/install.sh
// does, with this package's C files, and returns the program's path.
func buildAdapter(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"gcc", "pkg-config"} {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.Missing(t, tool+", to build adapters/nghttp3-qpack")
		}
	}
	b := &adapterBuild
	b.once.Do(func() {
		if b.dir, b.err = os.MkdirTemp("", "nghttp3-qpack"); b.err == nil {
			b.prog, b.err = compileAdapter(b.dir)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.prog
}

func compileAdapter(dir string) (string, error) {
	flags, err := exec.Command("pkg-config", "--cflags", "--libs", "libnghttp3").Output()
	if err != nil {
		return "", fmt.Errorf("pkg-config libnghttp3: %v", err)
	}
	root := testenv.ModuleRoot()
	prog := filepath.Join(dir, "adapter")
	args := []string{"-O2", "-Wall", "-Wextra", "-Werror", "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-o", prog,
		filepath.Join(root, "adapters/nghttp3-qpack/adapter.c")}
	for _, c := range []string{"mem.c", "encoder.c", "decoder.c", "codes.c"} {
		args = append(args, filepath.Join(root, "internal/libnghttp3", c))
	}
	args = append(args, strings.Fields(string(flags))...)
	if out, err := exec.Command("gcc", args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("gcc: %v\n%s", err, out)
	}
	return prog, nil
}

// adapterProcess is the program under test, one JSON line per request
// and answer.
type adapterProcess struct {
	t   *testing.T
	in  *bufio.Writer
	out *bufio.Scanner
}

func startAdapter(t *testing.T, prog, side string) *adapterProcess {
	t.Helper()
	cmd := exec.Command(prog, side)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("%s %s: %v", prog, side, err)
		}
	})
	out := bufio.NewScanner(stdout)
	out.Buffer(nil, 16<<20)
	return &adapterProcess{t: t, in: bufio.NewWriter(stdin), out: out}
}

// call sends req and decodes the answer into answer.
func (p *adapterProcess) call(req map[string]any, answer any) {
	p.t.Helper()
	line, err := json.Marshal(req)
	if err != nil {
		p.t.Fatal(err)
	}
	p.in.Write(append(line, '\n'))
	if err := p.in.Flush(); err != nil {
		p.t.Fatal(err)
	}
	if !p.out.Scan() {
		p.t.Fatalf("no answer to %s: %v", line, p.out.Err())
	}
	if err := json.Unmarshal(p.out.Bytes(), answer); err != nil {
		p.t.Fatalf("answer %q to %s: %v", p.out.Text(), line, err)
	}
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return b
}

// hexFields returns fields as the binary form's headers and sensitive.
func hexFields(fields []Field) ([][2]string, []bool) {
	headers := make([][2]string, len(fields))
	sensitive := make([]bool, len(fields))
	for i, f := range fields {
		headers[i] = [2]string{hex.EncodeToString([]byte(f.Name)), hex.EncodeToString([]byte(f.Value))}
		sensitive[i] = f.Sensitive
	}
	return headers, sensitive
}

// TestAdapterEncoderQIF drives `adapter --encoder` over the QIF traffic,
// one connection per file, each section decoded by the strict decoder
// whose decoder stream goes back to the program.
func TestAdapterEncoderQIF(t *testing.T) {
	p := startAdapter(t, buildAdapter(t), "--encoder")
	var hello struct {
		Name  string
		QPACK bool
	}
	p.call(map[string]any{"op": "hello"}, &hello)
	if !hello.QPACK || !strings.HasPrefix(hello.Name, "libnghttp3 ") {
		t.Fatalf("hello: got %+v; want a libnghttp3 QPACK program", hello)
	}
	for _, f := range traffic(t) {
		var none struct{ Error string }
		p.call(map[string]any{"op": "new", "max_table_capacity": 4096, "blocked_streams": 100}, &none)
		dec := qstrict.New(qstrict.Settings{MaxTableCapacity: 4096, BlockedStreams: 100})
		for i, list := range f.HeaderLists {
			headers, sensitive := hexFields(list)
			var enc struct {
				Section       string
				EncoderStream string `json:"encoder_stream"`
				Error         string
			}
			p.call(map[string]any{"op": "encode", "stream": 4 * i, "headers": headers, "sensitive": sensitive}, &enc)
			if enc.Error != "" {
				t.Fatalf("%s: list %d: %s", f.Name, i, enc.Error)
			}
			if err := dec.EncoderStream(unhex(t, enc.EncoderStream)); err != nil {
				t.Fatalf("%s: list %d: %v", f.Name, i, err)
			}
			got, status, err := dec.DecodeSection(uint64(4*i), unhex(t, enc.Section))
			if err != nil || status != qstrict.Decoded || !equalFields(got, list) {
				t.Fatalf("%s: list %d: got %v (status %d, %v); want %v", f.Name, i, got, status, err, list)
			}
			var answer struct{ Error string }
			p.call(map[string]any{"op": "decoder_stream", "data": hex.EncodeToString(dec.DecoderStreamOut())}, &answer)
			if answer.Error != "" {
				t.Fatalf("%s: list %d: decoder stream: %s", f.Name, i, answer.Error)
			}
		}
	}
}

// decodedAnswer is the program's answer to decode and, per section, in
// "unblocked".
type decodedAnswer struct {
	Stream        uint64
	Headers       [][2]string
	Sensitive     []bool
	Blocked       bool
	DecoderStream string `json:"decoder_stream"`
	Error, Code   string
}

func (a decodedAnswer) fields(t *testing.T) []Field {
	var fields []Field
	for i, h := range a.Headers {
		fields = append(fields, Field{Name: string(unhex(t, h[0])), Value: string(unhex(t, h[1])), Sensitive: a.Sensitive[i]})
	}
	return fields
}

// TestAdapterDecoderQIF drives `adapter --decoder` with the reference
// encoder's encoding of the QIF traffic; each list must come out as the
// strict decoder has it, N bits included.
func TestAdapterDecoderQIF(t *testing.T) {
	p := startAdapter(t, buildAdapter(t), "--decoder")
	for _, f := range traffic(t) {
		var none struct{ Error string }
		p.call(map[string]any{"op": "new", "max_table_capacity": 4096, "blocked_streams": 100, "max_field_section_size": 0}, &none)
		enc := qencoder.New(qencoder.Config{TableCapacity: 4096, PeerMaxTableCapacity: 4096})
		strict := qstrict.New(qstrict.Settings{MaxTableCapacity: 4096, BlockedStreams: 100})
		for i, list := range f.HeaderLists {
			stream := uint64(4 * i)
			section, es := enc.AppendSection(nil, nil, stream, list)
			if err := strict.EncoderStream(es); err != nil {
				t.Fatal(err)
			}
			want, _, err := strict.DecodeSection(stream, section)
			if err != nil {
				t.Fatal(err)
			}
			strict.DecoderStreamOut()
			var fromStream struct {
				Unblocked     []decodedAnswer
				DecoderStream string `json:"decoder_stream"`
				Error         string
			}
			p.call(map[string]any{"op": "encoder_stream", "data": hex.EncodeToString(es)}, &fromStream)
			var got decodedAnswer
			p.call(map[string]any{"op": "decode", "stream": stream, "section": hex.EncodeToString(section)}, &got)
			if fromStream.Error != "" || got.Error != "" || got.Blocked || !equalFields(got.fields(t), want) {
				t.Fatalf("%s: list %d: got %+v after %+v; want %v", f.Name, i, got, fromStream, want)
			}
			if _, err := enc.DecoderStream(unhex(t, fromStream.DecoderStream+got.DecoderStream)); err != nil {
				t.Fatalf("%s: list %d: %v", f.Name, i, err)
			}
		}
	}
}

// TestAdapterRefusals checks the codes the program answers refusals with.
func TestAdapterRefusals(t *testing.T) {
	prog := buildAdapter(t)
	tests := []struct {
		side string
		req  map[string]any
		want string
	}{
		{"--decoder", map[string]any{"op": "encoder_stream", "data": "3fe13f"}, qpack.EncoderStreamError},
		{"--decoder", map[string]any{"op": "decode", "stream": 0, "section": "0000ff24"}, qpack.DecompressionFailed},
		{"--encoder", map[string]any{"op": "decoder_stream", "data": "80"}, qpack.DecoderStreamError},
	}
	for _, tc := range tests {
		p := startAdapter(t, prog, tc.side)
		var none struct{ Error string }
		p.call(map[string]any{"op": "new", "max_table_capacity": 4096, "blocked_streams": 100}, &none)
		var got struct{ Error, Code string }
		p.call(tc.req, &got)
		if got.Error == "" || got.Code != tc.want {
			t.Errorf("%s %v: got %+v; want an error with code %s", tc.side, tc.req, got, tc.want)
		}
	}
	if err := exec.Command(prog).Run(); err == nil {
		t.Errorf("%s without a side succeeded", prog)
	}
}
