package harness

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/diff"
)

// CleanRoom is the clean-room re-run of a record (Harness.CleanRoom): the
// FAIL_TO_PASS and PASS_TO_PASS tests run again in a fresh sandbox with
// the model patch's source paths applied and every other path it changed
// (Dropped: configuration, build scripts, runner plugins, test helpers,
// data) as base + test patch have it. Ran is false when there was nothing
// to re-run (Skipped says why: the patch changes source paths only, or it
// cannot be split). Verdicts are the re-run's; Tampered is set when its
// resolved differs from the run's in any mode, Reason then says how. TotalS
// is the re-run's wall time in seconds (sandbox, apply, tests); TestS its
// test command's.
type CleanRoom struct {
	Ran      bool      `json:"ran"`
	Skipped  string    `json:"skipped,omitempty"`
	Dropped  []string  `json:"dropped,omitempty"`
	Status   Status    `json:"status,omitempty"`
	Verdicts *Verdicts `json:"verdicts,omitempty"`
	Tampered bool      `json:"tampered"`
	Reason   string    `json:"reason,omitempty"`
	Error    string    `json:"error,omitempty"`
	TotalS   float64   `json:"total_s"`
	TestS    float64   `json:"test_s"`
}

// sourceExts are the extensions of program source files.
var sourceExts = map[string]bool{
	".py": true, ".pyi": true, ".pyx": true, ".js": true, ".jsx": true, ".mjs": true, ".cjs": true,
	".ts": true, ".tsx": true, ".mts": true, ".cts": true, ".vue": true, ".svelte": true,
	".java": true, ".kt": true, ".scala": true, ".groovy": true, ".go": true, ".rs": true,
	".c": true, ".h": true, ".cc": true, ".cpp": true, ".cxx": true, ".hpp": true, ".cs": true,
	".rb": true, ".php": true, ".swift": true, ".m": true,
}

// reBuildScript matches the base names of source-language files that build,
// configure or drive the tests rather than being the program: setup.py,
// noxfile.py, fabfile.py, tasks.py (invoke), *.config.js and its kin
// (webpack, rollup, vite, jest, babel, eslint, prettier, karma...),
// .*rc.js files, Gruntfile.js, gulpfile.js, build.gradle's Groovy.
var reBuildScript = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(setup\.py|noxfile\.py|fabfile\.py|tasks\.py|dodo\.py|.*\.config\.[cm]?[jt]s|\..*rc\.[cm]?[jt]s|[Gg]runtfile\.[cm]?[jt]s|[Gg]ulpfile\.[cm]?[jt]s|karma\.conf\.[cm]?[jt]s|.*\.gradle|Jenkinsfile)$`)
})

// IsSourcePath reports whether p (slash-separated, relative to the
// repository) is program source: a file with a source language's
// extension that is neither a test file nor a runner's configuration
// (isTestFile: test names, test directories, conftest.py, ...), nor a
// build or configuration script (reBuildScript), nor under a hidden
// top-level directory (.github/, .circleci/, .mvn/). Everything else is
// non-source: the clean room takes it from base + test patch.
func IsSourcePath(p string) bool {
	if !sourceExts[strings.ToLower(path.Ext(p))] || isTestFile(p) || reBuildScript().MatchString(path.Base(p)) {
		return false
	}
	for _, el := range strings.Split(path.Dir(p), "/") {
		if strings.HasPrefix(el, ".") && el != "." {
			return false
		}
	}
	return true
}

// SourceOnly splits prediction p into the prediction of its source paths
// (IsSourcePath) and the paths it leaves out, sorted. ok is false, with the
// reason, when p's patch cannot be re-rendered without them (diff.Canonical:
// renames, binary files, modes).
func SourceOnly(p dataset.Prediction) (q dataset.Prediction, dropped []string, ok bool, reason string) {
	q = p
	if len(p.Files) > 0 {
		q.Files = map[string]string{}
		for f, c := range p.Files {
			if IsSourcePath(f) {
				q.Files[f] = c
			} else {
				dropped = append(dropped, f)
			}
		}
		sort.Strings(dropped)
		return q, dropped, true, ""
	}
	files, err := diff.Parse(p.ModelPatch)
	if err != nil {
		return p, nil, false, err.Error()
	}
	var kept []diff.File
	for _, f := range files {
		if IsSourcePath(f.Path()) && (f.OldPath == "" || IsSourcePath(f.OldPath)) {
			kept = append(kept, f)
		} else {
			dropped = append(dropped, f.Path())
		}
	}
	sort.Strings(dropped)
	if len(dropped) == 0 {
		return p, nil, true, ""
	}
	out, ok, why := diff.Canonical(kept)
	if !ok {
		return p, dropped, false, why
	}
	q.ModelPatch = out
	return q, dropped, true, ""
}

// cleanRoom runs rec's clean-room re-run (see CleanRoom) when its tests
// ran with the model patch applied, and makes rec tampered when the two
// disagree. A re-run that fails for the harness or the environment leaves
// rec's verdicts as they are, with the error in rec.CleanRoom.
func (h *Harness) cleanRoom(ctx context.Context, in dataset.Instance, p dataset.Prediction, rec *Record) {
	if !rec.PatchApplied || rec.Test == nil {
		return
	}
	cr := &CleanRoom{}
	rec.CleanRoom = cr
	t0 := time.Now()
	defer func() { cr.TotalS = time.Since(t0).Seconds() }()
	q, dropped, ok, why := SourceOnly(p)
	cr.Dropped = dropped
	switch {
	case !ok:
		cr.Skipped = "the model patch cannot be split: " + why
		return
	case len(dropped) == 0:
		cr.Skipped = "the model patch changes source paths only: the clean room would run what the run ran"
		return
	}
	if (len(q.Files) == 0 && strings.TrimSpace(q.ModelPatch) == "") || (len(p.Files) > 0 && len(q.Files) == 0) {
		// Nothing of the program changed: base + test patch alone.
		q.ModelPatch, q.Files = "", nil
	}
	cr.Ran = true
	sub := &Record{Key: rec.Key, PolyBenchOutput: PolyBenchOutput{PassedTests: []string{}, FailedTests: []string{}}}
	var art Artifacts
	var err error
	if q.Empty() {
		// The tests on base + test patch: the evaluation of no patch.
		err = h.evaluateEmpty(ctx, in, q, sub, &art)
	} else {
		err = h.evaluate(ctx, in, q, sub, &art, nil, false)
	}
	cr.TestS = sub.Timing.TestS
	if err != nil {
		cr.Error = err.Error()
		return
	}
	cr.Verdicts = &sub.Verdicts
	cr.Status = sub.Verdicts.Get(h.NativeMode).Status
	if cr.Status == StatusInfraFailure || cr.Status == StatusError || cr.Status == StatusPatchFailed || cr.Status == StatusPatchRejected {
		cr.Error = fmt.Sprintf("the clean room did not grade: %s %s", cr.Status, sub.Verdicts.Get(h.NativeMode).Reason)
		return
	}
	var differ []string
	for _, m := range []struct {
		name string
		a, b Verdict
	}{{"polybench", rec.Verdicts.PolyBench, sub.Verdicts.PolyBench}, {"swebench", rec.Verdicts.SWEBench, sub.Verdicts.SWEBench}, {"strict", rec.Verdicts.Strict, sub.Verdicts.Strict}} {
		if m.a.Resolved != m.b.Resolved {
			differ = append(differ, fmt.Sprintf("%s %s in the run, %s in the clean room", m.name, word(m.a.Resolved), word(m.b.Resolved)))
		}
	}
	if len(differ) == 0 {
		return
	}
	cr.Tampered = true
	cr.Reason = fmt.Sprintf("clean room (without %s): %s", strings.Join(firstPaths(dropped, 3), ", "), strings.Join(differ, "; "))
	rec.Verdicts = AllModes(StatusTampered, cr.Reason)
}

// evaluateEmpty evaluates the tests on base + test patch alone, as
// validation's no-patch run does.
func (h *Harness) evaluateEmpty(ctx context.Context, in dataset.Instance, q dataset.Prediction, rec *Record, art *Artifacts) error {
	hh := &Harness{Repos: h.Repos, Runtime: h.Runtime, Images: h.Images, Limits: h.Limits, RunKey: h.RunKey, ScratchDir: h.ScratchDir,
		Timeout: h.Timeout, Env: h.Env, Writable: h.Writable, ReadOnly: h.ReadOnly, NativeMode: h.NativeMode, RunID: h.RunID,
		RunEmpty: true, Validation: h.Validation}
	err := hh.evaluate(ctx, in, q, rec, art, nil, false)
	hh.removals.Wait()
	return err
}

func word(resolved bool) string {
	if resolved {
		return "resolved"
	}
	return "unresolved"
}

func firstPaths(ps []string, n int) []string {
	if len(ps) > n {
		return append(append([]string(nil), ps[:n]...), fmt.Sprintf("%d more", len(ps)-n))
	}
	return ps
}
