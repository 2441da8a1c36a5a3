package retrieval

import (
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// SWE-PolyBench's documented file-level example: reference {src/main.py,
// README.md}; prediction {src/bar/main.py, README.md, foo.md, bar.md} →
// recall 0.5, precision 0.25. The hunks' line counts are wrong in the
// original (as here), which only the header scan tolerates.
// Source: SWE-PolyBench test/metrics/test_patch_metrics.py.
func TestFileLevelDocumentedExample(t *testing.T) {
	t.Parallel()
	sec := func(p string) string {
		return "diff --git a/" + p + " b/" + p + "\nindex 1234567..8901234 100644\n--- a/" + p + "\n+++ b/" + p +
			"\n@@ -10,7 +10,7 @@ def main():\n     print(\"Hello, World!\")\n-    x = 1\n+    x = 2\n\n"
	}
	ref := "\n" + sec("src/main.py") + sec("README.md")
	pred := "\n" + sec("src/bar/main.py") + sec("README.md") + sec("foo.md") + sec("bar.md")
	m, err := Evaluate(Input{InstanceID: "x", Reference: ref, Prediction: pred}, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m.File.Recall != 0.5 || m.File.Precision != 0.25 {
		t.Errorf("got recall %v precision %v, want 0.5, 0.25", m.File.Recall, m.File.Precision)
	}
	if want := 2 * 0.5 * 0.25 / 0.75; math.Abs(m.File.F1-want) > 1e-12 {
		t.Errorf("F1: got %v, want %v", m.File.F1, want)
	}
}

func TestFileLevelModes(t *testing.T) {
	t.Parallel()
	ref := mkPatch(change{oldPath: "a.py", newPath: "a.py", after: "x = 1\n", isNew: true}, modify("b.py", "1\n", "2\n"))
	pred := mkPatch(change{oldPath: "c.py", newPath: "c.py", after: "y = 1\n", isNew: true}, modify("b.py", "1\n", "3\n"))
	tests := []struct {
		mode      Mode
		refFiles  []string
		predFiles []string
		want      Scores
	}{
		// Every added file is "/dev/null": two different new files match.
		{Compatible, []string{"/dev/null", "b.py"}, []string{"/dev/null", "b.py"}, Scores{1, 1, 1}},
		{Extended, []string{"a.py", "b.py"}, []string{"b.py", "c.py"}, Scores{0.5, 0.5, 0.5}},
	}
	for _, tt := range tests {
		m, err := Evaluate(Input{Reference: ref, Prediction: pred}, nil, Options{Mode: tt.mode})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(tt.refFiles, m.ReferenceFiles); d != "" {
			t.Errorf("%s reference files (-want +got):\n%s", tt.mode, d)
		}
		if d := cmp.Diff(tt.predFiles, m.PredictedFiles); d != "" {
			t.Errorf("%s predicted files (-want +got):\n%s", tt.mode, d)
		}
		if m.File != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.mode, m.File, tt.want)
		}
	}
}

func TestScore(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ref, pred []string
		want      Scores
	}{
		{nil, nil, Scores{}},
		{[]string{"a"}, nil, Scores{}},
		{nil, []string{"a"}, Scores{}},
		{[]string{"a", "b"}, []string{"a"}, Scores{Precision: 1, Recall: 0.5, F1: 2.0 / 3}},
		{[]string{"a", "a"}, []string{"a", "a"}, Scores{1, 1, 1}},
	}
	for _, tt := range tests {
		if got := Score(tt.ref, tt.pred); cmp.Diff(tt.want, got, cmpopts.EquateApprox(0, 1e-12)) != "" {
			t.Errorf("Score(%v, %v) = %+v, want %+v", tt.ref, tt.pred, got, tt.want)
		}
	}
}

const evalBefore = "class K:\n    def __init__(self):\n        self.a = 1\n\n    def run(self):\n        return 1\n\n\ndef helper():\n    return 2\n"

func TestEvaluateNodes(t *testing.T) {
	t.Parallel()
	base := MemSource{"k.py": evalBefore, "README.md": "hello\n"}
	ref := mkPatch(modify("k.py", evalBefore, strings.Replace(evalBefore, "return 1", "return 10", 1)))
	good := ref
	other := mkPatch(modify("k.py", evalBefore, strings.Replace(evalBefore, "return 2", "return 20", 1)))
	moduleOnly := mkPatch(modify("README.md", "hello\n", "bye\n"))
	conflicting := mkPatch(modify("k.py", strings.Replace(evalBefore, "return 1", "return 5", 1), evalBefore))
	missing := mkPatch(modify("nope.py", "a = 1\n", "a = 2\n"))
	privateJS := mkPatch(modify("p.js", "class P {\n  #s() {\n    return 1;\n  }\n}\n", "class P {\n  #s() {\n    return 2;\n  }\n}\n"))
	base["p.js"] = "class P {\n  #s() {\n    return 1;\n  }\n}\n"

	tests := []struct {
		name       string
		in         Input
		opts       Options
		wantStatus NodeStatus
		wantNode   *Scores
		wantFile   Scores
		wantClass  Complexity
	}{
		{"gold", Input{Reference: ref, Prediction: good}, Options{}, NodeOK, &Scores{1, 1, 1}, Scores{1, 1, 1}, SingleFunc},
		{"other function", Input{Reference: ref, Prediction: other}, Options{}, NodeOK, &Scores{}, Scores{1, 1, 1}, SingleFunc},
		{"empty prediction", Input{Reference: ref, Prediction: "  \n"}, Options{}, NodeFailedPrediction, &Scores{}, Scores{}, SingleFunc},
		{"unapplied prediction", Input{Reference: ref, Prediction: good}, Options{Unapplied: true}, NodeFailedPrediction, &Scores{}, Scores{}, SingleFunc},
		{"conflicting prediction", Input{Reference: ref, Prediction: conflicting}, Options{}, NodeFailedPrediction, &Scores{}, Scores{1, 1, 1}, SingleFunc},
		{"prediction on missing file", Input{Reference: ref, Prediction: missing}, Options{}, NodeFailedPrediction, &Scores{}, Scores{}, SingleFunc},
		{"unnamed node in prediction", Input{Reference: ref, Prediction: privateJS}, Options{}, NodeFailedPrediction, &Scores{}, Scores{}, SingleFunc},
		{"unnamed node, extended", Input{Reference: ref, Prediction: privateJS}, Options{Mode: Extended}, NodeOK, &Scores{}, Scores{}, SingleFunc},
		{"no reference nodes", Input{Reference: moduleOnly, Prediction: good}, Options{}, NodeNoReference, nil, Scores{}, ComplexityNone},
		// A failed prediction is checked first, as in SWE-PolyBench.
		{"no reference nodes, failed prediction", Input{Reference: moduleOnly, Prediction: conflicting}, Options{}, NodeFailedPrediction, &Scores{}, Scores{}, ComplexityNone},
		{"reference does not apply", Input{Reference: conflicting, Prediction: good}, Options{}, NodeFailedReference, nil, Scores{1, 1, 1}, ""},
		{"modified_nodes used", Input{Reference: ref, Prediction: good, ReferenceNodes: []string{"k.py->module->class_definition:K->function_definition:run", "k.py->module->function_definition:helper"}}, Options{}, NodeOK, &Scores{Precision: 1, Recall: 0.5, F1: 2.0 / 3}, Scores{1, 1, 1}, FuncOnly},
		{"modified_nodes empty", Input{Reference: ref, Prediction: good, ReferenceNodes: []string{}}, Options{}, NodeNoReference, nil, Scores{1, 1, 1}, ComplexityNone},
		{"modified_nodes ignored in extended", Input{Reference: ref, Prediction: good, ReferenceNodes: []string{}}, Options{Mode: Extended}, NodeOK, &Scores{1, 1, 1}, Scores{1, 1, 1}, SingleFunc},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.opts.Nodes = true
			m, err := Evaluate(tt.in, base, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if m.NodeStatus != tt.wantStatus {
				t.Errorf("status: got %s (%s), want %s", m.NodeStatus, m.NodeError, tt.wantStatus)
			}
			if d := cmp.Diff(tt.wantNode, m.Node, cmpopts.EquateApprox(0, 1e-12)); d != "" {
				t.Errorf("node scores (-want +got):\n%s", d)
			}
			if m.File != tt.wantFile {
				t.Errorf("file scores: got %+v, want %+v", m.File, tt.wantFile)
			}
			if m.Complexity != tt.wantClass {
				t.Errorf("complexity: got %q, want %q", m.Complexity, tt.wantClass)
			}
		})
	}
}

func TestEvaluateSourceError(t *testing.T) {
	t.Parallel()
	boom := SourceFunc(func(string) ([]byte, bool, error) { return nil, false, os.ErrPermission })
	ref := mkPatch(modify("k.py", evalBefore, strings.Replace(evalBefore, "return 1", "return 10", 1)))
	_, err := Evaluate(Input{InstanceID: "i1", Reference: ref, Prediction: ref}, boom, Options{Nodes: true})
	if err == nil || !strings.Contains(err.Error(), "i1") {
		t.Errorf("got %v, want an error naming the instance", err)
	}
}

func TestClassify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		keys []string
		want Complexity
	}{
		{nil, ComplexityNone},
		{[]string{"f.py->module->function_definition:f"}, SingleFunc},
		{[]string{"f.py->module->function_definition:f", "f.py->module->class_definition:A->function_definition:g"}, FuncOnly},
		{[]string{"f.py->module->class_definition:A"}, SingleClass},
		// A constructor counts as its class: one class node, no function.
		{[]string{"f.py->module->class_definition:A->function_definition:__init__"}, SingleClass},
		{[]string{"f.py->module->class_definition:A", "f.py->module->class_definition:A->function_definition:__init__"}, SingleClass},
		{[]string{"f.py->module->function_definition:__init__"}, SingleFunc}, // not in a class
		{[]string{"B.java->program->class_declaration:B->constructor_declaration:B", "B.java->program->class_declaration:C"}, ClassOnly},
		{[]string{"s.js->program->class_declaration:S->method_definition:constructor", "s.js->program->function_declaration:h"}, ComplexityMixed},
		{[]string{"s.ts->program->class_declaration:S->method_definition:run", "s.ts->program->class_declaration:S"}, ComplexityMixed},
		// Go, Rust, C, C++, PHP, Ruby (langs.go).
		{[]string{"d.go->source_file->type_spec:Duration", "d.go->source_file->method_declaration:Duration.String"}, ComplexityMixed},
		{[]string{"src/lib.rs->source_file->impl_item:Roman->function_item:new"}, SingleFunc},
		{[]string{"src/lib.rs->source_file->struct_item:Roman", "src/lib.rs->source_file->trait_item:Parse"}, ClassOnly},
		{[]string{"a.c->translation_unit->struct_specifier:buf"}, SingleClass},
		{[]string{"a.cpp->translation_unit->class_specifier:P->function_definition:P", "a.cpp->translation_unit->class_specifier:P"}, SingleClass},
		{[]string{"a.cpp->translation_unit->namespace_definition:n->function_definition:f"}, SingleFunc},
		{[]string{"A.php->program->class_declaration:A->method_declaration:__construct", "A.php->program->trait_declaration:T"}, ClassOnly},
		{[]string{"a.rb->program->module:M->class:C->method:initialize"}, SingleClass},
		{[]string{"a.rb->program->module:M->method:initialize"}, SingleFunc}, // not in a class
	}
	for _, tt := range tests {
		if got := Classify(tt.keys); got != tt.want {
			t.Errorf("Classify(%v) = %s, want %s", tt.keys, got, tt.want)
		}
	}
	if d := cmp.Diff([]Complexity{SingleFunc, FuncOnly}, SingleFunc.Classes()); d != "" {
		t.Errorf("SingleFunc.Classes: %s", d)
	}
}

func TestSummarize(t *testing.T) {
	t.Parallel()
	ms := []InstanceMetrics{
		{Language: "Python", TaskCategory: "Bug Fix", File: Scores{1, 1, 1}, Node: &Scores{1, 1, 1}, Complexity: SingleFunc},
		{Language: "Python", TaskCategory: "Feature", File: Scores{0, 0, 0}, Node: nil, Complexity: ComplexityNone},
		{Language: "Java", TaskCategory: "Bug Fix", File: Scores{0.5, 1, 2.0 / 3}, Node: &Scores{0, 0, 0}, Complexity: ComplexityMixed},
	}
	s := Summarize(ms)
	if s.Overall.Instances != 3 || s.Overall.File.N != 3 || s.Overall.Node.N != 2 {
		t.Errorf("overall denominators: got %+v", s.Overall)
	}
	if s.Overall.File.Precision != 0.5 || s.Overall.Node.Recall != 0.5 {
		t.Errorf("overall means: got %+v", s.Overall)
	}
	var names []string
	for _, g := range s.ByLanguage {
		names = append(names, g.Name)
	}
	if d := cmp.Diff([]string{"Java", "Python"}, names); d != "" {
		t.Errorf("languages: %s", d)
	}
	if py := s.ByLanguage[1]; py.Instances != 2 || py.File.Recall != 0.5 || py.Node.N != 1 || py.Node.F1 != 1 {
		t.Errorf("Python group: got %+v", py)
	}
	var cx []string
	for _, g := range s.ByComplexity {
		cx = append(cx, g.Name+":"+string(rune('0'+g.Instances)))
	}
	if d := cmp.Diff([]string{"none:1", "single_func:1", "func_only:1", "mixed:1"}, cx); d != "" {
		t.Errorf("complexity groups: %s", d)
	}
}

func TestGitSource(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("init", "-q")
	if err := os.MkdirAll(filepath.Join(dir, "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pkg", "k.py"), []byte(evalBefore), 0o644); err != nil {
		t.Fatal(err)
	}
	run("add", ".")
	run("commit", "-q", "-m", "base")
	commit := run("rev-parse", "HEAD")
	// A later change in the work tree must not be seen.
	if err := os.WriteFile(filepath.Join(dir, "pkg", "k.py"), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	src := NewGitSource(context.Background(), dir, commit)
	got, ok, err := src.ReadFile("pkg/k.py")
	if err != nil || !ok || string(got) != evalBefore {
		t.Errorf("ReadFile existing: got %q, %v, %v", got, ok, err)
	}
	if _, ok, err := src.ReadFile("pkg/none.py"); ok || err != nil {
		t.Errorf("ReadFile missing: got ok=%v err=%v, want false, nil", ok, err)
	}
	if _, ok, err := src.ReadFile("pkg"); ok || err != nil {
		t.Errorf("ReadFile of a directory: got ok=%v err=%v, want false, nil", ok, err)
	}
	bad := NewGitSource(context.Background(), dir, strings.Repeat("0", 40))
	if _, _, err := bad.ReadFile("pkg/k.py"); err == nil {
		t.Error("ReadFile at an unknown commit: got no error")
	}

	ref := mkPatch(modify("pkg/k.py", evalBefore, strings.Replace(evalBefore, "return 1", "return 10", 1)))
	m, err := Evaluate(Input{Reference: ref, Prediction: ref}, src, Options{Nodes: true})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"pkg/k.py->module->class_definition:K->function_definition:run"}, m.PredictedNodes); d != "" || m.Node == nil || m.Node.F1 != 1 {
		t.Errorf("Evaluate over git: nodes diff %s, node scores %+v", d, m.Node)
	}
}

func TestParseMode(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"compatible", "extended"} {
		m, err := ParseMode(s)
		if err != nil || m.String() != s {
			t.Errorf("ParseMode(%q) = %v, %v", s, m, err)
		}
	}
	if _, err := ParseMode("strict"); err == nil {
		t.Error("ParseMode(strict): got no error")
	}
}
