package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/report"
)

// TestCompareNFISampleByHand compares the two made-up agents of the
// bundled SWE-NFI sample (examples/nfi) and checks the numbers against
// values worked out by hand from examples/nfi/src/predictions.tsv:
//
// A run is functionally correct unless its variant is empty, broken or
// failing. agent-alpha fails 2 of 36 runs (config-errors run 2 "failing",
// geometry-style run 0 "empty"); agent-beta fails 14 (textkit-docs 0-2,
// payments-errors 0-2, retry-errors 1, feeds-modernize 0-2,
// geometry-style 2, graph-logic 0-2). No run fails for both, so the
// discordant pairs are b = 14 (alpha only) and c = 2 (beta only), and
// McNemar's exact two-sided p = 2·(C(16,0)+C(16,1)+C(16,2))/2^16 =
// 2·137/65536 = 274/65536.
//
// Wilson 95% intervals (z = 1.959964): 34/36 → [0.818553, 0.984630];
// 22/36 → [0.448645, 0.752151].
//
// Paired LIB difference (beta − alpha) over the 20 (task, run) pairs both
// solve: archive-pathlib (ledgerly__reports-140, human LIB +1/22) runs 0
// and 2 are gold for alpha and unchanged ("none") for beta: −1/22 each;
// every other pair has the same LIB result on both sides (gold/gold,
// none/none, or a task whose human change leaves LIB alone), so the mean
// is −2/22/20 = −1/220.
//
// The 36 pairs are 12 tasks × 3 runs, and runs of one task are not
// independent: McNemar's p above treats them as if they were (the trial of
// main b721a94 found it anti-conservative), so compare also pairs tasks.
// Resolved runs per task, alpha vs beta: textkit-docs 3 vs 0,
// payments-errors 3 vs 0, retry-errors (taskq__jobs-94) 3 vs 2,
// feeds-modernize 3 vs 0, graph-logic 3 vs 0: alpha better on 5 tasks;
// config-errors (deployd__settings-212) 2 vs 3: beta better on 1;
// geometry-style (plotlab__shapes-77) 2 vs 2 and the 5 other tasks 3 vs 3
// tie. The clustered exact sign test: p = 2·(C(6,0)+C(6,1))/2^6 =
// 2·7/64 = 14/64 = 0.21875, far from the 0.004181 of the 36 pairs.
func TestCompareNFISampleByHand(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs 72 pytest sessions")
	}
	out := nfiSampleRun(t)
	// Two agents in one run need the choice.
	if _, stderr, code := runCLI(t, "compare", out, out); code != ExitUsage || !strings.Contains(stderr, "--model-a") {
		t.Errorf("compare without --model-a: exit %d\n%s", code, stderr)
	}
	stdout, stderr, code := runCLI(t, "compare", out, out, "--model-a", "agent-alpha", "--model-b", "agent-beta", "--format", "json")
	if code != ExitOK {
		t.Fatalf("compare: exit %d\n%s", code, stderr)
	}
	var c report.Comparison
	if err := json.Unmarshal([]byte(stdout), &c); err != nil {
		t.Fatal(err)
	}
	if c.A.Resolved != 34 || c.A.Units != 36 || c.B.Resolved != 22 || c.B.Units != 36 || c.Paired != 36 {
		t.Errorf("sides %+v %+v paired %d", c.A, c.B, c.Paired)
	}
	wantOnlyA := []string{"netkit__graphs-318#0", "netkit__graphs-318#1", "netkit__graphs-318#2", "newsroom__feeds-512#0", "newsroom__feeds-512#1",
		"newsroom__feeds-512#2", "plotlab__shapes-77#2", "shopcore__payments-388#0", "shopcore__payments-388#1", "shopcore__payments-388#2",
		"taskq__jobs-94#1", "wordsmith__textkit-57#0", "wordsmith__textkit-57#1", "wordsmith__textkit-57#2"}
	wantOnlyB := []string{"deployd__settings-212#2", "plotlab__shapes-77#0"}
	if !slices.Equal(c.OnlyA, wantOnlyA) || !slices.Equal(c.OnlyB, wantOnlyB) {
		t.Errorf("flips: A only %v, B only %v", c.OnlyA, c.OnlyB)
	}
	near := func(got, want float64) bool { return math.Abs(got-want) < 5e-7 }
	if !near(c.McNemarP, 274.0/65536) {
		t.Errorf("McNemar p = %v, want 274/65536 = %v", c.McNemarP, 274.0/65536)
	}
	if !near(c.A.CI.Lo, 0.818553) || !near(c.A.CI.Hi, 0.984630) || !near(c.B.CI.Lo, 0.448645) || !near(c.B.CI.Hi, 0.752151) {
		t.Errorf("Wilson intervals A %+v B %+v", c.A.CI, c.B.CI)
	}
	if c.PairedUnit != "(instance, run)" || !c.RepeatedRuns || c.Instances != 12 {
		t.Errorf("paired unit %q, repeated %v, instances %d; want (instance, run), true, 12", c.PairedUnit, c.RepeatedRuns, c.Instances)
	}
	wantABetter := []string{"netkit__graphs-318", "newsroom__feeds-512", "shopcore__payments-388", "taskq__jobs-94", "wordsmith__textkit-57"}
	aBetter := slices.Clone(c.InstancesABetter)
	slices.Sort(aBetter)
	if !slices.Equal(aBetter, wantABetter) || !slices.Equal(c.InstancesBBetter, []string{"deployd__settings-212"}) {
		t.Errorf("clustered: A better on %v, B better on %v", c.InstancesABetter, c.InstancesBBetter)
	}
	if !near(c.ClusteredP, 14.0/64) {
		t.Errorf("clustered sign test p = %v, want 14/64 = 0.21875", c.ClusteredP)
	}
	// The cluster bootstrap intervals of the rates hold the rates.
	for _, s := range []report.CompareSide{c.A, c.B} {
		if !s.ClusterCI.OK || s.ClusterCI.Lo > s.Rate || s.ClusterCI.Hi < s.Rate || s.Instances != 12 {
			t.Errorf("%s: cluster interval %+v does not hold %v (instances %d)", s.Label, s.ClusterCI, s.Rate, s.Instances)
		}
	}
	lib := c.Aspects[2]
	if lib.Aspect != "LIB" || lib.N != 20 || !near(lib.Diff, -1.0/220) {
		t.Errorf("LIB paired difference %+v, want n 20, mean -1/220", lib)
	}
	// The paired bootstrap interval holds the mean and is reproducible.
	for _, d := range c.Aspects {
		if d.N > 0 && (!d.CI.OK || d.CI.Lo > d.Diff+1e-12 || d.CI.Hi < d.Diff-1e-12) {
			t.Errorf("%s: interval %+v does not hold the mean %v", d.Aspect, d.CI, d.Diff)
		}
		if d.N > 0 && (!d.ClusterCI.OK || d.ClusterCI.Lo > d.Diff+1e-12 || d.ClusterCI.Hi < d.Diff-1e-12) {
			t.Errorf("%s: cluster interval %+v does not hold the mean %v", d.Aspect, d.ClusterCI, d.Diff)
		}
	}
	again, _, _ := runCLI(t, "compare", out, out, "--model-a", "agent-alpha", "--model-b", "agent-beta", "--format", "json")
	if again != stdout {
		t.Error("compare is not reproducible")
	}
	text, _, _ := runCLI(t, "compare", out, out, "--model-a", "agent-alpha", "--model-b", "agent-beta")
	for _, want := range []string{"McNemar exact test p = 0.004181", "A only 14, B only 2", "Paired difference of I_p",
		"paired unit: (instance, run); 36 pairs over 12 instances", "anti-conservative", "higher on 5 instances, B's on 1, equal on 6; exact sign test p = 0.2188",
		"95% CI clustered", "cluster bootstrap resampling instances"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
}

// TestCompareHarnessRuns compares gold with one wrong prediction on the
// echo fixture: one flip towards A, p = 1 (b = 1, c = 0: 2·1/2 = 1).
func TestCompareHarnessRuns(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 3, "0")
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", a); code != ExitOK {
		t.Fatal(stderr)
	}
	preds := filepath.Join(t.TempDir(), "p.jsonl")
	var pb strings.Builder
	for i := 0; i < 3; i++ {
		patch := "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n"
		if i == 1 {
			patch = "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+three\n"
		}
		line, _ := json.Marshal(map[string]string{"instance_id": fmt.Sprintf("acme__echo-%d", i), "model_name_or_path": "m", "model_patch": patch})
		pb.Write(append(line, '\n'))
	}
	os.WriteFile(preds, []byte(pb.String()), 0o644)
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", preds, "--out", b); code != ExitOK {
		t.Fatal(stderr)
	}
	stdout, stderr, code := runCLI(t, "compare", a, b, "--format", "json")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var c report.Comparison
	json.Unmarshal([]byte(stdout), &c)
	if c.Paired != 3 || !slices.Equal(c.OnlyA, []string{"acme__echo-1#0"}) || len(c.OnlyB) != 0 || c.McNemarP != 1 {
		t.Errorf("comparison %+v", c)
	}
	html, _, code := runCLI(t, "compare", a, b, "--format", "html")
	if code != ExitOK || !strings.Contains(html, `id="chart-compare-rates"`) || !strings.Contains(html, `id="compare-rates"`) {
		t.Errorf("html compare: exit %d", code)
	}
	// Not a run directory.
	if _, _, code := runCLI(t, "compare", a, t.TempDir()); code != ExitUsage {
		t.Errorf("compare with a non-run: exit %d", code)
	}
}
