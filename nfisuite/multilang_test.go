package nfisuite

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/catalog"
	"github.com/polynfi/polynfi/runtime"
)

// TestGoldOnMultilangSample runs the bundled SWE-NFI tasks in JavaScript
// (node --test), TypeScript (tsc, then node --test) and Java (javac, then
// java) with gold as the human reference, under the sandbox, scored by the
// default catalog: each is valid and functionally correct, its I_p equals
// I_p(h), and I_p(h) is positive in the task's target aspect when the
// catalog has rules for its language. For a language without rules (Java
// until its catalog lands) every aspect is n/a: no S_p on either side and
// no I_p, never 0. The gold predictions of multilang/predictions.jsonl, as
// files and as a diff, give the same records.
//
// tsc comes from the bundled PolyBench sample's toolchain
// (examples/polybench/env/setup.sh), put on PATH and shown to the sandbox.
func TestGoldOnMultilangSample(t *testing.T) {
	for _, tool := range []string{"node", "javac", "java"} {
		if _, err := exec.LookPath(tool); err != nil {
			citest.Missing(t, "%s not on PATH", tool)
		}
	}
	nodeModules, err := filepath.Abs("../examples/polybench/env/node/node_modules")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(nodeModules, ".bin", "tsc")); err != nil {
		citest.Missing(t, "tsc: run examples/polybench/env/setup.sh (%v)", err)
	}
	t.Setenv("PATH", filepath.Join(nodeModules, ".bin")+string(os.PathListSeparator)+os.Getenv("PATH"))

	ts, err := dataset.LoadNFITasks("../examples/nfi/multilang/tasks.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(ts.Errors) > 0 {
		t.Fatalf("task errors: %v", ts.Errors)
	}
	cat, err := catalog.Get(catalog.Default)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := nfi.NewEngine(cat, nfi.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	local := runtime.NewLocal(context.Background(), runtime.LocalOptions{Toolchains: []string{nodeModules}})
	t.Cleanup(func() { local.Close() })
	s := &Suite{Engine: eng, Runner: local, WorkDir: t.TempDir()}

	langs := map[string]bool{}
	for _, task := range ts.Tasks {
		l := nfi.SourceLanguage(task.Files[0].Path)
		langs[l.String()] = true
	}
	for _, l := range []string{"javascript", "typescript", "java"} {
		if !langs[l] {
			t.Errorf("no %s task in the sample (languages %v)", l, langs)
		}
	}

	preds, err := dataset.LoadPredictions("../examples/nfi/multilang/predictions.jsonl")
	if err != nil || len(preds.Errors) > 0 {
		t.Fatalf("predictions: %v %v", err, preds.Errors)
	}
	all := append(GoldPredictions(ts.Tasks), preds.Predictions...)
	res, err := s.Run(context.Background(), ts.Tasks, all, RunOptions{Out: t.TempDir(), Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Evaluated != len(all) || res.Missing != 0 {
		t.Fatalf("evaluated %d, missing %d; want %d, 0", res.Evaluated, res.Missing, len(all))
	}
	byTask := map[string]*dataset.NFITask{}
	for i := range ts.Tasks {
		byTask[ts.Tasks[i].InstanceID] = &ts.Tasks[i]
	}
	for _, r := range res.Records {
		if !r.Valid || !r.FunctionallyCorrect {
			t.Errorf("%s (%s): valid=%v correct=%v status=%s tests %d/%d %s", r.InstanceID, r.Model, r.Valid, r.FunctionallyCorrect,
				r.TestStatus, r.TestsPassed, r.TestsTotal, r.InvalidDetail)
			continue
		}
		if r.TestsTotal < 5 || r.TestsPassed != r.TestsTotal {
			t.Errorf("%s (%s): %d of %d tests passed, want all of at least 5", r.InstanceID, r.Model, r.TestsPassed, r.TestsTotal)
		}
		lang := nfi.SourceLanguage(byTask[r.InstanceID].Files[0].Path)
		target, _ := nfi.ParseAspect(r.Aspect)
		for _, a := range nfi.Aspects {
			got, ok1 := r.Improvement.Get(a)
			want, ok2 := r.Human.Get(a)
			if got != want || ok1 != ok2 {
				t.Errorf("%s (%s) %s: gold I_p %v (%v) != I_p(h) %v (%v)", r.InstanceID, r.Model, a.Code(), got, ok1, want, ok2)
			}
			if !eng.HasRules(lang) {
				_, b := r.Before.Get(a)
				_, c := r.After.Get(a)
				if ok2 || b || c {
					t.Errorf("%s: %s has no rules, yet %s has a score (I_p(h) %v, before %v, after %v)", r.InstanceID, lang, a.Code(), ok2, b, c)
				}
			}
		}
		if eng.HasRules(lang) {
			if v, ok := r.Human.Get(target); !ok || v <= 0 {
				t.Errorf("%s (%s): I_p(h) in the target aspect %s is %v (%v), want > 0", r.InstanceID, lang, r.Aspect, v, ok)
			}
		}
	}
}
