// Package stdioschema loads docs/hpack-stdio.schema.json, the JSON Schema
// of every hpack-stdio message, for the tests that check the certifier's
// requests and the encoders' answers against it. It is imported by tests
// only.
package stdioschema

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// Defs are the definitions of the schema, by name; "" is the whole
// document.
type Defs map[string]*jsonschema.Schema

// Load compiles the whole schema and each of its definitions. The file is
// found from the module root.
func Load() (Defs, error) {
	root := testenv.ModuleRoot()
	if root == "" {
		return nil, fmt.Errorf("stdioschema: no module root above the working directory")
	}
	file := filepath.Join(root, "docs", "hpack-stdio.schema.json")
	c := jsonschema.NewCompiler()
	out := Defs{}
	for _, def := range []string{"", "request", "helloRequest", "newRequest", "encodeRequest", "encodeBinaryRequest",
		"answer", "helloAnswer", "newAnswer", "encodeAnswer", "errorAnswer"} {
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

// AnswerDef names the definition an answer to op ("hello", "new",
// "encode") must match; any other op's answer is an error answer.
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
