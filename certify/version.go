package certify

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"github.com/hpackcert/hpackcert/engine"
	"strings"
	"sync"
)

// Version returns the hpackcert build (engine.Version).
func Version() string { return engine.Version() }

var catalogue = sync.OnceValue(func() string {
	h := sha256.New()
	for _, c := range Cases() {
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%s\n", c.ID, c.Violation, c.Title, c.RFC, strings.Join(c.scenarios, ","))
	}
	return fmt.Sprintf("%d cases, %s", len(Cases()), hex.EncodeToString(h.Sum(nil))[:12])
})

// CatalogueVersion names the case catalogue: the number of cases and a
// digest of their ids, grades, titles, texts and scenarios, so that a
// dashboard comparing reports can tell whether the cases changed between
// two of them.
func CatalogueVersion() string { return catalogue() }

var decoderCatalogue = sync.OnceValue(func() string { return digest("decoder cases", DecoderCases()) })

// DecoderCatalogueVersion names the dec/ catalogue as CatalogueVersion
// names the enc/ one.
func DecoderCatalogueVersion() string { return decoderCatalogue() }
