package property

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/hpackcert/hpackcert/oracle/strict"
	"github.com/hpackcert/hpackcert/oracle/xnet"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/commands"
)

// verdict checks an observation against the model state after the
// command. The first failure is kept on the system for the story file.
func verdict(cmd commands.Command, st *connState, obs *observation) *gopter.PropResult {
	if obs.skipped {
		return &gopter.PropResult{Status: gopter.PropTrue}
	}
	msg := obs.problem(st)
	if msg == "" {
		obs.sys.count(cmd, st, obs)
		return &gopter.PropResult{Status: gopter.PropTrue}
	}
	obs.sys.failure = fmt.Sprintf("after command %d %v: %s", len(obs.sys.history), cmd, msg)
	return &gopter.PropResult{Status: gopter.PropFalse, Labels: []string{obs.sys.failure}}
}

// count adds what a passing command exercised to the coverage counts.
func (s *system) count(cmd commands.Command, st *connState, obs *observation) {
	switch cmd.(type) {
	case resetCmd:
		s.coverage["reset"]++
	case poolCmd:
		s.coverage["pool round trip"]++
	case sizesCmd:
		s.coverage["sizes acked"]++
	case encodeCmd:
		if len(st.expect.fields) == 0 {
			s.coverage["empty block"]++
		}
		for _, f := range st.expect.features {
			s.coverage[f]++
		}
		for _, d := range obs.decoded {
			if d.retired && d.name == xnet.Name {
				s.coverage["x/net sits out"]++
			}
		}
	}
}

// problem returns the first way obs differs from the model, or "".
func (obs *observation) problem(st *connState) string {
	if obs.panicked != "" {
		return obs.panicked
	}
	if !(obs.tableSize <= obs.maxSize && obs.maxSize <= st.capacity) {
		return fmt.Sprintf("TableSize %d, MaxTableSize %d, Capacity %d: want TableSize <= MaxTableSize <= Capacity", obs.tableSize, obs.maxSize, st.capacity)
	}
	if obs.tableLen != len(obs.encTable) {
		return fmt.Sprintf("TableLen %d: more entries than a table of Capacity %d can hold", obs.tableLen, st.capacity)
	}
	want := st.encTable()
	if obs.maxSize != want.maxSize {
		return fmt.Sprintf("MaxTableSize %d; model says %d", obs.maxSize, want.maxSize)
	}
	if d := diffTables("model", want.entries, "encoder", obs.encTable); d != "" {
		return "encoder table differs from the model: " + d
	}
	if obs.tableSize != want.size {
		return fmt.Sprintf("encoder TableSize %d; model says %d", obs.tableSize, want.size)
	}
	if obs.block {
		if p := obs.blockProblem(st.expect); p != "" {
			return p
		}
	}
	for _, d := range obs.decoded {
		if d.retired {
			continue
		}
		diff := diffTables("model", st.dec.entries, d.name, d.table)
		if diff != "" && !d.exact && diffTables("model", st.eagerDecTable().entries, d.name, d.table) == "" {
			diff = "" // evicted for an acked size before the block that signals it
		}
		if diff != "" {
			return fmt.Sprintf("decoder %s table differs from the model: %s", d.name, diff)
		}
		if d.exact && (d.tableLen != len(d.table) || d.size != st.dec.size || d.maxSize != st.dec.maxSize) {
			return fmt.Sprintf("decoder %s: TableLen %d, TableSize %d of %d; model says %d entries, size %d of %d", d.name, d.tableLen, d.size, d.maxSize, len(st.dec.entries), st.dec.size, st.dec.maxSize)
		}
	}
	return ""
}

// blockProblem checks one encoded block against what the model expects.
func (obs *observation) blockProblem(exp *blockExpect) string {
	for i := range obs.grew {
		if obs.grew[i] > obs.bound[i] {
			return fmt.Sprintf("field %d appended %d octets; MaxFieldLen promised at most %d", i, obs.grew[i], obs.bound[i])
		}
	}
	if !bytes.Equal(obs.wire, obs.twinWire) {
		return fmt.Sprintf("the encoder writes %s; a new encoder given the same calls since the connection started writes %s", hexShort(obs.wire), hexShort(obs.twinWire))
	}
	if len(exp.fields) == 0 {
		if len(obs.wire) != 0 {
			return fmt.Sprintf("no fields, but the encoder wrote %s", hexShort(obs.wire))
		}
		return ""
	}
	reps, err := walkBlock(obs.wire)
	if err != nil {
		return fmt.Sprintf("block %s: %v", hexShort(obs.wire), err)
	}
	plain := make([][2]string, len(exp.fields))
	for i, f := range exp.fields {
		plain[i] = [2]string{f.Name, f.Value}
	}
	if err := checkForm(reps, plain, obs.sys.cfg.Policy.Huffman); err != nil {
		return fmt.Sprintf("block %s: %v", hexShort(obs.wire), err)
	}
	i := 0
	for _, r := range reps {
		if r.kind == repSizeUpdate {
			continue
		}
		if r.kind != exp.kinds[i] {
			return fmt.Sprintf("block %s: field %d (%s) sent as %s; the policy says %s", hexShort(obs.wire), i, fieldString(exp.fields[i]), r.kind, exp.kinds[i])
		}
		if r.kind != repIndexed && (r.name == nil) != exp.byName[i] {
			return fmt.Sprintf("block %s: field %d (%s) sent as %s with name index %d; a table has the name: %v (names go by index whenever a table has them)", hexShort(obs.wire), i, fieldString(exp.fields[i]), r.kind, r.index.value, exp.byName[i])
		}
		i++
	}
	// Report the strict decoder's verdict first: it names the offset and
	// the RFC section.
	order := make([]int, len(obs.decoded))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return boolInt(obs.decoded[b].name == strict.Name) - boolInt(obs.decoded[a].name == strict.Name)
	})
	for _, i := range order {
		d := obs.decoded[i]
		switch {
		case d.retired:
			continue
		case d.err != nil && d.name == xnet.Name && exp.xnetRejects:
			// A documented rejection of a legal block: x/net sits out
			// the rest of this connection.
			obs.sys.retired[d.name] = true
			obs.decoded[i].retired = true
			continue
		case d.err != nil:
			return fmt.Sprintf("decoder %s rejects block %s: %v", d.name, hexShort(obs.wire), d.err)
		case !slices.Equal(d.fields, exp.fields):
			return fmt.Sprintf("decoder %s decodes block %s to %s; want %s", d.name, hexShort(obs.wire), fieldsString(d.fields), fieldsString(exp.fields))
		}
	}
	if !slices.Equal(obs.updates, exp.updates) {
		return fmt.Sprintf("block %s starts with size updates %v; want %v (RFC 7541 §4.2)", hexShort(obs.wire), obs.updates, exp.updates)
	}
	if len(obs.warnings) > 0 {
		return fmt.Sprintf("block %s: strict decoder warns: %v", hexShort(obs.wire), obs.warnings)
	}
	return ""
}
