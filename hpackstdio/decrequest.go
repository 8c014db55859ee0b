package hpackstdio

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// InitialTableSize is the SETTINGS_HEADER_TABLE_SIZE of a fresh context
// (RFC 9113 §6.5.2), and the table_size of a decode request without one.
const InitialTableSize = 4096

// decodeLine is the JSON form of a decode request. Every member is
// always written:
//
//   - wire is the header block in lowercase hex;
//   - table_size is the SETTINGS_HEADER_TABLE_SIZE in force for the
//     block: the last value the decoder's side advertised and the peer
//     acknowledged before it, 4096 until one is; it bounds the dynamic
//     table size updates of the block (RFC 7541 §4.2, §6.3);
//   - max_header_list is the SETTINGS_MAX_HEADER_LIST_SIZE in force for
//     the block, the largest header list (names, values and 32 octets a
//     field, RFC 9113 §6.5.2) the decoder may decode it to, 0 meaning
//     none was advertised: no limit.
//
// A decoder reading a request without table_size takes 4096, and
// without max_header_list no limit: the values of a fresh context.
type decodeLine struct {
	Op            string `json:"op"`
	Wire          string `json:"wire"`
	TableSize     uint32 `json:"table_size"`
	MaxHeaderList uint32 `json:"max_header_list"`
}

// marshalDecode returns a decode request as one line of JSON.
func (r Request) marshalDecode() ([]byte, error) {
	if r.Binary || len(r.TableSizes) > 0 || len(r.Fields) > 0 {
		return nil, fmt.Errorf("hpackstdio: a decode request carries no binary, table_sizes, headers or sensitive")
	}
	return marshalLine(decodeLine{Op: r.Op, Wire: hex.EncodeToString(r.Wire), TableSize: r.TableSize, MaxHeaderList: r.MaxHeaderList})
}

// parseDecode reads the members of a decode request into r: wire, hex
// digits (either case, two an octet), table_size and max_header_list,
// integers from 0 to 2^32-1, the two settings being 4096 and 0 when
// absent. With complete set, every member must be there and no other.
func (r *Request) parseDecode(members map[string]json.RawMessage, complete bool) error {
	if complete {
		if err := onlyMembers(members, OpDecode, "op", "wire", "table_size", "max_header_list"); err != nil {
			return err
		}
		for _, name := range []string{"table_size", "max_header_list"} {
			if _, ok := members[name]; !ok {
				return fmt.Errorf("the decode request has no %q", name)
			}
		}
	}
	raw, ok := members["wire"]
	if !ok {
		return fmt.Errorf(`the decode request has no "wire" (an empty block has "wire":"")`)
	}
	wire, err := decodeString(raw)
	if err != nil {
		return fmt.Errorf(`"wire": %v`, err)
	}
	if r.Wire, err = decodeHex(wire); err != nil {
		return fmt.Errorf(`"wire" is not hex: %v`, err)
	}
	r.TableSize = InitialTableSize
	for _, s := range []struct {
		name string
		to   *uint32
	}{{"table_size", &r.TableSize}, {"max_header_list", &r.MaxHeaderList}} {
		raw, ok := members[s.name]
		if !ok {
			continue
		}
		n, err := strconv.ParseUint(string(bytes.TrimSpace(raw)), 10, 32)
		if err != nil {
			return fmt.Errorf("%q is %s, not an integer from 0 to 4294967295", s.name, shorten(string(raw)))
		}
		*s.to = uint32(n)
	}
	return nil
}

// decodeHex returns the octets s spells in hex, two digits each, either
// case, or an error naming the first digit that is not hex or saying the
// count is odd.
func decodeHex(s string) ([]byte, error) {
	if at := strings.IndexFunc(s, func(r rune) bool { return !isHexDigit(r) }); at >= 0 {
		return nil, fmt.Errorf("a non-hex digit at offset %d", at)
	}
	if len(s)%2 != 0 {
		return nil, fmt.Errorf("an odd number of digits, %d", len(s))
	}
	return hex.DecodeString(s)
}
