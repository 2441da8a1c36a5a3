package cli

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/internal/citest"

	"github.com/google/go-cmp/cmp"
)

const metricsFixtureA = `"""Store helpers.

Two lines of docstring.
"""
import os


class Store:
    """A key-value store."""

    limit = 10 if os.name else 20

    def get(self, key, default=None):
        # look the key up
        if key in self.data and key:
            return self.data[key]
        return default

    def put(self, key, value):
        def check(v):
            return v if v is not None else 0
        self.data[key] = check(value)

    class Inner:
        def hidden(self):
            return 1


def walk(root):
    for dirpath, dirs, files in os.walk(root):
        for f in files:
            if f.endswith(".py") or f.endswith(".pyi"):
                yield os.path.join(dirpath, f)
    else:
        pass
    try:
        pass
    except OSError:
        pass
    else:
        pass
`

const metricsFixtureB = `x = [i for i in range(10) if i % 2]  # module-level comprehension
y = {"a": 1}; z = lambda q: q if q else None


async def fetch(session, urls):
    match urls:
        case []:
            return None
        case [one]:
            return await session.get(one)
        case _:
            return [await session.get(u) for u in urls]
`

func writeMetricsFixture(t *testing.T) (dir string, files []string) {
	t.Helper()
	dir = t.TempDir()
	for name, src := range map[string]string{"a.py": metricsFixtureA, "pkg/b.py": metricsFixtureB} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	return dir, []string{filepath.Join(dir, "a.py"), filepath.Join(dir, "pkg", "b.py")}
}

func radonJSON(t *testing.T, sub string, files []string) map[string]any {
	t.Helper()
	out, err := exec.Command("radon", append([]string{sub, "-j"}, files...)...).Output()
	if err != nil {
		t.Fatalf("radon %s: %v", sub, err)
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMetricsMatchesRadon runs `polynfi metrics --format json` end to end on
// a small fixture tree and compares it with radon cc, raw and mi.
func TestMetricsMatchesRadon(t *testing.T) {
	if _, err := exec.LookPath("radon"); err != nil {
		citest.Missing(t, "radon is not installed (pip install radon==6.0.1)")
	}
	dir, files := writeMetricsFixture(t)
	stdout, stderr, code := runCLI(t, "metrics", "--format", "json", dir)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got map[string][]map[string]any
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("output is not radon-shaped JSON: %v\n%s", err, stdout)
	}
	cc, raw, mi := radonJSON(t, "cc", files), radonJSON(t, "raw", files), radonJSON(t, "mi", files)
	for _, f := range files {
		blocks, ok := got[f]
		if !ok || len(blocks) == 0 {
			t.Fatalf("%s missing from output", f)
		}
		module := blocks[len(blocks)-1]
		if module["type"] != "module" {
			t.Fatalf("%s: last block is %v, want the module block", f, module["type"])
		}
		var radonBlocks []any
		for _, b := range blocks[:len(blocks)-1] {
			radonBlocks = append(radonBlocks, any(b))
		}
		if diff := cmp.Diff(cc[f], any(radonBlocks)); diff != "" {
			t.Errorf("%s: blocks differ from radon cc -j (-radon +polynfi):\n%s", f, diff)
		}
		r := raw[f].(map[string]any)
		for _, k := range []string{"loc", "lloc", "sloc", "comments", "multi", "blank", "single_comments"} {
			if module[k] != r[k] {
				t.Errorf("%s: %s = %v, radon raw %v", f, k, module[k], r[k])
			}
		}
		m := mi[f].(map[string]any)
		if d := math.Abs(module["mi"].(float64) - m["mi"].(float64)); d > 1e-9 || module["mi_rank"] != m["rank"] {
			t.Errorf("%s: mi %v (%v), radon %v (%v)", f, module["mi"], module["mi_rank"], m["mi"], m["rank"])
		}
	}
}

func TestMetricsText(t *testing.T) {
	dir, files := writeMetricsFixture(t)
	stdout, stderr, code := runCLI(t, "metrics", dir)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		files[0] + "\n",
		"    F 29:0 walk - B (8)\n",
		"    M 19:4 Store.put - A (1)\n",
		"    F 20:8 Store.put.check - A (2)\n",
		"    C 8:0 Store - A (4)\n",
		"    F 5:0 fetch - A (4)\n",
		"mi ",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Index(stdout, files[0]) > strings.Index(stdout, files[1]) {
		t.Errorf("files are not in path order:\n%s", stdout)
	}
}

func TestMetricsErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.py")
	if err := os.WriteFile(bad, []byte("def f(:\n    pass\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCLI(t, "metrics", "--format", "json", bad)
	if code != ExitError {
		t.Errorf("syntax error: exit %d, want %d", code, ExitError)
	}
	var got map[string]map[string]string
	if err := json.Unmarshal([]byte(stdout), &got); err != nil || got[bad]["error"] == "" {
		t.Errorf("want {path: {error: ...}}, got %s (%v)", stdout, err)
	}
	if !strings.Contains(stderr, "bad.py") || !strings.Contains(stderr, `syntax_error at 1:7: invalid syntax`) {
		t.Errorf("stderr should name the file, line and column as polynfi score does: %q", stderr)
	}
	bin := filepath.Join(dir, "bin.py")
	if err := os.WriteFile(bin, []byte("x = 1\n\x00\x01"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, "metrics", bin); code != ExitError || !strings.Contains(stderr, "binary at 2:1: NUL byte") {
		t.Errorf("binary file: exit %d, stderr %q; want exit %d and the NUL byte's position", code, stderr, ExitError)
	}
	if _, _, code := runCLI(t, "metrics", "--format", "xml", bad); code != ExitUsage {
		t.Errorf("--format xml: exit %d, want %d", code, ExitUsage)
	}
	if _, _, code := runCLI(t, "metrics", filepath.Join(dir, "missing.py")); code == ExitOK {
		t.Error("missing file: exit 0")
	}
}

// TestMetricsUnicodeIdentifiers: names with combining marks, which CPython
// and radon cc accept, are measured (issue #18: metrics failed on them) and
// the blocks equal radon cc's, names NFKC-normalized as radon's are.
func TestMetricsUnicodeIdentifiers(t *testing.T) {
	if _, err := exec.LookPath("radon"); err != nil {
		citest.Missing(t, "radon is not installed (pip install radon==6.0.1)")
	}
	dir := t.TempDir()
	f := filepath.Join(dir, "marks.py")
	src := "def cafe\u0301(x\u0301, n\u0303=1):\n    if x\u0301 and n\u0303:\n        return n\u0303\n    return 0\n\n\n" +
		"class Na\u0308ive:\n    def m\u0327(self, a):\n        return a if a else -a\n"
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCLI(t, "metrics", "--format", "json", f)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got map[string][]map[string]any
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	blocks := got[f]
	if len(blocks) == 0 || blocks[len(blocks)-1]["type"] != "module" {
		t.Fatalf("no module block for %s: %s", f, stdout)
	}
	var ours []any
	for _, b := range blocks[:len(blocks)-1] {
		ours = append(ours, any(b))
	}
	if diff := cmp.Diff(radonJSON(t, "cc", []string{f})[f], any(ours)); diff != "" {
		t.Errorf("blocks differ from radon cc -j (-radon +polynfi):\n%s", diff)
	}
}
