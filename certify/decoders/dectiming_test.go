package decoders

import (
	"math"
	"runtime"
	"strings"
	"testing"
	"time"
)

// memoDecoder decodes as the strict decoder does, each distinct block
// once (a later one of the same octets is looked up in memo, shared by
// the contexts of a target), and then does work(len(block)): what it
// costs is then work's growth, and next to nothing else.
type memoDecoder struct {
	Decoder
	memo map[string][]Field
	work func(n int)
}

func (d *memoDecoder) DecodeBlock(b []byte) ([]Field, error) {
	fields, ok := d.memo[string(b)]
	if !ok {
		var err error
		if fields, err = d.Decoder.DecodeBlock(b); err != nil {
			return nil, err
		}
		d.memo[string(b)] = fields
	}
	d.work(len(b))
	return fields, nil
}

// memoDecoders returns a constructor of memoDecoder contexts doing work.
func memoDecoders(work func(n int)) func() Decoder {
	memo := map[string][]Field{}
	return func() Decoder { return &memoDecoder{Decoder: newStrictDecoder(), memo: memo, work: work} }
}

// burnSink keeps burn's result, so that the compiler keeps its loop.
var burnSink uint64

// burnSquare spends CPU time in proportion to (n/16)², a quadratic
// decoder's work: 12.7M steps of a linear congruential generator for
// the 40000-octet string's 57000 octets of wire.
func burnSquare(n int) {
	x := uint64(n)
	for i := 0; i < (n/16)*(n/16); i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	burnSink += x
}

// sleepSquare waits (n/8)² nanoseconds, 51 ms for the 40000-octet
// string, without using the CPU: a decoder whose wall time grows as a
// quadratic one's and whose work does not.
func sleepSquare(n int) {
	time.Sleep(time.Duration((n / 8) * (n / 8)))
}

// programDecoder poses as a decoder program whose CPU time is a clock the
// test keeps: each block decoded adds cost(n), n the length of its
// decoded string, to the clock its target's contexts share.
type programDecoder struct {
	Decoder
	clock *time.Duration
	known bool
	cost  func(n int) time.Duration
}

func (d *programDecoder) DecodeBlock(b []byte) ([]Field, error) {
	fields, err := d.Decoder.DecodeBlock(b)
	if err == nil && len(fields) == 1 {
		*d.clock += d.cost(len(fields[0].Value))
	}
	return fields, err
}

func (d *programDecoder) CPUTime() (time.Duration, bool) { return *d.clock, d.known }

// programDecoders returns a constructor of programDecoder contexts
// around inner whose CPU time is known or not, and grows by cost.
func programDecoders(inner func() Decoder, known bool, cost func(n int) time.Duration) func() Decoder {
	var clock time.Duration
	return func() Decoder { return &programDecoder{Decoder: inner(), clock: &clock, known: known, cost: cost} }
}

// growth returns a cost of 10 µs times (n/2500)^exp: growth(1) is
// linear, growth(2) quadratic.
func growth(exp float64) func(n int) time.Duration {
	return func(n int) time.Duration {
		return time.Duration(float64(10*time.Microsecond) * math.Pow(float64(n)/float64(timingSizes[0]), exp))
	}
}

// TestTimingGrades grades dec/7.3/2 for decoders whose cost, and how it
// can be read, are known: a quadratic decoder is non-strict only where
// its CPU time is read; one whose wall time grows quadratic while its
// work does not passes; figures that prove neither are inconclusive,
// info, never non-strict. Grades only are asserted, never times.
func TestTimingGrades(t *testing.T) {
	tests := []struct {
		name, kind string
		decoders   func() Decoder
		want       Grade
		why        string
	}{
		{"linear", "in-process", newStrictDecoder, Pass,
			"the strict decoder is linear"},
		{"quadratic work", "in-process", memoDecoders(burnSquare), NonStrict,
			"quadratic CPU time of the decoding thread is proof"},
		{"quadratic sleep", "in-process", memoDecoders(sleepSquare), Pass,
			"the thread's CPU time does not count waiting; its work is linear"},
		{"quadratic work, wall time", "live", memoDecoders(burnSquare), Info,
			"wall time cannot tell the decoder's work from the machine's load"},
		{"program, quadratic", "stdio", programDecoders(newStrictDecoder, true, growth(2)), NonStrict,
			"the program's CPU time grows quadratic"},
		{"program, linear, quadratic sleep", "stdio", programDecoders(memoDecoders(sleepSquare), true, growth(1)), Pass,
			"the program's CPU time grows linearly, whatever its wall time"},
		{"program, n^1.6", "stdio", programDecoders(newStrictDecoder, true, growth(1.6)), Info,
			"80 times longer is neither linear nor proof of quadratic"},
		{"program, one size slow", "stdio", programDecoders(newStrictDecoder, true, func(n int) time.Duration {
			if n == timingSizes[len(timingSizes)-1] {
				return growth(2)(n)
			}
			return growth(1)(n)
		}), Info, "the middle size grows linearly: the growth is no quadratic fit"},
		{"program, CPU time unknown", "stdio", programDecoders(memoDecoders(burnSquare), false, growth(2)), Info,
			"without the program's CPU time, only wall time is left"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.want
			if runtime.GOOS != "linux" && tt.kind == "in-process" && tt.name != "linear" {
				// The thread's CPU time is read only on Linux: elsewhere
				// a Go decoder is timed in wall time.
				want = Info
			}
			target := asKind(DecoderFunc("timed", tt.decoders), tt.kind)
			rep, err := runDecoders([]DecoderTarget{target}, DecoderOptions{Cases: []string{"dec/7.3/2"}})
			if err != nil {
				t.Fatal(err)
			}
			res := rep.Results["timed"]["dec/7.3/2"]
			t.Logf("%s: %s", res.Grade, res.Detail)
			if res.Grade != want {
				t.Errorf("%s %q; want %s: %s", res.Grade, res.Detail, want, tt.why)
			}
			if want == Info && !strings.HasPrefix(res.Detail, "inconclusive") {
				t.Errorf("detail %q; want it to say inconclusive", res.Detail)
			}
			if res.Evidence.Blocks != timingRounds*timingPasses*len(timingSizes) {
				t.Errorf("%d blocks judged; want %d", res.Evidence.Blocks, timingRounds*timingPasses*len(timingSizes))
			}
		})
	}
}
