package cli

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runrecord"
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
	if l := probeLocal(t); l.Refuses() {
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

// coinTest is a test file added to an instance's test patch: it passes in
// about half of the runs.
const coinTest = `diff --git a/tests/test_coin.py b/tests/test_coin.py
new file mode 100644
--- /dev/null
+++ b/tests/test_coin.py
@@ -0,0 +1,5 @@
+import os
+
+
+def test_coin():
+    assert os.urandom(1)[0] < 128
`

// TestValidateRunsFiveReportsFlakyTest validates, with --runs 5, a copy of
// the sample's two Python instances in which one has one flaky
// PASS_TO_PASS test (it passes in half of the runs): validate names that
// test with its pass count, says the instance's verdict is not stable and
// leaves it out of the written subset, and the other instance holds. The
// test's outcomes are random: when all five runs happened to agree (1 in
// 16), nothing was flaky to see and validate runs again (at most three
// times), each time checked against the records.
func TestValidateRunsFiveReportsFlakyTest(t *testing.T) {
	if testing.Short() {
		t.Skip("runs pytest")
	}
	if l := probeLocal(t); l.Refuses() {
		citest.Missing(t, "bubblewrap unavailable: %s", l.Note())
	}
	const flakyID, coin = "tidyledger__ledgerkit-15", "tests/test_coin.py:None:test_coin"
	sample, _ := filepath.Abs("../../examples/polybench")
	f, err := os.Open(filepath.Join(sample, "dataset.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
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
		case flakyID:
			row[col["test_patch"]] += coinTest
			row[col["P2P"]] = strings.TrimSuffix(row[col["P2P"]], "]") + ", '" + coin + "']"
		case "tidyledger__ledgerkit-12":
		default:
			continue
		}
		out = append(out, row)
	}
	ds := filepath.Join(dir, "dataset.csv")
	fw, _ := os.Create(ds)
	w := csv.NewWriter(fw)
	w.WriteAll(out)
	w.Flush()
	fw.Close()
	for attempt := 1; ; attempt++ {
		o := filepath.Join(dir, fmt.Sprintf("val%d", attempt))
		stdout, stderr, code := runCLI(t, "validate", "--dataset", ds, "--repos-dir", filepath.Join(sample, "repos"),
			"--out", o, "--runs", "5", "--workers", "2")
		// What the gold runs' records say of the coin test.
		recs, err := runrecord.LoadRecords(o)
		if err != nil {
			t.Fatal(err)
		}
		passed, failed := 0, 0
		for _, r := range recs {
			if r.Model != harness.ValidationGold || r.InstanceID != flakyID {
				continue
			}
			p2p := r.Verdicts.Strict.PassToPass
			if slices.Contains(p2p.Success, coin) {
				passed++
			}
			if slices.Contains(p2p.Failure, coin) {
				failed++
			}
		}
		if passed+failed != 5 {
			t.Fatalf("the coin test ran %d times in 5 gold runs\n%s\n%s", passed+failed, stdout, stderr)
		}
		if passed == 0 || failed == 0 {
			if attempt == 3 {
				t.Fatalf("the coin test gave the same outcome in all 5 runs three times over")
			}
			t.Logf("attempt %d: the coin test passed %d of 5 runs: nothing flaky to see, again", attempt, passed)
			continue
		}
		if code != 1 {
			t.Fatalf("exit %d, want 1 (an instance does not hold)\n%s\n%s", code, stdout, stderr)
		}
		var rep harness.ValidationReport
		b, err := os.ReadFile(filepath.Join(o, harness.ValidationFile))
		if err != nil || json.Unmarshal(b, &rep) != nil {
			t.Fatalf("validation.json: %v", err)
		}
		for _, v := range rep.Instances {
			switch v.InstanceID {
			case flakyID:
				if v.Holds || len(v.FlakyTests) != 1 || v.FlakyTests[0].Test != coin || v.FlakyTests[0].List != "PASS_TO_PASS" ||
					v.FlakyTests[0].Passed != passed || v.FlakyTests[0].Failed != failed || v.VerdictStable || !strings.Contains(v.Reason, "1 flaky test(s)") {
					t.Errorf("%s: holds %v, stable %v, flaky %+v, reason %q; want the coin test, passed %d of 5", v.InstanceID, v.Holds, v.VerdictStable, v.FlakyTests, v.Reason, passed)
				}
			default:
				if !v.Holds || len(v.FlakyTests) != 0 || !v.VerdictStable {
					t.Errorf("%s: holds %v, flaky %+v: %s", v.InstanceID, v.Holds, v.FlakyTests, v.Reason)
				}
			}
		}
		want := fmt.Sprintf("flaky PASS_TO_PASS %s: passed %d of 5 gold runs", coin, passed)
		if !strings.Contains(stdout, want) || !strings.Contains(stdout, "1/2 instances hold") {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
		sub, err := os.ReadFile(filepath.Join(o, "valid.csv"))
		if err != nil {
			t.Fatal(err)
		}
		rs, _ := csv.NewReader(strings.NewReader(string(sub))).ReadAll()
		if len(rs) != 2 || rs[1][col["instance_id"]] != "tidyledger__ledgerkit-12" {
			t.Errorf("subset has %d rows, want the header and tidyledger__ledgerkit-12 only", len(rs))
		}
		t.Logf("validate --runs 5 (attempt %d):\n%s", attempt, stdout)
		return
	}
}
