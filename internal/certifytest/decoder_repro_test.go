package certifytest

import (
	"os"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/broken"
)

// TestDecoderRepro writes the reproduction of a decoder's failure
// (DecoderOptions.ReproDir) and replays it (certify.ReplayDecoder): the
// bug fails the case again on the file's blocks alone, the sound decoder
// passes them. dec/7.3/1's reproduction keeps its header-list limit.
func TestDecoderRepro(t *testing.T) {
	for _, tc := range []struct {
		id  string
		bug broken.DecoderBugs
	}{
		{"dec/7.1.3/1", broken.LoseNeverIndexed},
		{"dec/7.3/1", broken.IgnoreListLimit},
		{"dec/6.2.1/1", broken.DynamicIndexOffByOne},
	} {
		t.Run(tc.id, func(t *testing.T) {
			dir := t.TempDir()
			bad := broken.NewDecoderTarget(tc.bug)
			opts := certify.DecoderOptions{Cases: []string{tc.id}, TrafficStories: 1, TrafficBlocks: 10, Generated: 1, ReproDir: dir}
			rep, err := certify.RunDecoders([]certify.DecoderTarget{bad}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if res := rep.Results[bad.Name()][tc.id]; res.Grade != certify.Fail {
				t.Fatalf("%s: %v %q; want fail", tc.id, res.Grade, res.Detail)
			}
			if rep.Repro == nil || rep.Repro.Files != 1 || rep.Repro.Dir != dir {
				t.Fatalf("report's reproductions %+v; want 1 file in %s", rep.Repro, dir)
			}
			path := certify.ReproPath(dir, bad.Name(), tc.id)
			if _, err := os.Stat(path); err != nil {
				t.Fatal(err)
			}
			replay := certify.DecoderOptions{Cases: []string{tc.id}}
			again, err := certify.ReplayDecoder(bad, path, replay)
			if err != nil {
				t.Fatal(err)
			}
			if res := again.Results[bad.Name()][tc.id]; res.Grade != certify.Fail {
				t.Errorf("replayed on the bug: %v %q; want fail", res.Grade, res.Detail)
			}
			sound := broken.NewDecoderTarget(0)
			fixed, err := certify.ReplayDecoder(sound, path, replay)
			if err != nil {
				t.Fatal(err)
			}
			if res := fixed.Results[sound.Name()][tc.id]; res.Grade != certify.Pass {
				t.Errorf("replayed on the sound decoder: %v %q; want pass", res.Grade, res.Detail)
			}
		})
	}
}
