package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/runrecord"
)

// Run directories are not trusted (they are shared, downloaded, edited):
// a record file, or a directory of the run, replaced by a symbolic link is
// never followed. Each case copies one real run (eval of two gold
// predictions) and plants a link to a file or directory outside it; before,
// report --bundle copied the host file into the bundle, regrade --apply
// wrote through the linked regrades/, report read the linked record as the
// run's and a resumed eval reused it and wrote its record through a
// linked model directory.
func TestRunDirSymlinksNotFollowed(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 2, "0")
	run0 := t.TempDir()
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", run0); code != ExitOK {
		t.Fatal(stderr)
	}
	recs, err := runrecord.LoadRecords(run0)
	if err != nil || len(recs) != 2 {
		t.Fatalf("records %d %v", len(recs), err)
	}
	recDir := filepath.FromSlash(runrecord.RecordRelDir(recs[0].Key))
	const secret = "HOST-SECRET-7f3a"
	// copyRun copies the run into a new directory; outside is a directory
	// beside it holding a host file.
	copyRun := func(t *testing.T) (out, outside, hostFile string) {
		t.Helper()
		out = filepath.Join(t.TempDir(), "run")
		if b, err := exec.Command("cp", "-a", run0, out).CombinedOutput(); err != nil {
			t.Fatalf("cp: %v\n%s", err, b)
		}
		outside = t.TempDir()
		hostFile = filepath.Join(outside, "secret.txt")
		os.WriteFile(hostFile, []byte(secret+"\n"), 0o600)
		return out, outside, hostFile
	}
	link := func(t *testing.T, target, at string) {
		t.Helper()
		if err := os.RemoveAll(at); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, at); err != nil {
			t.Fatal(err)
		}
	}
	// grepTree reports the files under dir that contain s.
	grepTree := func(dir, s string) []string {
		var hits []string
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), s) {
					hits = append(hits, p)
				}
			}
			return nil
		})
		return hits
	}

	t.Run("bundle", func(t *testing.T) {
		out, _, host := copyRun(t)
		link(t, host, filepath.Join(out, recDir, runrecord.PatchFile))
		bundle := filepath.Join(t.TempDir(), "bundle")
		_, stderr, code := runCLI(t, "report", "--bundle", bundle, "--allow-incomplete", out)
		if hits := grepTree(filepath.Dir(bundle), secret); len(hits) > 0 {
			t.Fatalf("the host file was copied into the bundle: %v", hits)
		}
		if code != ExitError || !strings.Contains(stderr, runrecord.PatchFile) || !strings.Contains(stderr, "symbolic link") {
			t.Errorf("exit %d, want %d naming %s as a symbolic link\n%s", code, ExitError, runrecord.PatchFile, stderr)
		}
	})
	t.Run("regrade-apply", func(t *testing.T) {
		out, outside, _ := copyRun(t)
		link(t, outside, filepath.Join(out, "regrades"))
		_, stderr, code := runCLI(t, "regrade", "--apply", out)
		ents, _ := os.ReadDir(outside)
		if len(ents) != 1 {
			t.Fatalf("regrade --apply wrote through the linked regrades/: %d entries in %s", len(ents), outside)
		}
		if code != ExitError || !strings.Contains(stderr, "regrades") || !strings.Contains(stderr, "symbolic link") {
			t.Errorf("exit %d, want %d naming regrades as a symbolic link\n%s", code, ExitError, stderr)
		}
	})
	t.Run("report-record", func(t *testing.T) {
		out, outside, _ := copyRun(t)
		// The record moved outside the run, a link left in its place.
		res := filepath.Join(out, recDir, runrecord.ResultFile)
		moved := filepath.Join(outside, "result.json")
		if err := os.Rename(res, moved); err != nil {
			t.Fatal(err)
		}
		link(t, moved, res)
		stdout, stderr, _ := runCLI(t, "report", out)
		if strings.Contains(stdout, "resolved 2/2") || !strings.Contains(stdout+stderr, "symbolic link") {
			t.Errorf("report read the linked record as the run's (want it named unreadable, a symbolic link)\n%s\n%s", stdout, stderr)
		}
		if _, stderr, code := runCLI(t, "compare", out, out); code == ExitOK && !strings.Contains(stderr, "symbolic link") {
			t.Errorf("compare: exit 0 without naming the linked record\n%s", stderr)
		}
	})
	t.Run("eval-resume", func(t *testing.T) {
		out, outside, _ := copyRun(t)
		// The model's directory moved outside the run, a link left in its
		// place: a resumed eval neither reuses nor writes through it.
		model := filepath.Join(out, strings.Split(recDir, string(filepath.Separator))[0])
		moved := filepath.Join(outside, "model")
		if err := os.Rename(model, moved); err != nil {
			t.Fatal(err)
		}
		link(t, moved, model)
		before := grepTree(moved, "")
		stamp := map[string]int64{}
		for _, p := range before {
			fi, _ := os.Stat(p)
			stamp[p] = fi.ModTime().UnixNano()
		}
		_, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", out)
		for _, p := range grepTree(moved, "") {
			fi, _ := os.Stat(p)
			if old, ok := stamp[p]; !ok || old != fi.ModTime().UnixNano() {
				t.Errorf("eval wrote %s through the linked model directory", p)
			}
		}
		if code == ExitOK || !strings.Contains(stderr, "symbolic link") {
			t.Errorf("eval: exit %d, want an error naming the symbolic link\n%s", code, stderr)
		}
	})
}
