package qdecoders

import (
	"fmt"

	"github.com/hpackcert/hpackcert/certify/qpack"
)

// Lacks is what a QPACK decoder declares its library cannot do or show,
// as decoders.DecoderLacks is for HPACK: the stories that need it are not
// played, and a case left with none is unsupported, named as declared,
// never a pass.
type Lacks struct {
	// DynamicTable: the decoder has no dynamic table and reads no
	// encoder stream (it announces SETTINGS_QPACK_MAX_TABLE_CAPACITY 0):
	// every story with a table capacity or an encoder-stream octet is
	// left out.
	DynamicTable bool
	// NeverIndexed: the decoder does not tell a literal with the N bit
	// from the others (qdec/4.5.4/1).
	NeverIndexed bool
}

// The names of the lacks, as a stdio decoder's hello would give them.
const (
	lackDynamicTable = "dynamic-table"
	lackNeverIndexed = "never-indexed"
)

// Names returns the declared lacks by name, in the order of the fields.
func (l Lacks) Names() []string {
	var out []string
	if l.DynamicTable {
		out = append(out, lackDynamicTable)
	}
	if l.NeverIndexed {
		out = append(out, lackNeverIndexed)
	}
	return out
}

// ParseLack sets the lack named name and returns an error for a name it
// does not know.
func (l *Lacks) ParseLack(name string) error {
	switch name {
	case lackDynamicTable:
		l.DynamicTable = true
	case lackNeverIndexed:
		l.NeverIndexed = true
	default:
		return fmt.Errorf("unknown QPACK decoder lack %q (known: %s, %s)", name, lackDynamicTable, lackNeverIndexed)
	}
	return nil
}

// Lacker is implemented by a qpack.DecoderTarget that declares lacks.
type Lacker interface {
	QPACKDecoderLacks() Lacks
}

// Declare returns t declaring lacks.
func Declare(t qpack.DecoderTarget, lacks Lacks) qpack.DecoderTarget {
	return &declared{DecoderTarget: t, lacks: lacks}
}

type declared struct {
	qpack.DecoderTarget
	lacks Lacks
}

func (d *declared) QPACKDecoderLacks() Lacks { return d.lacks }

// unwrap returns the target a declaration wraps, or t: the wrapped
// target's markers (InProcess, StderrTail...) are its own.
func unwrap(t qpack.DecoderTarget) qpack.DecoderTarget {
	if d, ok := t.(*declared); ok {
		return unwrap(d.DecoderTarget)
	}
	return t
}
