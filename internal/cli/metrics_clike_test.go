package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMetricsJavaScriptTypeScriptJava: polynfi metrics measures .js, .ts
// and .java files with their own front ends (a TypeScript file is not
// parsed as Python): per code path the complexity ESLint or PMD counts,
// the raw line counts, no Halstead volume or MI, and a file its grammar
// rejects is an error naming the line (exit 3).
func TestMetricsJavaScriptTypeScriptJava(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"a.js":      "// a\nfunction f(a) {\n  return a && a.b ? 1 : 2;\n}\n",
		"b.ts":      "export function g(x: number): number {\n  if (x > 0) {\n    return x;\n  }\n  return -x;\n}\n",
		"C.java":    "class C {\n  int m(int x) {\n    return x > 0 && x < 9 ? 1 : 0;\n  }\n}\n",
		"broken.ts": "export function (\n",
	}
	var args []string
	for _, name := range []string{"a.js", "b.ts", "C.java", "broken.ts"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	out, stderr, code := runCLI(t, append([]string{"metrics", "--format", "json"}, args...)...)
	if code != ExitError {
		t.Fatalf("exit %d, want 3 (a file could not be parsed)\n%s", code, stderr)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	type block struct {
		Type       string   `json:"type"`
		Name       string   `json:"name"`
		Complexity int      `json:"complexity"`
		LOC        int      `json:"loc"`
		Comments   int      `json:"comments"`
		MI         *float64 `json:"mi"`
		Language   string   `json:"language"`
	}
	for name, want := range map[string][]block{
		// && and ?: : ESLint counts both; PMD counts && in the ?: condition
		"a.js":   {{Type: "function", Name: "f", Complexity: 3}, {Type: "module", LOC: 4, Comments: 1, Language: "javascript"}},
		"b.ts":   {{Type: "function", Name: "g", Complexity: 2}, {Type: "module", LOC: 6, Language: "typescript"}},
		"C.java": {{Type: "method", Name: "m", Complexity: 3}, {Type: "module", LOC: 5, Language: "java"}},
	} {
		var bs []block
		if err := json.Unmarshal(got[filepath.Join(dir, name)], &bs); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(bs) != 2 || bs[0].Type != want[0].Type || bs[0].Name != want[0].Name || bs[0].Complexity != want[0].Complexity ||
			bs[1].Type != "module" || bs[1].LOC != want[1].LOC || bs[1].Comments != want[1].Comments || bs[1].MI != nil || bs[1].Language != want[1].Language {
			t.Errorf("%s: %+v, want %+v", name, bs, want)
		}
	}
	if e := string(got[filepath.Join(dir, "broken.ts")]); !strings.Contains(e, "syntax_error at 1:") {
		t.Errorf("broken.ts: %s, want a syntax error naming the line", e)
	}
}
