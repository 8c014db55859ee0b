package qdecoders

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hpackcert/hpackcert/internal/qspec"
)

// decoderOut is what a decoder wrote on its decoder stream for one step,
// read by meaning (§4.4): a decoder may coalesce increments or order its
// instructions otherwise than the strict decoder, so octets are not
// compared.
type decoderOut struct {
	acks, cancels []uint64 // the streams, in the order written
	increments    []uint64
}

// readDecoderStream reads the whole instructions of pending+data and
// returns them with the octets of an instruction not yet whole. A
// malformed instruction is an error; an Insert Count Increment of 0 is
// one (qspec reports it so), and badIncrement says it is that.
func readDecoderStream(pending, data []byte) (out decoderOut, rest []byte, badIncrement bool, err error) {
	buf := append(pending, data...)
	p := 0
	for p < len(buf) {
		in, next, err := qspec.ReadDecoderInstruction(buf, p)
		if errors.Is(err, qspec.ErrIncomplete) {
			break
		}
		if err != nil {
			return out, nil, buf[p]&0xc0 == 0, err
		}
		switch in.Kind {
		case qspec.SectionAck:
			out.acks = append(out.acks, in.Value)
		case qspec.StreamCancel:
			out.cancels = append(out.cancels, in.Value)
		case qspec.InsertCountIncrement:
			out.increments = append(out.increments, in.Value)
		}
		p = next
	}
	return out, append([]byte(nil), buf[p:]...), false, nil
}

// sameStreams compares two lists of streams as multisets and says how
// they differ, "" when they do not.
func sameStreams(what string, want, got []uint64) string {
	w, g := slices.Clone(want), slices.Clone(got)
	slices.Sort(w)
	slices.Sort(g)
	if slices.Equal(w, g) {
		return ""
	}
	return fmt.Sprintf("%s for streams %s, expected %s", what, streamList(g), streamList(w))
}

func streamList(s []uint64) string {
	if len(s) == 0 {
		return "none"
	}
	parts := make([]string, len(s))
	for i, v := range s {
		parts[i] = fmt.Sprint(v)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// knownCount follows the Known Received Count an encoder learns from a
// decoder's instructions (§2.1.4): an acknowledgement raises it to the
// Required Insert Count of the stream's oldest section not yet
// acknowledged, an increment adds to it.
type knownCount struct {
	count uint64
	// owed holds, per stream, the Required Insert Counts of the
	// sections with dynamic references the decoder got, oldest first.
	owed map[uint64][]uint64
}

func (k *knownCount) section(stream, ric uint64) {
	if ric == 0 {
		return
	}
	if k.owed == nil {
		k.owed = map[uint64][]uint64{}
	}
	k.owed[stream] = append(k.owed[stream], ric)
}

func (k *knownCount) apply(o decoderOut) {
	for _, s := range o.acks {
		if q := k.owed[s]; len(q) > 0 {
			k.count = max(k.count, q[0])
			k.owed[s] = q[1:]
		}
	}
	for _, s := range o.cancels {
		delete(k.owed, s)
	}
	for _, n := range o.increments {
		k.count += n
	}
}
