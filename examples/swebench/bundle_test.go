package swebench_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/internal/cli"
	"github.com/polynfi/polynfi/internal/swebenchoracle"
)

// TestBundleResultsAsSWEBenchGrades: the submission bundle of a Docker run
// of the bundled SWE-bench 5.x sample (gold for ledgerkit-12, a wrong
// patch for ledgerkit-15 that applies and fails a FAIL_TO_PASS test) holds
// what SWE-bench's experiments repository re-derives from it:
// analysis/get_results.py re-grades each logs/<id>/test_output.txt with
// SWE-bench's get_eval_report and lists the resolved ones in
// results/results.json. Here SWE-bench's own grading (release 5.0.2,
// internal/swebenchoracle) reads the bundle's test_output.txt files and
// must give the bundle's results.json resolved list and each report.json's
// FAIL_TO_PASS / PASS_TO_PASS lists. Every directory has run_instance.log
// and eval.sh beside them.
func TestBundleResultsAsSWEBenchGrades(t *testing.T) {
	requireDocker(t)
	if swebenchoracle.Dir() == "" && os.Getenv("CI") != "true" {
		t.Skip("SWE-bench oracle not installed (.ci/swebench-oracle.sh)")
	}
	tasks, err := dataset.Load(".")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]dataset.Instance{}
	var preds bytes.Buffer
	for _, in := range tasks.Instances {
		rows[in.InstanceID] = in
		patch := in.Patch
		if in.InstanceID == "tidyledger__ledgerkit-15" {
			// Entries dated on as_of drop out: the as-of tests fail.
			patch = strings.Replace(patch, "e.day > as_of", "e.day >= as_of", 1)
			if patch == in.Patch {
				t.Fatal("the wrong patch for ledgerkit-15 could not be made")
			}
		}
		line, _ := json.Marshal(map[string]string{"instance_id": in.InstanceID, "model_name_or_path": "acme/agent", "model_patch": patch})
		preds.Write(append(line, '\n'))
	}
	predsPath := filepath.Join(t.TempDir(), "preds.jsonl")
	os.WriteFile(predsPath, preds.Bytes(), 0o644)
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"eval", "--dataset", ".", "--predictions", predsPath, "--out", out, "--runtime", "docker", "--nfi=false", "--retrieval", "off", "--retries", "0"}
	if code := cli.Main(context.Background(), args, &stdout, &stderr); code != cli.ExitOK {
		t.Fatalf("polynfi %v: exit %d\n%s", args, code, stderr.String())
	}
	bundle := filepath.Join(t.TempDir(), "20260101_acme")
	stderr.Reset()
	if code := cli.Main(context.Background(), []string{"report", "--bundle", bundle, out}, &stdout, &stderr); code != cli.ExitOK {
		t.Fatalf("report --bundle: exit %d\n%s", code, stderr.String())
	}
	var results struct {
		NoGeneration []string `json:"no_generation"`
		NoLogs       []string `json:"no_logs"`
		Resolved     []string `json:"resolved"`
	}
	b, err := os.ReadFile(filepath.Join(bundle, "results", "results.json"))
	if err != nil || json.Unmarshal(b, &results) != nil {
		t.Fatalf("results/results.json: %v\n%s", err, b)
	}
	if len(results.NoGeneration)+len(results.NoLogs) != 0 {
		t.Errorf("results.json %s: every instance ran", b)
	}
	var ids []string
	var reqs []swebenchoracle.GradeRequest
	for id, in := range rows {
		dir := filepath.Join(bundle, "logs", id)
		for _, f := range []string{"patch.diff", "eval.sh", "run_instance.log", "report.json"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				t.Errorf("%s: %v", id, err)
			}
		}
		log, err := os.ReadFile(filepath.Join(dir, "test_output.txt"))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
		reqs = append(reqs, swebenchoracle.GradeRequest{Parser: in.LogParser, Log: string(log), InstanceID: id, Version: in.Version, EvalType: in.EvalType,
			FailToPass: in.FailToPass, PassToPass: in.PassToPass})
	}
	_, graded := swebenchoracle.Run(t, nil, reqs)
	var resolved []string
	for i, g := range graded {
		id := ids[i]
		if g.Error != "" || !g.Found {
			t.Errorf("%s: SWE-bench %s cannot grade the bundle's test_output.txt (found %v): %s", id, swebenchoracle.Version, g.Found, g.Error)
			continue
		}
		if g.Resolved {
			resolved = append(resolved, id)
		}
		var rep map[string]struct {
			Resolved    bool                           `json:"resolved"`
			TestsStatus map[string]map[string][]string `json:"tests_status"`
		}
		b, _ := os.ReadFile(filepath.Join(bundle, "logs", id, "report.json"))
		if err := json.Unmarshal(b, &rep); err != nil {
			t.Fatalf("%s report.json: %v", id, err)
		}
		r := rep[id]
		if r.Resolved != g.Resolved {
			t.Errorf("%s: report.json resolved %v, SWE-bench %v", id, r.Resolved, g.Resolved)
		}
		for _, list := range []string{"FAIL_TO_PASS", "PASS_TO_PASS"} {
			for _, k := range []string{"success", "failure"} {
				got, want := append([]string{}, r.TestsStatus[list][k]...), append([]string{}, g.Report[list][k]...)
				sort.Strings(got)
				sort.Strings(want)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s report.json %s %s = %v, SWE-bench %v", id, list, k, got, want)
				}
			}
		}
	}
	sort.Strings(resolved)
	if want := []string{"tidyledger__ledgerkit-12"}; !reflect.DeepEqual(resolved, want) {
		t.Errorf("SWE-bench resolves %v of the bundle's logs, want %v", resolved, want)
	}
	if !reflect.DeepEqual(results.Resolved, resolved) {
		t.Errorf("results.json resolved %v, SWE-bench's grading of test_output.txt %v", results.Resolved, resolved)
	}
}
