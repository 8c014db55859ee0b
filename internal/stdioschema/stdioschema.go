// Package stdioschema loads docs/hpack-stdio.schema.json and
// docs/qpack-stdio.schema.json, the JSON Schemas of every hpack-stdio
// message of the HPACK and the QPACK modes, for the tests that check the
// certifier's requests and the programs' answers against them. It is
// imported by tests only.
package stdioschema

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// Defs are the definitions of a schema, by name; "" is the whole
// document.
type Defs map[string]*jsonschema.Schema

// The files of the two schemas, in docs/, and the address of the HPACK
// one, its $id, by which the QPACK one refers to its definitions.
const (
	hpackFile = "hpack-stdio.schema.json"
	qpackFile = "qpack-stdio.schema.json"
	hpackID   = "https://github.com/hpackcert/hpackcert/docs/hpack-stdio.schema.json"
)

// Load compiles the whole HPACK schema and each of its definitions. The
// file is found from the module root.
func Load() (Defs, error) {
	return load(hpackFile, "request", "helloRequest", "newRequest", "encodeRequest", "encodeBinaryRequest",
		"answer", "helloAnswer", "newAnswer", "encodeAnswer", "errorAnswer")
}

// LoadQPACK compiles the whole QPACK schema and each of its definitions
// of a message, with the HPACK schema it refers to.
func LoadQPACK() (Defs, error) {
	return load(qpackFile, "request", "encoderNewRequest", "decoderNewRequest", "encodeRequest", "encodeBinaryRequest",
		"decoderStreamRequest", "encoderStreamRequest", "decodeRequest", "cancelRequest",
		"answer", "helloAnswer", "newAnswer", "encodeAnswer", "decoderStreamAnswer", "encoderStreamAnswer",
		"decodeAnswer", "cancelAnswer", "errorAnswer")
}

// load compiles the schema of docs/name and the definitions defs of it.
// The HPACK schema is added under its $id, so that the definitions of
// another schema that refer to it resolve without a network.
func load(name string, defs ...string) (Defs, error) {
	root := testenv.ModuleRoot()
	if root == "" {
		return nil, fmt.Errorf("stdioschema: no module root above the working directory")
	}
	c := jsonschema.NewCompiler()
	f, err := os.Open(filepath.Join(root, "docs", hpackFile))
	if err != nil {
		return nil, fmt.Errorf("stdioschema: %w", err)
	}
	doc, err := jsonschema.UnmarshalJSON(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("stdioschema: %s: %w", hpackFile, err)
	}
	if err := c.AddResource(hpackID, doc); err != nil {
		return nil, fmt.Errorf("stdioschema: %w", err)
	}
	file := filepath.Join(root, "docs", name)
	out := Defs{}
	for _, def := range append([]string{""}, defs...) {
		loc := file
		if def != "" {
			loc += "#/$defs/" + def
		}
		sch, err := c.Compile(loc)
		if err != nil {
			return nil, fmt.Errorf("stdioschema: compiling %s: %w", loc, err)
		}
		out[def] = sch
	}
	return out, nil
}

// Validate checks one protocol line against the named definition.
func (d Defs) Validate(def, line string) error {
	sch, ok := d[def]
	if !ok {
		return fmt.Errorf("stdioschema: no definition %q", def)
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(line))
	if err != nil {
		return err
	}
	return sch.Validate(v)
}

// AnswerDef names the definition of the HPACK schema an answer to op
// ("hello", "new", "encode") must match; any other op's answer is an
// error answer.
func AnswerDef(op string) string {
	switch op {
	case "hello":
		return "helloAnswer"
	case "new":
		return "newAnswer"
	case "encode":
		return "encodeAnswer"
	}
	return "errorAnswer"
}

// QPACKAnswerDef names the definition of the QPACK schema an answer to
// op must match; an unknown op's answer is an error answer.
func QPACKAnswerDef(op string) string {
	switch op {
	case "hello", "new", "encode", "decode", "cancel":
		return op + "Answer"
	case "decoder_stream":
		return "decoderStreamAnswer"
	case "encoder_stream":
		return "encoderStreamAnswer"
	}
	return "errorAnswer"
}
