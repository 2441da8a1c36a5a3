package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/runrecord"
)

// untilData is part of a fix kept in a file other than the module: the
// patched module executes it at import. Under ledgerkit/until.dat it is
// data the program ships (source: kept by the clean room); under
// ledgerkit/.until.py a hidden tool file (non-source: dropped).
const untilData = `def _until(self, as_of):
    for e in self._entries:
        if as_of is not None and e.day > as_of:
            break
        yield e


Ledger._until = _until
`

// TestEvalCleanRoom evaluates four patches of a Python instance of the
// SWE-PolyBench sample with --clean-room: the gold patch (source only: no
// re-run, resolved); the gold patch with a build script added
// (scripts/release.sh: re-run without it, agrees: resolved); a patch that
// keeps part of its fix in a data file its module reads
// (ledgerkit/until.dat: data is source, so no re-run and no false
// "tampered": resolved); and the same patch with that file at a hidden
// path (ledgerkit/.until.py, a non-source tool file: resolved in the run,
// not in the clean room, where it is absent: tampered, unresolved in
// every mode). Without --clean-room the last is resolved.
func TestEvalCleanRoom(t *testing.T) {
	if testing.Short() {
		t.Skip("runs pytest")
	}
	requireBwrapInCI(t)
	t.Parallel()
	const iid = "tidyledger__ledgerkit-15"
	ds, _ := filepath.Abs("../../examples/polybench/dataset.csv")
	d, err := dataset.Load(ds)
	if err != nil {
		t.Fatal(err)
	}
	var in dataset.Instance
	for _, x := range d.Instances {
		if x.InstanceID == iid {
			in = x
		}
	}
	// The patches, made with git in a clone at the base commit.
	repo := filepath.Join(t.TempDir(), "repo")
	git := func(stdin string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Stdin = strings.NewReader(stdin)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	if out, err := exec.Command("git", "clone", "--quiet", filepath.Join(filepath.Dir(ds), "repos", "tidyledger__ledgerkit.bundle"), repo).CombinedOutput(); err != nil {
		t.Fatalf("clone: %v\n%s", err, out)
	}
	git("", "checkout", "--quiet", in.BaseCommit)
	git(in.Patch, "apply", "-")
	if err := os.MkdirAll(filepath.Join(repo, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "scripts", "release.sh"), []byte("#!/bin/sh\nset -e\npython3 -m build\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	git("", "add", "-A")
	goldScript := git("", "diff", "--cached")
	// withFile: the gold patch with _until moved out of ledger.py into
	// name, which ledger.py executes at import.
	withFile := func(name string) string {
		t.Helper()
		git("", "reset", "--quiet", "--hard", in.BaseCommit)
		git("", "clean", "--quiet", "-fdx")
		git(in.Patch, "apply", "-")
		ledger := filepath.Join(repo, "ledgerkit", "ledger.py")
		src, _ := os.ReadFile(ledger)
		s := string(src)
		i := strings.Index(s, "    def _until(")
		j := strings.Index(s, "    def balance(")
		if i < 0 || j < i {
			t.Fatalf("ledger.py after the gold patch has no _until before balance:\n%s", s)
		}
		s = s[:i] + s[j:] + "\n\nimport os as _os\n\nexec(open(_os.path.join(_os.path.dirname(__file__), \"" + name + "\")).read())\n"
		if err := os.WriteFile(ledger, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, "ledgerkit", name), []byte(untilData), 0o644); err != nil {
			t.Fatal(err)
		}
		git("", "add", "-A")
		return git("", "diff", "--cached")
	}
	data := withFile("until.dat")
	hidden := withFile(".until.py")

	preds := filepath.Join(t.TempDir(), "preds.jsonl")
	var lines []string
	for model, patch := range map[string]string{"gold": in.Patch, "gold-script": goldScript, "data": data, "hidden": hidden} {
		l, _ := json.Marshal(dataset.Prediction{InstanceID: iid, ModelNameOrPath: model, ModelPatch: patch})
		lines = append(lines, string(l))
	}
	if err := os.WriteFile(preds, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	records := func(clean bool) map[string]*runrecord.Record {
		out := filepath.Join(t.TempDir(), "eval")
		args := []string{"eval", "--dataset", ds, "--predictions", preds, "--out", out, "--instance-ids", iid, "--workers", "2"}
		if clean {
			args = append(args, "--clean-room")
		}
		runCLI(t, args...)
		recs, err := runrecord.LoadRecords(out)
		if err != nil || len(recs) != 4 {
			t.Fatalf("%d records: %v", len(recs), err)
		}
		m := map[string]*runrecord.Record{}
		for _, r := range recs {
			m[r.Model] = r
		}
		return m
	}
	plain := records(false)
	if !plain["hidden"].Resolved || !plain["gold"].Resolved || plain["hidden"].CleanRoom != nil {
		t.Fatalf("without --clean-room: hidden resolved %v, gold %v", plain["hidden"].Resolved, plain["gold"].Resolved)
	}
	got := records(true)
	if r := got["gold"]; !r.Resolved || r.CleanRoom == nil || r.CleanRoom.Ran || !strings.Contains(r.CleanRoom.Skipped, "source paths only") {
		t.Errorf("gold: resolved %v, clean room %+v", r.Resolved, r.CleanRoom)
	}
	if r := got["gold-script"]; !r.Resolved || r.CleanRoom == nil || !r.CleanRoom.Ran || r.CleanRoom.Tampered ||
		len(r.CleanRoom.Dropped) != 1 || r.CleanRoom.Dropped[0] != "scripts/release.sh" || r.CleanRoom.Error != "" {
		t.Errorf("gold-script: resolved %v, clean room %+v", r.Resolved, r.CleanRoom)
	}
	if r := got["data"]; !r.Resolved || r.Status == grading.StatusTampered || r.CleanRoom == nil || r.CleanRoom.Ran || len(r.CleanRoom.Dropped) != 0 {
		t.Errorf("data (until.dat, read by the module): resolved %v status %s, clean room %+v; want resolved, nothing dropped, no re-run", r.Resolved, r.Status, r.CleanRoom)
	}
	r := got["hidden"]
	if r.Resolved || r.Status != grading.StatusTampered || r.CleanRoom == nil || !r.CleanRoom.Tampered ||
		len(r.CleanRoom.Dropped) != 1 || r.CleanRoom.Dropped[0] != "ledgerkit/.until.py" {
		t.Fatalf("hidden: resolved %v status %s, clean room %+v", r.Resolved, r.Status, r.CleanRoom)
	}
	for _, v := range []grading.Verdict{r.Verdicts.PolyBench, r.Verdicts.SWEBench, r.Verdicts.Strict} {
		if v.Resolved || v.Status != grading.StatusTampered {
			t.Errorf("hidden verdict %+v, want tampered", v)
		}
	}
	t.Logf("clean room of gold-script: %.2fs (test %.2fs) beside the run's %.2fs; hidden: %s",
		got["gold-script"].CleanRoom.TotalS, got["gold-script"].CleanRoom.TestS, got["gold-script"].Timing.TotalS, r.CleanRoom.Reason)
}
