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
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/runrecord"
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
	// An empty prediction is not run (SWE-bench: no logs/<id>/ at all);
	// a polybench-schema run has no SWE-bench results/.
	want := []string{"README.md", "all_preds.jsonl",
		"logs/acme__echo-0/eval.sh", "logs/acme__echo-0/patch.diff", "logs/acme__echo-0/report.json", "logs/acme__echo-0/run_instance.log", "logs/acme__echo-0/test_output.txt",
		"logs/acme__echo-0_metrics.json", "logs/acme__echo-0_result.json",
		"logs/acme__echo-1/eval.sh", "logs/acme__echo-1/patch.diff", "logs/acme__echo-1/report.json", "logs/acme__echo-1/run_instance.log", "logs/acme__echo-1/test_output.txt",
		"logs/acme__echo-1_metrics.json", "logs/acme__echo-1_result.json",
		"logs/acme__echo-2_metrics.json", "logs/acme__echo-2_result.json",
		"metadata.yaml", "polynfi/metadata.json", "polynfi/result.json"}
	if !reflect.DeepEqual(files, want) {
		t.Errorf("bundle files\n%v\nwant\n%v", files, want)
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
		if err == nil && d.Name() == runrecord.ResultFile && strings.Contains(p, "acme__echo-1") {
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
	// The refusal names the --bundle directory, not the temporary one
	// the bundle is built in (trial of #16).
	if !strings.Contains(stderr, "nothing written to "+bundle) || strings.Contains(stderr, "polynfi-bundle-") {
		t.Errorf("refusal does not name --bundle %s as the directory left unwritten:\n%s", bundle, stderr)
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

// TestBundleMetadataFlags: metadata.yaml can be complete from the command
// line. The --bundle-* flags give SWE-PolyBench's fields (name, oss, site,
// and logo, authors as published entries carry them), written with the
// YAML library in the published key order (name, oss, site, pass_rate,
// logo, authors); the README then asks for nothing more. Bad values are
// refused before anything is written, the error naming the flag: oss is
// true or false, site and logo absolute http(s) URLs (the published
// iSWE-agent entry's "://github.com/..." is refused), SWE-bench-only
// fields on a polybench-schema run, the flags without --bundle. Before,
// oss and site were always null and the README said to fill them in.
func TestBundleMetadataFlags(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 2, "0")
	out := t.TempDir()
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", out); code != ExitOK {
		t.Fatal(stderr)
	}
	bundle := filepath.Join(t.TempDir(), "20260101_acme")
	if _, stderr, code := runCLI(t, "report", "--bundle", bundle, "--bundle-name", "Acme Agent: v2", "--bundle-oss", "true",
		"--bundle-site", "https://acme.example/agent", "--bundle-logo", "https://acme.example/logo.svg", "--bundle-logo", "https://acme.example/org.png",
		"--bundle-authors", "Ada Lovelace, Alan Turing", out); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	y, _ := os.ReadFile(filepath.Join(bundle, "metadata.yaml"))
	var doc yaml.Node
	if err := yaml.Unmarshal(y, &doc); err != nil || len(doc.Content) != 1 {
		t.Fatalf("metadata.yaml: %v\n%s", err, y)
	}
	var keys []string
	for i := 0; i < len(doc.Content[0].Content); i += 2 {
		keys = append(keys, doc.Content[0].Content[i].Value)
	}
	if w := []string{"name", "oss", "site", "pass_rate", "logo", "authors"}; !reflect.DeepEqual(keys, w) {
		t.Errorf("metadata.yaml keys %v, want %v\n%s", keys, w, y)
	}
	var meta map[string]any
	yaml.Unmarshal(y, &meta)
	want := map[string]any{"name": "Acme Agent: v2", "oss": true, "site": "https://acme.example/agent", "pass_rate": "100.00% (2/2)",
		"logo": []any{"https://acme.example/logo.svg", "https://acme.example/org.png"}, "authors": "Ada Lovelace, Alan Turing"}
	if !reflect.DeepEqual(meta, want) {
		t.Errorf("metadata.yaml %v\nwant %v\n%s", meta, want, y)
	}
	readme, _ := os.ReadFile(filepath.Join(bundle, "README.md"))
	if strings.Contains(string(readme), "Fill in") {
		t.Errorf("README asks to fill in fields the flags gave:\n%s", readme)
	}
	// Without the flags: null, and the README names what to fill in.
	bare := filepath.Join(t.TempDir(), "bare")
	if _, stderr, code := runCLI(t, "report", "--bundle", bare, out); code != ExitOK {
		t.Fatal(stderr)
	}
	y, _ = os.ReadFile(filepath.Join(bare, "metadata.yaml"))
	meta = nil
	yaml.Unmarshal(y, &meta)
	if _, ok := meta["oss"]; !ok || meta["oss"] != nil || meta["site"] != nil || meta["name"] != "gold" {
		t.Errorf("metadata.yaml without flags: %v\n%s", meta, y)
	}
	if readme, _ := os.ReadFile(filepath.Join(bare, "README.md")); !strings.Contains(string(readme), "Fill in oss, site in `metadata.yaml`") {
		t.Errorf("README does not name the unset fields:\n%s", readme)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--bundle-oss", "yes"}, `--bundle-oss "yes": want true or false`},
		{[]string{"--bundle-site", "://github.com/amazon-science/SWE-PolyBench"}, `--bundle-site "://github.com/amazon-science/SWE-PolyBench": not a URL`},
		{[]string{"--bundle-site", "ftp://acme.example/agent"}, `--bundle-site "ftp://acme.example/agent": want an absolute http(s) URL`},
		{[]string{"--bundle-logo", "logo.png"}, `--bundle-logo "logo.png": want an absolute http(s) URL`},
		{[]string{"--bundle-name", "two\nlines"}, `--bundle-name "two\nlines": want one line`},
		{[]string{"--bundle-report", "https://acme.example/report"}, "--bundle-report: SWE-bench's metadata.yaml field, and this is a polybench-schema run"},
		{[]string{"--bundle-attempts", "1"}, "--bundle-attempts: SWE-bench's metadata.yaml field"},
	} {
		dir := filepath.Join(t.TempDir(), "b")
		_, stderr, code := runCLI(t, append(append([]string{"report", "--bundle", dir}, c.args...), out)...)
		if code != ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, want %d with %q\n%s", c.args, code, ExitUsage, c.want, stderr)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("%v: a refused bundle left %s", c.args, dir)
		}
	}
	if _, stderr, code := runCLI(t, "report", "--bundle-oss", "true", out); code != ExitUsage || !strings.Contains(stderr, "go with --bundle") {
		t.Errorf("--bundle-oss without --bundle: exit %d\n%s", code, stderr)
	}
}

// sweBenchBundleFixture evaluates a SWE-bench-schema dataset (FAIL_TO_PASS,
// PASS_TO_PASS; a test_command, so it runs on the host) of five instances
// with predictions of model acme/agent: 0 the gold patch, 1 a wrong one,
// 2 an empty one, 3 one that does not apply, 4 none. It returns the
// dataset's instance ids and the run directory.
func sweBenchBundleFixture(t *testing.T) (ids []string, out string) {
	t.Helper()
	dir := t.TempDir()
	repo := filepath.Join(dir, "repos", "acme__echo")
	os.MkdirAll(repo, 0o755)
	sh(t, repo, "git", "init", "--quiet", "--initial-branch=main")
	os.WriteFile(filepath.Join(repo, "a.txt"), []byte("one\n"), 0o644)
	sh(t, repo, "git", "add", "a.txt")
	sh(t, repo, "git", "commit", "--quiet", "-m", "base")
	base := sh(t, repo, "git", "rev-parse", "HEAD")
	gold := "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n"
	patches := []string{gold, strings.Replace(gold, "+two", "+three", 1), "", strings.Replace(gold, "-one", "-zzz", 1)}
	var rows, preds []any
	for i := 0; i < 5; i++ {
		id := fmt.Sprintf("acme__echo-%d", i)
		ids = append(ids, id)
		rows = append(rows, map[string]any{"instance_id": id, "repo": "acme/echo", "base_commit": base, "patch": gold, "test_patch": "", "version": "1.0",
			"test_command": `if grep -q two a.txt; then s=PASSED; else s=FAILED; fi; echo "==== test session starts ===="; echo "t.py::test_a $s"`,
			"FAIL_TO_PASS": `["t.py::test_a"]`, "PASS_TO_PASS": "[]"})
		if i < len(patches) {
			preds = append(preds, map[string]any{"instance_id": id, "model_name_or_path": "acme/agent", "model_patch": patches[i]})
		}
	}
	ds := jsonLines(t, "dataset.jsonl", rows...)
	os.Symlink(filepath.Join(dir, "repos"), filepath.Join(filepath.Dir(ds), "repos"))
	out = t.TempDir()
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", jsonLines(t, "preds.jsonl", preds...), "--out", out); code != ExitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	return ids, out
}

// TestBundleSWEBenchLayout: a SWE-bench-schema run's bundle follows
// SWE-bench's experiments layout. Per instance, logs/<instance_id>/ as
// run_evaluation.py's run_instance leaves it: no directory for an empty
// prediction (not run) or a missing one; patch.diff and run_instance.log
// for every run; eval.sh and test_output.txt once the tests ran;
// report.json once their output was graded (not for a patch that did not
// apply). run_instance.log is polynfi's own log, every line taken from
// the record: each apply attempt with its output, the test exit status,
// the parser, the verdicts. results/results.json is what the experiments
// repository's get_results.py computes from logs/ (no_generation,
// no_logs, resolved; sorted; json.dump indent=2), checked against the
// run's records. metadata.yaml has SWE-bench's shape (info, tags) with
// the --bundle-* values. Before, no run_instance.log and no results/ were
// written and the empty prediction had a logs/<id>/ of empty files.
func TestBundleSWEBenchLayout(t *testing.T) {
	t.Parallel()
	ids, out := sweBenchBundleFixture(t)
	bundle := filepath.Join(t.TempDir(), "20260101_acme")
	if _, stderr, code := runCLI(t, "report", "--bundle", bundle, "--bundle-name", "Acme", "--bundle-oss", "false", "--bundle-os-model", "true",
		"--bundle-site", "https://acme.example", "--bundle-report", "https://acme.example/report", "--bundle-authors", "Ada Lovelace",
		"--bundle-logo", "https://acme.example/logo.svg", "--bundle-lm", "model-a", "--bundle-lm", "model-b", "--bundle-org", "Acme",
		"--bundle-attempts", "1", out); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	recs, _, err := runrecord.ReadRecords(out)
	if err != nil || len(recs) != 4 {
		t.Fatalf("records: %v, %d", err, len(recs))
	}
	byID := map[string]*runrecord.Record{}
	for _, r := range recs {
		byID[r.InstanceID] = r
	}
	// What the records say each instance's directory holds, and the lists
	// get_results.py derives from it.
	var wantNoGen, wantNoLogs, wantResolved []string
	for _, id := range ids {
		r := byID[id]
		var want []string
		switch {
		case r == nil || r.Status == grading.StatusEmptyPatch:
			wantNoGen = append(wantNoGen, id)
		case r.Test == nil:
			want = []string{"patch.diff", "run_instance.log"}
			wantNoLogs = append(wantNoLogs, id)
		default:
			want = []string{"eval.sh", "patch.diff", "report.json", "run_instance.log", "test_output.txt"}
			if r.Verdicts.SWEBench.Resolved {
				wantResolved = append(wantResolved, id)
			}
		}
		ents, _ := os.ReadDir(filepath.Join(bundle, "logs", id))
		var got []string
		for _, e := range ents {
			got = append(got, e.Name())
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("logs/%s/ holds %v, want %v (record status %v)", id, got, want, r)
		}
	}
	if w := [][]string{{"acme__echo-2", "acme__echo-4"}, {"acme__echo-3"}, {"acme__echo-0"}}; !reflect.DeepEqual([][]string{wantNoGen, wantNoLogs, wantResolved}, w) {
		t.Fatalf("the run's records give no_generation %v, no_logs %v, resolved %v, want %v", wantNoGen, wantNoLogs, wantResolved, w)
	}
	b, err := os.ReadFile(filepath.Join(bundle, "results", "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	// json.dump(indent=2): two-space indent, ", " never, no final newline.
	wantJSON := "{\n  \"no_generation\": [\n    \"acme__echo-2\",\n    \"acme__echo-4\"\n  ],\n  \"no_logs\": [\n    \"acme__echo-3\"\n  ],\n  \"resolved\": [\n    \"acme__echo-0\"\n  ]\n}"
	if string(b) != wantJSON {
		t.Errorf("results/results.json\n%s\nwant\n%s", b, wantJSON)
	}

	// run_instance.log: from the record, line by line.
	for _, id := range []string{"acme__echo-0", "acme__echo-1", "acme__echo-3"} {
		r := byID[id]
		log, _ := os.ReadFile(filepath.Join(bundle, "logs", id, "run_instance.log"))
		want := []string{"Evaluation of " + id + " by polynfi", "model acme/agent, run 0", "not the output of SWE-bench's harness",
			"Started " + r.StartedAt.UTC().Format("2006-01-02T15:04:05"), "Repository acme/echo at base commit " + r.BaseCommit,
			fmt.Sprintf("Result (swebench grading): %s, resolved: %t", r.Verdicts.SWEBench.Status, r.Verdicts.SWEBench.Resolved)}
		for _, a := range r.ModelPatchApply.Attempts {
			ok := "failed"
			if a.OK {
				ok = "ok"
			}
			want = append(want, "Model patch: "+a.Method+": "+ok)
			if out := strings.TrimSpace(a.Output); out != "" {
				want = append(want, "    "+strings.SplitN(out, "\n", 2)[0])
			}
		}
		if r.Test != nil {
			want = append(want, fmt.Sprintf("Tests: exit status %d, ", r.Test.ExitCode), "Test output parsed: parser "+r.Test.Parser, "Test output written to test_output.txt.")
		} else {
			want = append(want, "Model patch: not applied by any attempt.", "Tests: not run.", "Error: "+r.Error)
		}
		for _, w := range want {
			if !strings.Contains(string(log), w) {
				t.Errorf("%s run_instance.log lacks %q:\n%s", id, w, log)
			}
		}
		if r.Test == nil && strings.Contains(string(log), "test_output.txt") {
			t.Errorf("%s: the tests never ran, but run_instance.log mentions their output:\n%s", id, log)
		}
	}
	// report.json of the wrong patch says unresolved; test_output.txt is
	// the stored log.
	var rep map[string]struct {
		PatchApplied bool `json:"patch_successfully_applied"`
		Resolved     bool `json:"resolved"`
	}
	b, _ = os.ReadFile(filepath.Join(bundle, "logs", "acme__echo-1", "report.json"))
	if json.Unmarshal(b, &rep) != nil || rep["acme__echo-1"].Resolved || !rep["acme__echo-1"].PatchApplied {
		t.Errorf("acme__echo-1 report.json %s", b)
	}

	// metadata.yaml in SWE-bench's shape.
	y, _ := os.ReadFile(filepath.Join(bundle, "metadata.yaml"))
	var meta map[string]any
	if err := yaml.Unmarshal(y, &meta); err != nil {
		t.Fatalf("metadata.yaml: %v\n%s", err, y)
	}
	want := map[string]any{
		"info": map[string]any{"name": "Acme", "site": "https://acme.example", "report": "https://acme.example/report", "authors": "Ada Lovelace", "logo": "https://acme.example/logo.svg"},
		"tags": map[string]any{"checked": false, "model": []any{"model-a", "model-b"}, "org": []any{"Acme"}, "os_model": true, "os_system": false,
			"system": map[string]any{"attempts": "1"}},
	}
	if !reflect.DeepEqual(meta, want) {
		t.Errorf("metadata.yaml %v\nwant %v\n%s", meta, want, y)
	}
	// Several logos do not fit SWE-bench's info.logo.
	_, stderr, code := runCLI(t, "report", "--bundle", filepath.Join(t.TempDir(), "b"), "--bundle-logo", "https://a.example/1.png", "--bundle-logo", "https://a.example/2.png", out)
	if code != ExitUsage || !strings.Contains(stderr, "SWE-bench's metadata.yaml holds one logo") {
		t.Errorf("two logos on a SWE-bench run: exit %d\n%s", code, stderr)
	}
}
