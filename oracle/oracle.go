// Package oracle defines the decoder interface every verdict of hpackcert
// rests on, and a registry of the decoders built into the binary.
//
// Four implementations live in subpackages: oracle/strict (our own
// spec-literal decoder), oracle/ref (package decoder, the reference
// decoder), oracle/xnet (golang.org/x/net/http2/hpack) and oracle/nghttp2
// (libnghttp2 through cgo, build tag nghttp2). Each registers
// itself from an init function; import oracle/all to get every oracle this
// binary was built with.
//
// Departure from DESIGN.md: Available lives here as the design says, but the
// subpackages import this package for Field, so it cannot import them back.
// They register themselves instead, the way image formats and database/sql
// drivers do, and oracle/all is the one import that pulls them all in.
// oracle/panel decodes a connection's blocks with every oracle at once.
//
// Files: oracle.go (Field, Decoder and the registry) and leniency.go
// (KnownLeniencies, where an oracle knowingly departs from the strict one,
// and MatchLeniency).
package oracle

import (
	"sort"
	"sync"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// Field is a decoded header field: spec.Field, the module's one
// header-field type. Sensitive reports that it arrived as a "Literal
// Header Field Never Indexed" representation (RFC 7541 §6.2.3).
type Field = spec.Field

// Decoder is one HPACK decoding context, as one HTTP/2 connection holds it.
type Decoder interface {
	// Name identifies the decoder in reports.
	Name() string
	// SetMaxDynamicTableSize records the SETTINGS_HEADER_TABLE_SIZE this
	// side acknowledged; it takes effect for the next block.
	SetMaxDynamicTableSize(n uint32)
	// DecodeBlock decodes one complete header block.
	DecodeBlock(block []byte) ([]Field, error)
	// Table returns the dynamic table, newest entry first, as it stands
	// after the last block. Sensitive is false in every entry.
	Table() []Field
}

type registration struct {
	name string
	new  func() Decoder
}

var (
	registryMu sync.Mutex
	registry   []registration
)

// Register adds a decoder factory under name. It is called from the init
// functions of the oracle subpackages and panics on a duplicate name, which
// is a programming error.
func Register(name string, newDecoder func() Decoder) {
	registryMu.Lock()
	defer registryMu.Unlock()
	for _, r := range registry {
		if r.name == name {
			panic("oracle: Register called twice for " + name)
		}
	}
	registry = append(registry, registration{name, newDecoder})
	sort.Slice(registry, func(i, j int) bool { return registry[i].name < registry[j].name })
}

// Available returns a factory for every oracle registered in this binary,
// sorted by name. Each call of a factory returns a fresh decoder.
func Available() []func() Decoder {
	registryMu.Lock()
	defer registryMu.Unlock()
	out := make([]func() Decoder, len(registry))
	for i, r := range registry {
		out[i] = r.new
	}
	return out
}

// Names returns the names of the registered oracles, in the order of
// Available.
func Names() []string {
	registryMu.Lock()
	defer registryMu.Unlock()
	out := make([]string, len(registry))
	for i, r := range registry {
		out[i] = r.name
	}
	return out
}
