package cli

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runtime"
)

// flakyTest is a test file added to an instance's test patch: it passes in
// about 3 runs of 10.
const flakyTest = `diff --git a/tests/test_flaky.py b/tests/test_flaky.py
new file mode 100644
--- /dev/null
+++ b/tests/test_flaky.py
@@ -0,0 +1,5 @@
+import random
+
+
+def test_sometimes():
+    assert random.random() < 0.3
`

// TestValidateFindsFlakyAndPassingAtBase validates a copy of the sample's
// two Python instances in which one has a flaky PASS_TO_PASS test and the
// other a FAIL_TO_PASS test that already passes at base (a PASS_TO_PASS id
// listed as FAIL_TO_PASS): both are reported and left out of the subset;
// the unmodified sample instances hold (the whole sample: see the report).
func TestValidateFindsFlakyAndPassingAtBase(t *testing.T) {
	if testing.Short() {
		t.Skip("runs pytest")
	}
	if l := runtime.NewLocal(t.Context(), runtime.LocalOptions{}); l.Refuses() {
		citest.Missing(t, "bubblewrap unavailable: %s", l.Note())
	}
	sample, _ := filepath.Abs("../../examples/polybench")
	f, err := os.Open(filepath.Join(sample, "dataset.csv"))
	if err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(f)
	rows, err := r.ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	dir := t.TempDir()
	out := [][]string{rows[0]}
	for _, row := range rows[1:] {
		switch row[col["instance_id"]] {
		case "tidyledger__ledgerkit-12": // FAIL_TO_PASS already passing at base
			p2p := strings.Trim(row[col["P2P"]], "[]")
			first := strings.TrimSpace(strings.Split(p2p, ",")[0])
			row[col["F2P"]] = strings.TrimSuffix(row[col["F2P"]], "]") + ", " + first + "]"
		case "tidyledger__ledgerkit-15": // a flaky test
			row[col["test_patch"]] += flakyTest
			row[col["P2P"]] = strings.TrimSuffix(row[col["P2P"]], "]") + ", 'tests/test_flaky.py:None:test_sometimes']"
		case "fieldnotes__csvkit4j-9": // unchanged: must hold
		default:
			continue
		}
		out = append(out, row)
	}
	ds := filepath.Join(dir, "dataset.csv")
	fw, _ := os.Create(ds)
	w := csv.NewWriter(fw)
	w.WriteAll(out)
	fw.Close()
	o := filepath.Join(dir, "val")
	stdout, stderr, code := runCLI(t, "validate", "--dataset", ds, "--repos-dir", filepath.Join(sample, "repos"),
		"--toolchain", filepath.Join(sample, "env"), "--out", o, "--runs", "4", "--workers", "2")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (some instances do not hold)\n%s\n%s", code, stdout, stderr)
	}
	var rep harness.ValidationReport
	b, err := os.ReadFile(filepath.Join(o, harness.ValidationFile))
	if err != nil || json.Unmarshal(b, &rep) != nil {
		t.Fatalf("validation.json: %v", err)
	}
	got := map[string]string{}
	for _, v := range rep.Instances {
		got[v.InstanceID] = v.Reason
		if v.Holds {
			got[v.InstanceID] = "holds"
		}
	}
	if got["fieldnotes__csvkit4j-9"] != "holds" {
		t.Errorf("csvkit4j-9: %s, want holds", got["fieldnotes__csvkit4j-9"])
	}
	if !strings.Contains(got["tidyledger__ledgerkit-12"], "already pass without the patch") {
		t.Errorf("ledgerkit-12: %q, want FAIL_TO_PASS passing without the patch", got["tidyledger__ledgerkit-12"])
	}
	if r := got["tidyledger__ledgerkit-15"]; r == "holds" || !(strings.Contains(r, "flaky") || strings.Contains(r, "never resolved") || strings.Contains(r, "PASS_TO_PASS")) {
		t.Errorf("ledgerkit-15: %q, want reported (flaky)", r)
	}
	sub, err := os.ReadFile(filepath.Join(o, "valid.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rs, _ := csv.NewReader(strings.NewReader(string(sub))).ReadAll()
	if len(rs) != 2 || rs[1][col["instance_id"]] != "fieldnotes__csvkit4j-9" {
		t.Errorf("subset has %d rows, want the header and fieldnotes__csvkit4j-9 only", len(rs))
	}
	if !strings.Contains(stdout, "1/3 instances hold") {
		t.Errorf("summary: %s", stdout)
	}
}
