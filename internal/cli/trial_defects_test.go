package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/report"
	"github.com/polynfi/polynfi/retrieval"
	"github.com/polynfi/polynfi/runrecord"
)

// Tests of the defects the fresh-eyes trial of main b721a94 found
// (issue #16), each written from the defect's description.

// twoModelPredictions writes, for the evalFixture dataset of n instances,
// model alpha's gold patch for every instance and model beta's gold patch
// for every instance but the last (beta's prediction of it is missing),
// into two files.
func twoModelPredictions(t *testing.T, n int) (alpha, beta string) {
	t.Helper()
	patch := "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n"
	dir := t.TempDir()
	write := func(model string, k int) string {
		var b strings.Builder
		for i := 0; i < k; i++ {
			line, _ := json.Marshal(map[string]any{"instance_id": fmt.Sprintf("acme__echo-%d", i), "model_name_or_path": model, "model_patch": patch})
			b.Write(append(line, '\n'))
		}
		p := filepath.Join(dir, model+".jsonl")
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	return write("alpha", n), write("beta", n-1)
}

// "eval --metrics-only --out NEWDIR fails on any new directory: exit 2
// 'NEWDIR is a non-empty directory that is not a polynfi run' — the command
// creates OUT/.repos first and only at the end checks OUT."
// The bundled sample's repositories are git bundles: they are cloned into
// OUT/.repos, which made OUT non-empty before it was claimed.
func TestMetricsOnlyIntoNewDirectory(t *testing.T) {
	t.Parallel()
	ds, err := filepath.Abs("../../examples/polybench/dataset.csv")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "new", "metrics")
	stdout, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--metrics-only", "--out", out)
	if code != ExitOK || strings.Contains(stderr, "not a polynfi run") {
		t.Fatalf("eval --metrics-only --out NEWDIR: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "metrics.json")); err != nil {
		t.Errorf("no metrics.json: %v", err)
	}
	if kind, _, err := runrecord.RunDirKind(out); err != nil || kind != runrecord.KindMetricsOnly {
		t.Errorf("run dir kind %q %v", kind, err)
	}
	// The same command again re-uses the directory.
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--metrics-only", "--out", out); code != ExitOK {
		t.Errorf("second metrics-only call: exit %d\n%s", code, stderr)
	}
	if stdout, stderr, code := runCLI(t, "report", out); code != ExitOK || !strings.Contains(stdout, "file F1") {
		t.Errorf("report: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// "--metrics-only into an existing full run replaces that run's manifest
// (kind: metrics_only), the stored test records disappear from report,
// regrade then refuses." Refused with exit 2; the run is untouched.
func TestMetricsOnlyRefusesFullRun(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 2, "0")
	out := filepath.Join(t.TempDir(), "run")
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", out); code != ExitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	before, err := os.ReadFile(filepath.Join(out, runrecord.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--metrics-only", "--out", out)
	if code != ExitUsage || !strings.Contains(stderr, "already holds a harness run") {
		t.Errorf("metrics-only into a full run: exit %d, want %d\n%s\n%s", code, ExitUsage, stdout, stderr)
	}
	after, _ := os.ReadFile(filepath.Join(out, runrecord.ManifestFile))
	if string(after) != string(before) {
		t.Errorf("the manifest changed:\n%s", after)
	}
	if _, err := os.Stat(filepath.Join(out, "metrics.json")); err == nil {
		t.Errorf("metrics.json written into the full run")
	}
	if stdout, stderr, code := runCLI(t, "report", out); code != ExitOK || !strings.Contains(stdout, "resolved 2/2") {
		t.Errorf("report after the refused call: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if _, stderr, code := runCLI(t, "regrade", out); code != ExitOK {
		t.Errorf("regrade after the refused call: exit %d\n%s", code, stderr)
	}
}

// "eval --metrics-only exits 0 when every row is rejected, printing
// all-zero tables (a full eval exits 3)."
func TestMetricsOnlyNothingEvaluated(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 2, "0")
	preds := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(preds, []byte(`{"instance_id": "acme__echo-0", "model_patch": 7}`+"\n"+`{"instance_id": "nope", "model_name_or_path": "m", "model_patch": ""}`+"\nnot json\n"), 0o644)
	for _, extra := range [][]string{{"--metrics-only"}, {"--metrics-only", "--out", filepath.Join(t.TempDir(), "m")}, {"--out", filepath.Join(t.TempDir(), "f")}} {
		args := append([]string{"eval", "--dataset", ds, "--predictions", preds}, extra...)
		stdout, stderr, code := runCLI(t, args...)
		if code != ExitError || !strings.Contains(stderr, "nothing could be evaluated") || strings.Contains(stdout, "file F1") {
			t.Errorf("%v: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", extra, code, ExitError, stdout, stderr)
		}
	}
}

// "multi-model runs: a missing prediction drops out of the file/node
// localization means ... Expected n=16, each missing unit counting 0 (as it
// does for one model)." Here 4 instances, alpha predicts 4 and beta 3: 8
// units, the missing one scoring file F1 0, so the mean is 7/8 in one eval
// with two --predictions, in two eval calls into one OUT (either order) and
// under --metrics-only.
func TestMultiModelMissingCountsZero(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 4, "0")
	alpha, beta := twoModelPredictions(t, 4)
	check := func(name string, s *retrieval.Summary) {
		t.Helper()
		if s == nil {
			t.Fatalf("%s: no retrieval summary", name)
		}
		all := s.Overall
		if all.File.N != 8 || math.Abs(all.File.F1-7.0/8) > 1e-9 {
			t.Errorf("%s: file n=%d F1 %.4f, want n=8 F1 0.875", name, all.File.N, all.File.F1)
		}
	}
	one := filepath.Join(t.TempDir(), "one")
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", alpha, "--predictions", beta, "--out", one); code != ExitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	rep := readHarnessReport(t, one)
	check("one eval, two --predictions", rep.Polynfi.Retrieval)
	// A rate pooled over two models answers no question: the JSON's
	// top-level modes are null (report.PooledModesNote); each model's
	// section has its own, over its 4 units (alpha 4 resolved, beta 3).
	if rep.Polynfi.Modes != nil {
		t.Errorf("two models: top-level modes %+v, want null (no pooled rate)", rep.Polynfi.Modes)
	}
	if len(rep.Polynfi.Models) != 2 {
		t.Fatalf("two models: %d model sections", len(rep.Polynfi.Models))
	}
	for i, want := range []int{4, 3} {
		mr := rep.Polynfi.Models[i]
		if ms := mr.Report.Polynfi.Modes[mr.Report.Polynfi.NativeMode]; ms == nil || ms.Total != 4 || ms.Resolved != want {
			t.Errorf("model %s: native mode %+v, want %d/4", mr.Model, ms, want)
		}
	}
	// The text report has one section per model, each with one unit per
	// instance: its Wilson interval stands, no clustered line is needed.
	if stdout, _, _ := runCLI(t, "report", one); !strings.Contains(stdout, "=== model alpha ===") || !strings.Contains(stdout, "=== model beta ===") {
		t.Errorf("report lacks a section per model:\n%s", stdout)
	}
	for _, order := range [][2]string{{alpha, beta}, {beta, alpha}} {
		two := filepath.Join(t.TempDir(), "two")
		for _, p := range order {
			if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", p, "--out", two); code != ExitOK {
				t.Fatalf("eval %s: exit %d\n%s", p, code, stderr)
			}
		}
		check("two eval calls, "+filepath.Base(order[0])+" first", readHarnessReport(t, two).Polynfi.Retrieval)
	}
	stdout, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", alpha, "--predictions", beta, "--metrics-only", "--format", "json")
	if code != ExitOK {
		t.Fatalf("metrics-only: exit %d\n%s", code, stderr)
	}
	var mj struct {
		Summary retrieval.Summary `json:"summary"`
	}
	if err := json.Unmarshal([]byte(stdout), &mj); err != nil {
		t.Fatal(err)
	}
	check("--metrics-only, two --predictions", &mj.Summary)
}

// "compare RUN RUN --model-a X --model-b Y on a multi-model run counts one
// instance twice ('resolved 4/9', 'paired units 9' on an 8-instance
// dataset)": every model's missing units were kept on each side.
func TestCompareMultiModelRunCountsEachInstanceOnce(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 4, "0")
	alpha, beta := twoModelPredictions(t, 4)
	out := filepath.Join(t.TempDir(), "run")
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", alpha, "--predictions", beta, "--out", out); code != ExitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	stdout, stderr, code := runCLI(t, "compare", out, out, "--model-a", "alpha", "--model-b", "beta", "--format", "json")
	if code != ExitOK {
		t.Fatalf("compare: exit %d\n%s", code, stderr)
	}
	var c report.Comparison
	if err := json.Unmarshal([]byte(stdout), &c); err != nil {
		t.Fatal(err)
	}
	if c.A.Resolved != 4 || c.A.Units != 4 || c.B.Resolved != 3 || c.B.Units != 4 || c.Paired != 4 || len(c.OnlyA) != 1 || len(c.Unpaired) != 0 {
		t.Errorf("A %d/%d, B %d/%d, paired %d, A only %v, unpaired %v; want 4/4, 3/4, 4 pairs, 1 flip",
			c.A.Resolved, c.A.Units, c.B.Resolved, c.B.Units, c.Paired, c.OnlyA, c.Unpaired)
	}
}

// "SWE-NFI suite eval exits 0 when nothing could be evaluated (all
// prediction rows rejected, or only unknown task ids); must exit 3 like the
// repository eval; and 'prediction for an unknown task skipped:
// x/nope/0' must name file and row."
func TestNFIEvalNothingEvaluated(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../examples/nfi/tasks.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(b), "\n")
	var row struct {
		InstanceID string `json:"instance_id"`
	}
	if err := json.Unmarshal([]byte(first), &row); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tasks := filepath.Join(dir, "tasks.jsonl")
	os.WriteFile(tasks, []byte(first+"\n"), 0o644)
	for name, content := range map[string]string{
		"rejected.jsonl": "{broken\n" + `{"instance_id": 7}` + "\n",
		"unknown.jsonl":  `{"instance_id": "nope", "model_name_or_path": "x", "files": {}}` + "\n",
	} {
		preds := filepath.Join(dir, name)
		os.WriteFile(preds, []byte(content), 0o644)
		out := filepath.Join(dir, "out-"+name)
		stdout, stderr, code := runCLI(t, "eval", "--dataset", tasks, "--predictions", preds, "--out", out)
		if code != ExitError || !strings.Contains(stderr, "nothing could be evaluated") {
			t.Errorf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", name, code, ExitError, stdout, stderr)
		}
		if name == "unknown.jsonl" && !strings.Contains(stderr, preds+": row 1: instance_id \"nope\"") {
			t.Errorf("%s: the skipped prediction is not named by file and row:\n%s", name, stderr)
		}
	}
	// One known and one unknown task: evaluated (exit 0), the unknown one
	// named by file and row.
	preds := filepath.Join(dir, "mixed.jsonl")
	os.WriteFile(preds, []byte(`{"instance_id": "`+row.InstanceID+`", "model_name_or_path": "m", "files": {}}`+"\n"+
		`{"instance_id": "nope", "model_name_or_path": "m", "files": {}}`+"\n"), 0o644)
	out := filepath.Join(dir, "out-mixed")
	stdout, stderr, code := runCLI(t, "eval", "--dataset", tasks, "--predictions", preds, "--out", out)
	if code != ExitOK || !strings.Contains(stderr, preds+": row 2: instance_id \"nope\"") || strings.Contains(stderr, "nope/0") {
		t.Errorf("mixed: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// "compare does not enforce 'same dataset': PolyBench run vs SWE-bench-file
// run only warns, exits 0 and pairs 2 units by id; two NFI runs on
// different task files (one task altered) give no warning." Refused with
// exit 2 unless --allow-different-datasets; then only the instances both
// runs have are counted, and every format says so.
func TestCompareRefusesDifferentDatasets(t *testing.T) {
	t.Parallel()
	// Two repository datasets sharing two instance ids (acme__echo-0, -1)
	// but not their contents (each fixture has its own base commit).
	ds4, ds2 := evalFixture(t, 4, "0"), evalFixture(t, 2, "0")
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	for _, r := range [][2]string{{ds4, a}, {ds2, b}} {
		if _, stderr, code := runCLI(t, "eval", "--dataset", r[0], "--predictions", "gold", "--out", r[1]); code != ExitOK {
			t.Fatalf("eval: exit %d\n%s", code, stderr)
		}
	}
	stdout, stderr, code := runCLI(t, "compare", a, b)
	if code != ExitUsage || !strings.Contains(stderr, "not evaluated on the same dataset") || stdout != "" {
		t.Errorf("compare of runs on different datasets: exit %d, want %d\n%s\n%s", code, ExitUsage, stdout, stderr)
	}
	for _, format := range []string{"text", "markdown", "html", "json"} {
		stdout, stderr, code := runCLI(t, "compare", a, b, "--allow-different-datasets", "--format", format)
		if code != ExitOK || !strings.Contains(stdout, "DIFFERENT DATASETS") {
			t.Errorf("--allow-different-datasets --format %s: exit %d, no warning\n%s\n%s", format, code, stdout, stderr)
		}
		if format == "json" {
			var c report.Comparison
			if err := json.Unmarshal([]byte(stdout), &c); err != nil {
				t.Fatal(err)
			}
			if c.A.Units != 2 || c.B.Units != 2 || c.Paired != 2 || len(c.Unpaired) != 0 {
				t.Errorf("intersection: A %d units, B %d, paired %d, unpaired %v; want 2, 2, 2, none", c.A.Units, c.B.Units, c.Paired, c.Unpaired)
			}
		}
	}
	// The same dataset is still compared without the flag.
	a2 := filepath.Join(t.TempDir(), "a2")
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds4, "--predictions", "gold", "--out", a2); code != ExitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	if stdout, stderr, code := runCLI(t, "compare", a, a2); code != ExitOK || strings.Contains(stdout, "DIFFERENT") {
		t.Errorf("same dataset: exit %d\n%s\n%s", code, stdout, stderr)
	}

	// Two NFI suite runs on task files that differ in one task.
	b0, err := os.ReadFile("../../examples/nfi/tasks.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(b0), "\n")
	var row map[string]any
	if err := json.Unmarshal([]byte(first), &row); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	preds := filepath.Join(dir, "preds.jsonl")
	os.WriteFile(preds, []byte(fmt.Sprintf(`{"instance_id": %q, "model_name_or_path": "m", "files": {}}`+"\n", row["instance_id"])), 0o644)
	var outs []string
	for i, line := range []string{first, first + "  "} {
		tasks := filepath.Join(dir, fmt.Sprintf("tasks%d.jsonl", i))
		os.WriteFile(tasks, []byte(line+"\n"), 0o644)
		out := filepath.Join(dir, fmt.Sprintf("nfi%d", i))
		if _, stderr, code := runCLI(t, "eval", "--dataset", tasks, "--predictions", preds, "--out", out); code != ExitOK {
			t.Fatalf("nfi eval: exit %d\n%s", code, stderr)
		}
		outs = append(outs, out)
	}
	if stdout, stderr, code := runCLI(t, "compare", outs[0], outs[1]); code != ExitUsage || !strings.Contains(stderr, "dataset contents differ") {
		t.Errorf("NFI runs on different task files: exit %d, want %d\n%s\n%s", code, ExitUsage, stdout, stderr)
	}
	if stdout, stderr, code := runCLI(t, "compare", outs[0], outs[1], "--allow-different-datasets"); code != ExitOK || !strings.Contains(stdout, "DIFFERENT DATASETS") {
		t.Errorf("NFI runs with --allow-different-datasets: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// "regrade --apply loses the old verdicts: afterwards the record keeps no
// trace of the old verdict and the next plain regrade rewrites regrade.json
// with changed: 0." The record keeps them (regrade_history), every regrade
// is kept under regrades/ with its time and version, and a later regrade
// shows them beside the current ones.
func TestRegradeApplyKeepsOldVerdicts(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 2, "0")
	out := filepath.Join(t.TempDir(), "run")
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", out); code != ExitOK {
		t.Fatal(stderr)
	}
	recs, err := runrecord.LoadRecords(out)
	if err != nil || len(recs) != 2 {
		t.Fatalf("records %d %v", len(recs), err)
	}
	old := recs[0]
	old.Verdicts = grading.AllModes(grading.StatusUnresolved, "no test results in the log")
	old.Resolved, old.Status = false, grading.StatusUnresolved
	b, _ := json.MarshalIndent(old, "", "  ")
	p := filepath.Join(out, filepath.FromSlash(runrecord.RecordRelDir(old.Key)), runrecord.ResultFile)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, "regrade", "--apply", out); code != ExitOK {
		t.Fatal(stderr)
	}
	var rec runrecord.Record
	rb, _ := os.ReadFile(p)
	if err := json.Unmarshal(rb, &rec); err != nil {
		t.Fatal(err)
	}
	if !rec.Resolved || len(rec.RegradeHistory) != 1 || rec.RegradeHistory[0].Verdicts.PolyBench.Status != grading.StatusUnresolved ||
		rec.RegradeHistory[0].Resolved || rec.RegradeHistory[0].Version == "" || rec.RegradeHistory[0].At.IsZero() {
		t.Fatalf("record after --apply: resolved %v, history %+v", rec.Resolved, rec.RegradeHistory)
	}
	// A plain regrade afterwards: nothing changes now, and the output
	// still shows the verdict the --apply replaced.
	stdout, stderr, code := runCLI(t, "regrade", out)
	if code != ExitOK || !strings.Contains(stdout, "0 changed") || !strings.Contains(stdout, "earlier regrade --apply") ||
		!strings.Contains(stdout, old.InstanceID) || !strings.Contains(stdout, "unresolved → resolved") {
		t.Errorf("plain regrade after --apply: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// Both regrades are kept, the applied one with its change.
	files, _ := filepath.Glob(filepath.Join(out, "regrades", "*.json"))
	applied := 0
	for _, f := range files {
		var doc struct {
			Applied bool   `json:"applied"`
			Changed int    `json:"changed"`
			Version string `json:"polynfi_version"`
		}
		db, _ := os.ReadFile(f)
		if err := json.Unmarshal(db, &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Version == "" {
			t.Errorf("%s names no polynfi version", f)
		}
		if doc.Applied && doc.Changed == 1 && strings.HasSuffix(f, "-applied.json") {
			applied++
		}
	}
	if len(files) != 2 || applied != 1 {
		t.Errorf("regrades/ holds %v, want 2 files, one applied with 1 change", files)
	}
	// The report still reads the record.
	if stdout, _, _ := runCLI(t, "report", out); !strings.Contains(stdout, "resolved 2/2") {
		t.Errorf("report after --apply:\n%s", stdout)
	}
}
