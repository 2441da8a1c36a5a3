package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// JavaScript and TypeScript in score and diff: a directory's .js/.ts files
// are found and judged by their language's rules, and diff --base's I_p
// and regression gate see a TypeScript change that adds `any` and `var`.
const tsClean = `/** Adds two numbers. */
export function add(a: number, b: number): number {
  return a + b;
}
`

const tsWorse = `/** Adds two numbers. */
export function add(a: any, b: number): number {
  var sum = a + b;
  if (sum == 0) {
    return 0;
  }
  return sum;
}
`

func TestScoreJavaScriptTypeScript(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"src/add.ts":             tsClean,
		"src/util.js":            "var x = 1;\n",
		"src/broken.tsx":         "let x: = ;\n",
		"node_modules/dep/i.js":  "var y = 2;\n",
		"src/m.py":               "\"\"\"Module.\"\"\"\n",
		"src/readme.md":          "not code\n",
		"src/types/global.d.ts":  "declare const g: number;\n",
		"src/lib/mod.mjs":        "export const z = 3;\n",
		"src/lib/legacy.cjs":     "module.exports = {};\n",
		"src/components/App.jsx": "export const App = () => <div />;\n",
	})
	t.Chdir(dir)
	out, _, code := run(t, "score", "--isolated", "--format", "json", "src")
	if code != ExitOK && code != ExitFindings {
		t.Fatalf("exit %d\n%s", code, out)
	}
	var got struct {
		Files []struct {
			Path   string
			Valid  bool
			Status string
			Scores map[string]float64
			Rules  []struct {
				ID     string
				Passed bool
			}
		}
		Summary struct{ Files, Valid, Invalid int }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	if got.Summary.Files != 8 || got.Summary.Invalid != 1 {
		t.Fatalf("summary %+v", got.Summary)
	}
	for _, f := range got.Files {
		if f.Path == "src/broken.tsx" {
			if f.Valid || f.Status != "syntax_error" {
				t.Errorf("%s: valid %v status %s", f.Path, f.Valid, f.Status)
			}
			continue
		}
		if !f.Valid || len(f.Scores) != 5 {
			t.Errorf("%s: valid %v, %d aspects", f.Path, f.Valid, len(f.Scores))
		}
		js := strings.HasPrefix(f.Rules[0].ID, "JS-")
		if js != !strings.HasSuffix(f.Path, ".py") {
			t.Errorf("%s judged by %s", f.Path, f.Rules[0].ID)
		}
		if f.Path == "src/util.js" {
			for _, r := range f.Rules {
				if r.ID == "JS-STY-P01" && r.Passed {
					t.Errorf("no-var passes var in %s", f.Path)
				}
			}
		}
	}
}

func TestDiffBaseTypeScriptRegression(t *testing.T) {
	dir := commitTree(t, map[string]string{"src/add.ts": tsClean})
	t.Chdir(dir)
	branch(t, dir, "worse", map[string]string{"src/add.ts": tsWorse})
	d, code, errOut := gateRun(t, "--fail-on", "regression")
	if !d.Valid || len(d.After) != 1 || d.After[0].Path != "src/add.ts" {
		t.Fatalf("diff: valid %v, after %+v (%s)", d.Valid, d.After, errOut)
	}
	for _, a := range []string{"STY", "LOG"} {
		if d.ImprovementPP[a] >= 0 {
			t.Errorf("%s I_p %v, want < 0", a, d.ImprovementPP[a])
		}
	}
	wantGate(t, "TypeScript regression", d, code, "src/add.ts")
	// the reverse change improves and passes the gate
	branch(t, dir, "better", map[string]string{"src/add.ts": tsWorse})
	git(t, dir, "branch", "-f", "main", "better")
	branch(t, dir, "fix", map[string]string{"src/add.ts": tsClean})
	d, code, _ = gateRun(t, "--fail-on", "regression")
	if code != ExitOK || d.ImprovementPP["LOG"] <= 0 {
		t.Errorf("fix: exit %d, I_p %v, gates %q", code, d.ImprovementPP, d.Gates)
	}
}
