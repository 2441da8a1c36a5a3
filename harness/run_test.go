package harness

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/runrecord"
)

// echoFixture is a repository whose "tests" are an echo of pytest-style
// lines: cheap, so that pool and store behaviour is tested without pytest.
func echoFixture(t testing.TB, n int) (reposDir string, insts []dataset.Instance) {
	t.Helper()
	reposDir = t.TempDir()
	repo := filepath.Join(reposDir, "acme__echo")
	base := makeRepo(t, repo, map[string]string{"a.txt": "one\n"})
	patch := diffOf(t, repo, map[string]string{"a.txt": "two\n"})
	for i := 0; i < n; i++ {
		insts = append(insts, dataset.Instance{
			InstanceID: "acme__echo-" + string(rune('a'+i)), Repo: "acme/echo", BaseCommit: base, Language: dataset.Python,
			TaskCategory: "Feature", Patch: patch,
			// Passes only when the patch applied.
			TestCommand: `if grep -q two a.txt; then s=PASSED; else s=FAILED; fi; echo "============================= test session starts =============================="; echo "t.py::test_a $s"`,
			FailToPass:  []string{"t.py::test_a"}, PassToPass: []string{},
		})
	}
	return reposDir, insts
}

func TestRunResumesAndReevaluatesChangedPatches(t *testing.T) {
	t.Parallel()
	reposDir, insts := echoFixture(t, 3)
	h, store := newHarness(t, reposDir, grading.ModePolyBench)
	jobs := make([]Job, len(insts))
	for i, in := range insts {
		jobs[i] = Job{Instance: in, Prediction: dataset.Prediction{InstanceID: in.InstanceID, ModelNameOrPath: "m/x", ModelPatch: in.Patch}}
	}
	var events int
	res, err := h.Run(context.Background(), jobs, store, RunOptions{Workers: 2, Progress: func(Event) { events++ }})
	if err != nil {
		t.Fatal(err)
	}
	if res.Evaluated != 3 || res.Skipped != 0 || events != 3 {
		t.Fatalf("first run evaluated %d skipped %d events %d", res.Evaluated, res.Skipped, events)
	}
	for _, r := range res.Records {
		if !r.Resolved {
			t.Fatalf("%s unresolved: %+v", r.InstanceID, r.Verdicts.PolyBench)
		}
	}
	dir := store.RecordDir(jobs[0].Key())
	for _, f := range []string{runrecord.ResultFile, runrecord.LogFile, runrecord.PatchFile, runrecord.CommandFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("record file %s: %v", f, err)
		}
	}
	if !strings.Contains(dir, filepath.Join("m__x", "acme__echo-a", "run-0")) {
		t.Errorf("record dir %s", dir)
	}
	// Same command again: everything skipped.
	res, err = h.Run(context.Background(), jobs, store, RunOptions{Workers: 2})
	if err != nil || res.Skipped != 3 || res.Evaluated != 0 {
		t.Fatalf("second run: evaluated %d skipped %d err %v", res.Evaluated, res.Skipped, err)
	}
	// A changed patch is evaluated again and replaces the record.
	jobs[1].Prediction.ModelPatch = ""
	res, err = h.Run(context.Background(), jobs, store, RunOptions{Workers: 2})
	if err != nil || res.Skipped != 2 || res.Evaluated != 1 {
		t.Fatalf("third run: evaluated %d skipped %d err %v", res.Evaluated, res.Skipped, err)
	}
	rec, ok, err := store.Load(jobs[1].Key())
	if err != nil || !ok || rec.Status != grading.StatusEmptyPatch || rec.PatchSHA256 != jobs[1].Key().PatchSHA256 {
		t.Errorf("replaced record %+v ok %v err %v", rec, ok, err)
	}
	// A changed dataset row (here the test command) is evaluated again too.
	jobs[2].Instance.TestCommand += " # changed"
	res, err = h.Run(context.Background(), jobs, store, RunOptions{Workers: 2})
	if err != nil || res.Skipped != 2 || res.Evaluated != 1 {
		t.Fatalf("fourth run: evaluated %d skipped %d err %v", res.Evaluated, res.Skipped, err)
	}

	// The records hold it all (the report over them is tested in package report).
	resolved, empty := 0, 0
	for _, j := range jobs {
		rec, ok, err := store.Load(j.Key())
		if err != nil || !ok {
			t.Fatalf("%s: record %v %v", j.Instance.InstanceID, ok, err)
		}
		if rec.Verdicts.PolyBench.Resolved && rec.Verdicts.Strict.Resolved {
			resolved++
		}
		if !rec.Generation {
			empty++
		}
	}
	if resolved != 2 || empty != 1 {
		t.Errorf("records: resolved %d, empty %d; want 2, 1", resolved, empty)
	}
}

func TestRunCancelled(t *testing.T) {
	t.Parallel()
	reposDir, insts := echoFixture(t, 2)
	h, store := newHarness(t, reposDir, grading.ModePolyBench)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	jobs := []Job{{Instance: insts[0], Prediction: dataset.Prediction{InstanceID: insts[0].InstanceID, ModelPatch: insts[0].Patch}}}
	res, err := h.Run(ctx, jobs, store, RunOptions{Workers: 1})
	if !errors.Is(err, context.Canceled) || !res.Interrupted || res.Recorded() != 0 {
		t.Errorf("err %v interrupted %v recorded %d", err, res.Interrupted, res.Recorded())
	}
	if !strings.Contains(err.Error(), "interrupted after") || !strings.Contains(err.Error(), "0/1 instances recorded") {
		t.Errorf("error %q", err)
	}
}

func TestStoreLock(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := OpenStore(dir); !errors.Is(err, ErrLocked) {
		t.Errorf("second open: %v, want ErrLocked", err)
	}
	s.Close()
	s2, err := OpenStore(dir)
	if err != nil {
		t.Fatalf("reopen after close: %v", err)
	}
	s2.Close()
}

// BenchmarkEvaluateOverhead measures the harness's own cost per instance:
// workspace, apply (test patch and model patch), a trivial test command,
// parse, grade and record. Report: ns/op per instance.
func BenchmarkEvaluateOverhead(b *testing.B) {
	reposDir, insts := echoFixture(b, 1)
	in := insts[0]
	in.TestPatch = ""
	h, store := newHarness(b, reposDir, grading.ModePolyBench)
	p := dataset.Prediction{InstanceID: in.InstanceID, ModelNameOrPath: "m", ModelPatch: in.Patch}
	var testS float64
	for b.Loop() {
		rec, art, err := h.Evaluate(context.Background(), in, p)
		if err != nil || !rec.Resolved {
			b.Fatalf("err %v rec %+v", err, rec)
		}
		if err := store.Save(rec, art); err != nil {
			b.Fatal(err)
		}
		testS += rec.Timing.TestS
	}
	b.ReportMetric(testS/float64(b.N)*1e9, "test-ns/op")
}

// TestStoreRetriesHarnessErrors: a recorded result is reused, but a record
// of a harness error (the environment, not the patch) is evaluated again.
func TestStoreRetriesHarnessErrors(t *testing.T) {
	t.Parallel()
	s, err := OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, c := range []struct {
		status grading.Status
		done   bool
	}{{grading.StatusResolved, true}, {grading.StatusError, false}} {
		k := runrecord.Key{InstanceID: "o__r-1", Model: "m", Run: 0, PatchSHA256: string(c.status)}
		if err := s.Save(&runrecord.Record{Key: k, Schema: runrecord.RecordSchema, Status: c.status}, Artifacts{}); err != nil {
			t.Fatal(err)
		}
		if _, done := s.Done(k); done != c.done {
			t.Errorf("status %s: Done = %v, want %v", c.status, done, c.done)
		}
	}
}
