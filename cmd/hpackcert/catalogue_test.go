package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/source/live/targets"
)

// TestTargetsCommand reads the catalogue as ci/live.sh reads it: the TSV
// has the documented header and one line per target of live's catalogue,
// in its order, with its role, package and program ("-" for none); the
// JSON holds the same entries; an unknown format is a usage error.
func TestTargetsCommand(t *testing.T) {
	status, out, stderr := runCLI(t, "targets")
	if status != 0 || stderr != "" {
		t.Fatalf("targets: exit %d, stderr %q", status, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if lines[0] != "name\trole\tpackage\tprogram\th2c-origin\tdecoder" {
		t.Errorf("header %q", lines[0])
	}
	all := targets.Targets()
	if len(lines) != len(all)+1 {
		t.Fatalf("%d lines; want the header and %d targets:\n%s", len(lines), len(all), out)
	}
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	for i, spec := range all {
		f := strings.Split(lines[i+1], "\t")
		if len(f) != 6 || f[0] != spec.Name || f[1] != spec.Role || f[2] != dash(spec.Package) || f[3] != dash(spec.Binary) {
			t.Errorf("line %d = %q; want %s, %s, %s, %s", i+2, f, spec.Name, spec.Role, dash(spec.Package), dash(spec.Binary))
		}
		if want := map[bool]string{true: "yes", false: "no"}[spec.H2COrigin]; len(f) == 6 && f[4] != want {
			t.Errorf("%s: h2c-origin %q; want %q", spec.Name, f[4], want)
		}
	}
	for _, want := range []string{"nginx\tproxy\tnginx-light\tnginx\tno\tyes", "nghttpx\tproxy\tnghttp2-proxy\tnghttpx\tyes\tyes", "curl\tclient\tcurl\tcurl\tno\tno"} {
		if !strings.Contains(out, "\n"+want+"\n") {
			t.Errorf("no line %q:\n%s", want, out)
		}
	}
	status, out, _ = runCLI(t, "targets", "--format", "json")
	var entries []catalogueEntry
	if err := json.Unmarshal([]byte(out), &entries); status != 0 || err != nil {
		t.Fatalf("targets --format json: exit %d, %v\n%s", status, err, out)
	}
	if !reflect.DeepEqual(entries, catalogue()) || len(entries) != len(all) {
		t.Errorf("the JSON holds %d entries, not the catalogue's %d:\n%s", len(entries), len(all), out)
	}
	if status, _, stderr := runCLI(t, "targets", "--format", "csv"); status != 2 || !strings.Contains(stderr, `--format "csv": want tsv or json`) {
		t.Errorf("targets --format csv: exit %d, %q; want 2 naming the format", status, stderr)
	}
}
