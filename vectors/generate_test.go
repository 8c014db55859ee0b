package vectors

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite testdata/generated from GenerateStories")

// generatedCount is the number of stories checked in under
// testdata/generated.
const generatedCount = 8

func generatedPath(i int) string {
	return filepath.Join("testdata", "generated", fmt.Sprintf("story_%02d.json", i))
}

func TestGeneratedStoriesGolden(t *testing.T) {
	stories := GenerateStories(GeneratedSeed, generatedCount)
	if *update {
		if err := os.MkdirAll(filepath.Join("testdata", "generated"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	total := 0
	for i, s := range stories {
		path := generatedPath(i)
		got, err := encodeStory(path, s)
		if err != nil {
			t.Fatalf("story %d: %v", i, err)
		}
		total += len(got)
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./vectors -update)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from GenerateStories(%d, %d) at line %d; run go test ./vectors -update if the change is intended",
				path, GeneratedSeed, generatedCount, firstDifferentLine(got, want))
		}
	}
	if total > 500<<10 {
		t.Errorf("generated stories take %d octets; keep them under 500 KiB", total)
	}
	files, err := filepath.Glob(filepath.Join("testdata", "generated", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != generatedCount {
		t.Errorf("testdata/generated holds %d stories; want %d", len(files), generatedCount)
	}
	read, err := ReadStoryDir(filepath.Join("testdata", "generated"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range min(len(read), len(stories)) {
		want := *stories[i]
		want.Path = read[i].Path
		if !reflect.DeepEqual(read[i], &want) {
			t.Errorf("%s reads back different from the generated story", read[i].Path)
		}
	}
}

func firstDifferentLine(a, b []byte) int {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}

func TestGenerateStoriesDeterministic(t *testing.T) {
	a, b := GenerateStories(1, 3), GenerateStories(1, 3)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("GenerateStories(1, 3) gave different stories on two calls")
	}
	if c := GenerateStories(2, 3); reflect.DeepEqual(a, c) {
		t.Errorf("GenerateStories gave the same stories for seeds 1 and 2")
	}
	if got := GenerateStories(1, 0); len(got) != 0 {
		t.Errorf("GenerateStories(1, 0) returned %d stories; want 0", len(got))
	}
	more := GenerateStories(1, 10)
	if len(more) != 10 {
		t.Fatalf("GenerateStories(1, 10) returned %d stories; want 10", len(more))
	}
	if !reflect.DeepEqual(more[:3], a) {
		t.Errorf("the first stories depend on n")
	}
	if reflect.DeepEqual(more[8].Cases, more[0].Cases) {
		t.Errorf("story 8 repeats story 0 instead of drawing new cases on the same theme")
	}
}

// TestGeneratedStoriesCoverage checks that the checked-in set exercises what
// it promises, so that a change to the generator cannot quietly drop a
// feature.
func TestGeneratedStoriesCoverage(t *testing.T) {
	stories := GenerateStories(GeneratedSeed, generatedCount)
	found := map[string]bool{}
	nameOctets, valueOctets := map[byte]bool{}, map[byte]bool{}
	contexts := map[string]bool{}
	for si, s := range stories {
		contexts[s.Context] = true
		if n := len(s.Cases); n < 50 || n > 200 {
			t.Errorf("story %d has %d cases; want 50-200", si, n)
		}
		table := uint32(defaultTableSize)
		sentSensitive := map[Field]bool{}
		sentPlain := map[Field]bool{}
		for ci, c := range s.Cases {
			if c.Seqno != ci {
				t.Errorf("story %d case %d has seqno %d", si, ci, c.Seqno)
			}
			if c.Wire != nil {
				t.Errorf("story %d case %d has a wire", si, ci)
			}
			acked := c.AckedSizes()
			if len(acked) > 0 {
				minSize := acked[0]
				for _, n := range acked {
					minSize = min(minSize, n)
					found["size 0"] = found["size 0"] || n == 0
					found["size above 4096"] = found["size above 4096"] || n > 4096
				}
				found["several sizes at once"] = found["several sizes at once"] || len(acked) > 1
				found["down then up"] = found["down then up"] || (len(acked) > 1 && minSize < acked[len(acked)-1])
				table = min(acked[len(acked)-1], defaultTableSize)
			}
			counts := map[Field]int{}
			var listSize uint32
			for hi, sent := range c.Headers {
				// Fields are counted by name and value, whatever their flag.
				h := Field{Name: sent.Name, Value: sent.Value}
				if !utf8.ValidString(h.Name) || !utf8.ValidString(h.Value) {
					t.Fatalf("story %d case %d header %d is not valid UTF-8", si, ci, hi)
				}
				for _, b := range []byte(h.Name) {
					nameOctets[b] = true
				}
				for _, b := range []byte(h.Value) {
					valueOctets[b] = true
				}
				entry := uint32(len(h.Name)+len(h.Value)) + 32
				listSize += entry
				found["empty name"] = found["empty name"] || h.Name == ""
				found["empty value"] = found["empty value"] || h.Value == ""
				found["empty name and value"] = found["empty name and value"] || h == Field{}
				found["entry above 4096"] = found["entry above 4096"] || entry > 4096
				found["entry above a smaller table"] = found["entry above a smaller table"] || (table < 4096 && entry > table)
				found["entry equal to the table"] = found["entry equal to the table"] || entry == table
				found["entry over 3/4 of the table"] = found["entry over 3/4 of the table"] || (4*entry > 3*table && entry < table)
				counts[h]++
				if sent.Sensitive {
					sentSensitive[h] = true
				} else {
					sentPlain[h] = true
				}
			}
			if listSize > 64<<10 {
				t.Errorf("story %d case %d: header list of %d octets exceeds the 64 KiB a strict decoder allows", si, ci, listSize)
			}
			for _, n := range counts {
				found["20 duplicates in a block"] = found["20 duplicates in a block"] || n >= 20
			}
			if ci > 0 && reflect.DeepEqual(c.Headers, s.Cases[ci-1].Headers) {
				found["a block repeated"] = true
			}
		}
		for h := range sentSensitive {
			found["sensitive"] = true
			if sentPlain[h] {
				found["same field sensitive and not"] = true
			}
		}
	}
	for _, want := range []string{
		"size 0", "size above 4096", "several sizes at once", "down then up",
		"empty name", "empty value", "empty name and value",
		"entry above 4096", "entry above a smaller table", "entry equal to the table", "entry over 3/4 of the table",
		"20 duplicates in a block", "a block repeated", "sensitive", "same field sensitive and not",
	} {
		if !found[want] {
			t.Errorf("no generated story has %s", want)
		}
	}
	if !contexts["request"] || !contexts["response"] {
		t.Errorf("contexts %v; want both request and response", contexts)
	}
	for _, octets := range []struct {
		where string
		seen  map[byte]bool
	}{{"names", nameOctets}, {"values", valueOctets}} {
		for b := 0; b < 256; b++ {
			allowed := b < 0xc0 || (b >= 0xc2 && b <= 0xf4) // octets valid UTF-8 may contain
			if octets.seen[byte(b)] != allowed {
				t.Errorf("octet %#02x in %s: present = %v; valid UTF-8 allows it = %v", b, octets.where, octets.seen[byte(b)], allowed)
			}
		}
	}
}
