package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"syscall"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/harness"
)

// jsonKeys decodes one JSON object, keeping its keys in file order and its
// values.
func jsonKeys(t *testing.T, b []byte) ([]string, map[string]json.RawMessage) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not a JSON object: %v\n%s", err, b)
	}
	var keys []string
	vals := map[string]json.RawMessage{}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		vals[k.(string)] = v
	}
	return keys, vals
}

// bundlePredictions writes predictions of model m for evalFixture's first
// three instances: 0 the gold patch, 1 a wrong one, 2 an empty one.
func bundlePredictions(t *testing.T) (path string, patches map[string]string) {
	t.Helper()
	patches = map[string]string{
		"acme__echo-0": "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n",
		"acme__echo-1": "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+three\n",
		"acme__echo-2": "",
	}
	var b bytes.Buffer
	for _, id := range []string{"acme__echo-0", "acme__echo-1", "acme__echo-2"} {
		line, _ := json.Marshal(map[string]string{"instance_id": id, "model_name_or_path": "acme-agént <v1> & co 🚀", "model_patch": patches[id]})
		b.Write(append(line, '\n'))
	}
	path = filepath.Join(t.TempDir(), "preds.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, patches
}

// TestBundleLeaderboardLayout: `polynfi report --bundle` writes what a
// leaderboard submitter uploads, field for field as published:
// SWE-PolyBench's submission branch (all_preds.jsonl; logs/ with
// <instance_id>_result.json, PolyBenchOutput written with json.dump
// indent=4, and <instance_id>_metrics.json; metadata.yaml with name, oss,
// site, pass_rate "XX.XX% (n/N)"; README.md) and SWE-bench's experiments
// layout (logs/<instance_id>/ with patch.diff, test_output.txt, eval.sh and
// report.json from grading.py get_eval_report). polynfi's extras are in
// polynfi/, never in those files. all_preds.jsonl reads back through
// polynfi's predictions loader, and evaluating it again gives the same
// result files.
func TestBundleLeaderboardLayout(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 3, "0")
	preds, patches := bundlePredictions(t)
	out := t.TempDir()
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", preds, "--out", out); code != ExitOK {
		t.Fatal(stderr)
	}
	bundle := filepath.Join(t.TempDir(), "20260101_acme")
	if _, stderr, code := runCLI(t, "report", "--bundle", bundle, out); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	ids := []string{"acme__echo-0", "acme__echo-1", "acme__echo-2"}

	// The tree: published files at the top, polynfi's in polynfi/.
	var files []string
	filepath.WalkDir(bundle, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(bundle, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(files)
	want := []string{"README.md", "all_preds.jsonl",
		"logs/acme__echo-0/eval.sh", "logs/acme__echo-0/patch.diff", "logs/acme__echo-0/report.json", "logs/acme__echo-0/test_output.txt",
		"logs/acme__echo-0_metrics.json", "logs/acme__echo-0_result.json",
		"logs/acme__echo-1/eval.sh", "logs/acme__echo-1/patch.diff", "logs/acme__echo-1/report.json", "logs/acme__echo-1/test_output.txt",
		"logs/acme__echo-1_metrics.json", "logs/acme__echo-1_result.json",
		"logs/acme__echo-2_metrics.json", "logs/acme__echo-2_result.json",
		"metadata.yaml", "polynfi/metadata.json", "polynfi/result.json"}
	// An empty prediction is not run: it may keep a patch/command file but
	// never a SWE-bench report.json.
	var got []string
	for _, f := range files {
		if strings.HasPrefix(f, "logs/acme__echo-2/") {
			if strings.HasSuffix(f, "report.json") {
				t.Errorf("%s: SWE-bench writes no report for an empty prediction", f)
			}
			continue
		}
		got = append(got, f)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("bundle files\n%v\nwant\n%v", got, want)
	}

	// <instance_id>_result.json: PolyBenchOutput's nine fields in order,
	// json.dump(indent=4) layout (4 spaces, no final newline, no \u003c).
	type res struct {
		applied, generation, withLogs, f2p, p2p, resolved bool
		passed, failed                                    []string
	}
	wantRes := map[string]res{
		"acme__echo-0": {true, true, true, true, true, true, []string{"t.py:None:test_a"}, []string{}},
		"acme__echo-1": {true, true, true, false, true, false, []string{}, []string{"t.py:None:test_a"}},
		"acme__echo-2": {false, false, false, false, false, false, []string{}, []string{}},
	}
	resultKeys := []string{"instance_id", "patch_applied", "generation", "with_logs", "all_f2p_passed", "no_p2p_failed", "resolved", "passed_tests", "failed_tests"}
	for _, id := range ids {
		b, err := os.ReadFile(filepath.Join(bundle, "logs", id+"_result.json"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(b, []byte("{\n    \"instance_id\": \""+id+"\",\n    \"patch_applied\": ")) || bytes.HasSuffix(b, []byte("\n")) {
			t.Errorf("%s_result.json is not laid out as json.dump(indent=4):\n%s", id, b)
		}
		keys, vals := jsonKeys(t, b)
		if !reflect.DeepEqual(keys, resultKeys) {
			t.Errorf("%s_result.json keys %v, want %v", id, keys, resultKeys)
			continue
		}
		var r struct {
			ID           string   `json:"instance_id"`
			PatchApplied bool     `json:"patch_applied"`
			Gen          bool     `json:"generation"`
			Logs         bool     `json:"with_logs"`
			F2P          bool     `json:"all_f2p_passed"`
			P2P          bool     `json:"no_p2p_failed"`
			Res          bool     `json:"resolved"`
			Passed       []string `json:"passed_tests"`
			Failed       []string `json:"failed_tests"`
		}
		for _, k := range resultKeys[1:7] {
			if s := string(vals[k]); s != "true" && s != "false" {
				t.Errorf("%s %s = %s, want a JSON boolean", id, k, s)
			}
		}
		for _, k := range resultKeys[7:] {
			if !bytes.HasPrefix(vals[k], []byte("[")) {
				t.Errorf("%s %s = %s, want a JSON list", id, k, vals[k])
			}
		}
		json.Unmarshal(b, &r)
		w := wantRes[id]
		if r.ID != id || r.PatchApplied != w.applied || r.Gen != w.generation || r.Logs != w.withLogs || r.F2P != w.f2p || r.P2P != w.p2p || r.Res != w.resolved ||
			!reflect.DeepEqual(r.Passed, w.passed) || !reflect.DeepEqual(r.Failed, w.failed) {
			t.Errorf("%s_result.json = %+v, want %+v", id, r, w)
		}
	}

	// <instance_id>_metrics.json: PolyBenchRetrievalMetrics, file scores
	// in SWE-PolyBench's key order and float form (1.0, not 1).
	b, err := os.ReadFile(filepath.Join(bundle, "logs", "acme__echo-0_metrics.json"))
	if err != nil {
		t.Fatal(err)
	}
	keys, vals := jsonKeys(t, b)
	if w := []string{"instance_id", "file_retrieval_metrics", "node_retrieval_metrics", "reference_nodes", "predicted_nodes"}; !reflect.DeepEqual(keys, w) {
		t.Errorf("_metrics.json keys %v, want %v", keys, w)
	}
	if fk, _ := jsonKeys(t, vals["file_retrieval_metrics"]); !reflect.DeepEqual(fk, []string{"recall", "precision", "f1"}) {
		t.Errorf("file_retrieval_metrics keys %v", fk)
	}
	if !strings.Contains(string(b), "\"recall\": 1.0,\n        \"precision\": 1.0,\n        \"f1\": 1.0\n") {
		t.Errorf("gold's file scores are not written as 1.0:\n%s", b)
	}
	if string(vals["node_retrieval_metrics"]) != "null" || string(vals["reference_nodes"]) != "[]" {
		t.Errorf("node metrics (not computed): %s %s", vals["node_retrieval_metrics"], vals["reference_nodes"])
	}
	if b, _ := os.ReadFile(filepath.Join(bundle, "logs", "acme__echo-2_metrics.json")); !strings.Contains(string(b), `"recall": 0.0`) {
		t.Errorf("empty prediction's metrics are not zero:\n%s", b)
	}

	// logs/<id>/report.json: SWE-bench's get_eval_report shape.
	for id, resolved := range map[string]bool{"acme__echo-0": true, "acme__echo-1": false} {
		b, err := os.ReadFile(filepath.Join(bundle, "logs", id, "report.json"))
		if err != nil {
			t.Fatal(err)
		}
		top, vals := jsonKeys(t, b)
		if !reflect.DeepEqual(top, []string{id}) {
			t.Fatalf("report.json top keys %v, want [%s]", top, id)
		}
		inner, iv := jsonKeys(t, vals[id])
		if w := []string{"patch_is_None", "patch_exists", "patch_successfully_applied", "resolved", "tests_status"}; !reflect.DeepEqual(inner, w) {
			t.Errorf("%s report.json keys %v, want %v", id, inner, w)
		}
		if string(iv["patch_is_None"]) != "false" || string(iv["patch_exists"]) != "true" || string(iv["patch_successfully_applied"]) != "true" || string(iv["resolved"]) != fmt.Sprint(resolved) {
			t.Errorf("%s report.json values %s", id, vals[id])
		}
		ts, tv := jsonKeys(t, iv["tests_status"])
		if w := []string{"FAIL_TO_PASS", "PASS_TO_PASS", "FAIL_TO_FAIL", "PASS_TO_FAIL"}; !reflect.DeepEqual(ts, w) {
			t.Errorf("tests_status keys %v, want %v", ts, w)
		}
		var f2p struct{ Success, Failure []string }
		json.Unmarshal(tv["FAIL_TO_PASS"], &f2p)
		if resolved && (len(f2p.Success) != 1 || len(f2p.Failure) != 0) || !resolved && (len(f2p.Success) != 0 || len(f2p.Failure) != 1) {
			t.Errorf("%s FAIL_TO_PASS %s", id, tv["FAIL_TO_PASS"])
		}
	}
	if b, _ := os.ReadFile(filepath.Join(bundle, "logs", "acme__echo-1", "patch.diff")); string(b) != patches["acme__echo-1"] {
		t.Errorf("patch.diff %q, want the prediction", b)
	}

	// metadata.yaml: the leaderboard's four fields, nothing of polynfi's.
	y, _ := os.ReadFile(filepath.Join(bundle, "metadata.yaml"))
	var meta map[string]any
	if err := yaml.Unmarshal(y, &meta); err != nil {
		t.Fatalf("metadata.yaml: %v\n%s", err, y)
	}
	if len(meta) != 4 || meta["name"] != "acme-agént <v1> & co 🚀" || meta["pass_rate"] != "33.33% (1/3)" {
		t.Errorf("metadata.yaml %v, want name, oss, site, pass_rate 33.33%% (1/3)\n%s", meta, y)
	}
	for _, k := range []string{"oss", "site"} {
		if _, ok := meta[k]; !ok {
			t.Errorf("metadata.yaml lacks %s", k)
		}
	}

	// README.md: what produced it.
	readme, _ := os.ReadFile(filepath.Join(bundle, "README.md"))
	for _, w := range []string{"polynfi " + polynfiVersion(), "SWE-PolyBench's rules", "Pass rate (SWE-PolyBench): 33.33% (1/3)"} {
		if !strings.Contains(string(readme), w) {
			t.Errorf("README.md lacks %q:\n%s", w, readme)
		}
	}
	if strings.Contains(string(readme), "INCOMPLETE") {
		t.Errorf("a complete run's README says INCOMPLETE:\n%s", readme)
	}

	// all_preds.jsonl: SWE-bench's three keys in order, read back by
	// polynfi's loader to the predictions that were evaluated.
	raw, _ := os.ReadFile(filepath.Join(bundle, "all_preds.jsonl"))
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("all_preds.jsonl has %d lines, want 3:\n%s", len(lines), raw)
	}
	// As json.dumps writes it: ", " and ": ", "<>&" as they are, non-ASCII
	// as \uXXXX (ensure_ascii), a surrogate pair above U+FFFF.
	if want := `{"instance_id": "acme__echo-0", "model_name_or_path": "acme-ag\u00e9nt <v1> & co \ud83d\ude80", "model_patch": "diff --git a/a.txt b/a.txt\n`; !strings.HasPrefix(lines[0], want) {
		t.Errorf("all_preds.jsonl line 1\n%s\nwant it to start\n%s", lines[0], want)
	}
	for _, l := range lines {
		if k, _ := jsonKeys(t, []byte(l)); !reflect.DeepEqual(k, []string{"instance_id", "model_name_or_path", "model_patch"}) {
			t.Errorf("all_preds.jsonl line keys %v", k)
		}
	}
	back, err := dataset.LoadPredictions(filepath.Join(bundle, "all_preds.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Predictions) != 3 {
		t.Fatalf("loader read %d predictions", len(back.Predictions))
	}
	for _, p := range back.Predictions {
		if p.ModelNameOrPath != "acme-agént <v1> & co 🚀" || p.ModelPatch != patches[p.InstanceID] || p.Run != 0 {
			t.Errorf("round trip: %s model %q run %d patch %q, want %q", p.InstanceID, p.ModelNameOrPath, p.Run, p.ModelPatch, patches[p.InstanceID])
		}
	}
	// Evaluated again, the bundle's predictions give the same result files.
	out2 := t.TempDir()
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", filepath.Join(bundle, "all_preds.jsonl"), "--out", out2); code != ExitOK {
		t.Fatal(stderr)
	}
	bundle2 := filepath.Join(t.TempDir(), "again")
	if _, stderr, code := runCLI(t, "report", "--bundle", bundle2, out2); code != ExitOK {
		t.Fatal(stderr)
	}
	for _, id := range ids {
		a, _ := os.ReadFile(filepath.Join(bundle, "logs", id+"_result.json"))
		b, _ := os.ReadFile(filepath.Join(bundle2, "logs", id+"_result.json"))
		if !bytes.Equal(a, b) {
			t.Errorf("%s_result.json differs after evaluating all_preds.jsonl again:\n%s\n%s", id, a, b)
		}
	}
}

// TestBundleIncomplete: a run with instances not evaluated is refused
// (exit 3, naming how many, nothing written) unless --allow-incomplete,
// which bundles the evaluated ones and says so in README.md, metadata.yaml
// and polynfi/metadata.json. Both kinds: a record that cannot be read,
// and a run really interrupted with SIGINT.
func TestBundleIncomplete(t *testing.T) {
	t.Parallel()
	// A finished run whose record of acme__echo-1 is unreadable.
	ds := evalFixture(t, 2, "0")
	out := t.TempDir()
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", out); code != ExitOK {
		t.Fatal(stderr)
	}
	var victim string
	filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == harness.ResultFile && strings.Contains(p, "acme__echo-1") {
			victim = p
		}
		return nil
	})
	if victim == "" {
		t.Fatal("no record of acme__echo-1")
	}
	os.WriteFile(victim, []byte("{not json"), 0o644)
	bundle := filepath.Join(t.TempDir(), "bundle")
	_, stderr, code := runCLI(t, "report", "--bundle", bundle, out)
	if code != ExitError || !strings.Contains(stderr, "1 of 2 instances") || !strings.Contains(stderr, "not evaluated") || !strings.Contains(stderr, "--allow-incomplete") {
		t.Errorf("unreadable record: exit %d, want %d naming 1 of 2 not evaluated\n%s", code, ExitError, stderr)
	}
	if _, err := os.Stat(bundle); err == nil {
		t.Errorf("a refused bundle left %s", bundle)
	}

	// Interrupted with SIGINT after one record.
	bin := buildPolynfi(t)
	const n = 6
	ds = evalFixture(t, n, "0.6")
	intr := filepath.Join(t.TempDir(), "out")
	if code, stderr := startUntil(t, bin, intr, []string{"eval", "--dataset", ds, "--predictions", "gold", "--out", intr}, 1, syscall.SIGINT); code != ExitInterrupted {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	recorded, _ := countRecords(t, intr)
	missing := n - recorded
	if missing < 1 || recorded < 1 {
		t.Fatalf("%d of %d recorded before the interrupt", recorded, n)
	}
	_, stderr, code = runCLI(t, "report", "--bundle", bundle, intr)
	if want := fmt.Sprintf("%d of %d instances", missing, n); code != ExitError || !strings.Contains(stderr, want) || !strings.Contains(stderr, "interrupted") {
		t.Errorf("interrupted run: exit %d, want %d with %q\n%s", code, ExitError, want, stderr)
	}
	if _, err := os.Stat(bundle); err == nil {
		t.Errorf("a refused bundle left %s", bundle)
	}
	if _, stderr, code := runCLI(t, "report", "--bundle", bundle, "--allow-incomplete", intr); code != ExitOK {
		t.Fatalf("--allow-incomplete: exit %d\n%s", code, stderr)
	}
	results, _ := filepath.Glob(filepath.Join(bundle, "logs", "*_result.json"))
	raw, _ := os.ReadFile(filepath.Join(bundle, "all_preds.jsonl"))
	if len(results) != recorded || strings.Count(string(raw), "\n") != recorded {
		t.Errorf("%d result files and %d predictions, want the %d evaluated", len(results), strings.Count(string(raw), "\n"), recorded)
	}
	readme, _ := os.ReadFile(filepath.Join(bundle, "README.md"))
	if want := fmt.Sprintf("INCOMPLETE: %d instances were not evaluated (the run was interrupted)", missing); !strings.Contains(string(readme), want) {
		t.Errorf("README.md lacks %q:\n%s", want, readme)
	}
	y, _ := os.ReadFile(filepath.Join(bundle, "metadata.yaml"))
	var meta map[string]any
	if err := yaml.Unmarshal(y, &meta); err != nil || !strings.HasPrefix(string(y), "# INCOMPLETE") || meta["pass_rate"] != fmt.Sprintf("100.00%% (%d/%d)", recorded, recorded) {
		t.Errorf("metadata.yaml (%v) %v:\n%s", err, meta, y)
	}
	var extras struct {
		Incomplete   bool     `json:"incomplete"`
		Interrupted  bool     `json:"interrupted"`
		NotEvaluated []string `json:"not_evaluated"`
	}
	b, _ := os.ReadFile(filepath.Join(bundle, "polynfi", "metadata.json"))
	if err := json.Unmarshal(b, &extras); err != nil || !extras.Incomplete || !extras.Interrupted || len(extras.NotEvaluated) != missing {
		t.Errorf("polynfi/metadata.json %+v (%v), want incomplete, interrupted, %d not evaluated", extras, err, missing)
	}
}

// TestBundleTrajectories: when the run's predictions came from an agent
// run of polynfi (eval --agent, or run then eval), the files the agent
// wrote into {out_dir} go into trajs/, each named <instance_id>.<file>
// (SWE-PolyBench: the instance id in every trace file's name), found by
// themselves or through --trajs when the predictions file was moved.
func TestBundleTrajectories(t *testing.T) {
	requireBwrapInCI(t)
	t.Parallel()
	ds := evalFixture(t, 2, "0")
	out := t.TempDir()
	agentCmd := `sed -i s/one/two/ a.txt; printf '{"steps": ["edit a.txt"], "instance": "%s"}' {instance_id} > {out_dir}/trajectory.json; mkdir -p {out_dir}/notes; echo thought > {out_dir}/notes/step1.md`
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--agent", "cmd", "--agent-cmd", agentCmd, "--out", out); code != ExitOK {
		t.Fatalf("eval --agent: exit %d\n%s", code, stderr)
	}
	bundle := filepath.Join(t.TempDir(), "bundle")
	if _, stderr, code := runCLI(t, "report", "--bundle", bundle, out); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	check := func(bundle string) {
		t.Helper()
		got, _ := filepath.Glob(filepath.Join(bundle, "trajs", "*"))
		for i := range got {
			got[i] = filepath.Base(got[i])
		}
		sort.Strings(got)
		want := []string{"acme__echo-0.notes__step1.md", "acme__echo-0.trajectory.json", "acme__echo-1.notes__step1.md", "acme__echo-1.trajectory.json"}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("trajs/ %v, want %v", got, want)
		}
		for _, id := range []string{"acme__echo-0", "acme__echo-1"} {
			b, _ := os.ReadFile(filepath.Join(bundle, "trajs", id+".trajectory.json"))
			if want := `{"steps": ["edit a.txt"], "instance": "` + id + `"}`; string(b) != want {
				t.Errorf("%s trajectory %q, want %q", id, b, want)
			}
		}
	}
	check(bundle)
	// The agent's predictions evaluated from elsewhere: --trajs names the
	// agent's output directory.
	moved := filepath.Join(t.TempDir(), "preds.jsonl")
	b, err := os.ReadFile(filepath.Join(out, "agent-runs", "predictions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(moved, b, 0o644)
	out2 := t.TempDir()
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", moved, "--out", out2); code != ExitOK {
		t.Fatal(stderr)
	}
	bundle2 := filepath.Join(t.TempDir(), "bundle2")
	if _, stderr, code := runCLI(t, "report", "--bundle", bundle2, out2); code != ExitOK {
		t.Fatal(stderr)
	}
	if _, err := os.Stat(filepath.Join(bundle2, "trajs")); err == nil {
		t.Error("trajs/ without any agent run to take them from")
	}
	if _, stderr, code := runCLI(t, "report", "--bundle", bundle2, "--trajs", filepath.Join(out, "agent-runs"), out2); code != ExitOK {
		t.Fatal(stderr)
	}
	check(bundle2)
}
