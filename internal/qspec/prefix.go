package qspec

import (
	"fmt"

	"github.com/hpackcert/hpackcert/encoder"
)

// Prefix is the field section prefix (§4.5.1) as it stood on the wire:
// the encoded Required Insert Count and the signed Delta Base. Decoding
// them needs the decoder's state: see RequiredInsertCount and Base.
type Prefix struct {
	// EncodedInsertCount is the 8-bit-prefix integer of §4.5.1.1.
	EncodedInsertCount uint64
	// Sign is the S bit of §4.5.1.2: Base is below the Required Insert
	// Count.
	Sign bool
	// DeltaBase is the 7-bit-prefix integer after the sign bit.
	DeltaBase uint64
}

// MaxEntries returns the most entries a dynamic table of maxTableCapacity
// octets can hold, floor(maxTableCapacity / 32) (§4.5.1.1), where
// maxTableCapacity is the decoder's SETTINGS_QPACK_MAX_TABLE_CAPACITY.
func MaxEntries(maxTableCapacity uint64) uint64 {
	return maxTableCapacity / EntryOverhead
}

// EncodeInsertCount returns the EncodedInsertCount that carries
// requiredInsertCount (§4.5.1.1): 0 for 0, otherwise requiredInsertCount
// modulo 2*maxEntries, plus 1. maxEntries must be nonzero when
// requiredInsertCount is: no entry can be referenced in a table of
// capacity 0.
func EncodeInsertCount(requiredInsertCount, maxEntries uint64) uint64 {
	if requiredInsertCount == 0 {
		return 0
	}
	return requiredInsertCount%(2*maxEntries) + 1
}

// RequiredInsertCount decodes the prefix's Required Insert Count as
// §4.5.1.1 does, for a decoder whose table holds maxEntries (see
// MaxEntries) and has had totalInserts insertions. It returns an *Error at
// offset 0 for an EncodedInsertCount no conforming encoder could have
// produced, which the RFC makes a QPACK_DECOMPRESSION_FAILED.
func (pf Prefix) RequiredInsertCount(maxEntries, totalInserts uint64) (uint64, error) {
	encoded := pf.EncodedInsertCount
	if encoded == 0 {
		return 0, nil
	}
	fullRange := 2 * maxEntries
	if encoded > fullRange {
		return 0, &Error{Section: "§4.5.1.1", Reason: fmt.Sprintf("encoded Required Insert Count %d is above 2*MaxEntries = %d", encoded, fullRange)}
	}
	maxValue := totalInserts + maxEntries
	maxWrapped := maxValue / fullRange * fullRange
	required := maxWrapped + encoded - 1
	if required > maxValue {
		if required <= fullRange {
			return 0, &Error{Section: "§4.5.1.1", Reason: fmt.Sprintf("encoded Required Insert Count %d decodes to %d, above the %d inserts plus MaxEntries %d the decoder can accept", encoded, required, totalInserts, maxEntries)}
		}
		required -= fullRange
	}
	if required == 0 {
		return 0, &Error{Section: "§4.5.1.1", Reason: fmt.Sprintf("encoded Required Insert Count %d decodes to 0, which is encoded only as 0", encoded)}
	}
	return required, nil
}

// Base computes the prefix's Base from the decoded Required Insert Count
// (§4.5.1.2): requiredInsertCount + DeltaBase, or with the sign bit
// requiredInsertCount - DeltaBase - 1. It returns an *Error at offset 1,
// the octet of the sign bit, for a Base below 0 or above 2^62-1.
func (pf Prefix) Base(requiredInsertCount uint64) (uint64, error) {
	if !pf.Sign {
		if pf.DeltaBase > MaxInt-requiredInsertCount {
			return 0, &Error{Offset: 1, Section: "§4.5.1.2", Reason: fmt.Sprintf("Base %d + %d is above 2^62-1", requiredInsertCount, pf.DeltaBase)}
		}
		return requiredInsertCount + pf.DeltaBase, nil
	}
	if pf.DeltaBase >= requiredInsertCount {
		return 0, &Error{Offset: 1, Section: "§4.5.1.2", Reason: fmt.Sprintf("negative Base: Required Insert Count %d - Delta Base %d - 1", requiredInsertCount, pf.DeltaBase)}
	}
	return requiredInsertCount - pf.DeltaBase - 1, nil
}

// ReadPrefix reads the field section prefix at the start of section
// (§4.5.1) and returns it with the offset of the first field line.
func ReadPrefix(section []byte) (Prefix, int, error) {
	var pf Prefix
	var p int
	var err error
	if pf.EncodedInsertCount, p, err = readInt(section, 0, 8, "§4.5.1.1"); err != nil {
		return pf, 0, err
	}
	if p >= len(section) {
		return pf, 0, &Error{Offset: p, Section: "§4.5.1.2", Reason: "field section ends before the Base"}
	}
	pf.Sign = section[p]&0x80 != 0
	if pf.DeltaBase, p, err = readInt(section, p, 7, "§4.5.1.2"); err != nil {
		return pf, 0, err
	}
	return pf, p, nil
}

// AppendPrefix appends the field section prefix of a section with the
// given Required Insert Count and Base (§4.5.1) for a decoder whose table
// holds maxEntries, and returns the extended buffer. The Base is written
// with the sign bit when it is below the Required Insert Count.
func AppendPrefix(dst []byte, requiredInsertCount, base, maxEntries uint64) []byte {
	dst = encoder.AppendInteger(dst, 0, 8, EncodeInsertCount(requiredInsertCount, maxEntries))
	if base < requiredInsertCount {
		return encoder.AppendInteger(dst, 0x80, 7, requiredInsertCount-base-1)
	}
	return encoder.AppendInteger(dst, 0, 7, base-requiredInsertCount)
}
