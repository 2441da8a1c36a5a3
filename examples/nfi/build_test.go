// Package nfisample holds the bundled SWE-NFI sample: 12 Python tasks
// written for polynfi (src/<task>/: task.json, before/, after/, tests/,
// variants/) and the predictions of two made-up agents
// (src/predictions.tsv); and, in multilang/, the same for a JavaScript, a
// TypeScript and a Java task (multilang/src/, gold predictions only). The
// test in this file checks that each tasks.jsonl and predictions.jsonl is
// what its sources give; `go test ./examples/nfi -update` regenerates them.
package nfisample

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite tasks.jsonl and predictions.jsonl from src/")

type fileJSON struct {
	Path   string `json:"path"`
	Before string `json:"before"`
	After  string `json:"after"`
}

type testFile struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

type taskJSON struct {
	InstanceID  string     `json:"instance_id"`
	Repo        string     `json:"repo"`
	Description string     `json:"description"`
	Aspect      string     `json:"aspect"`
	Scope       string     `json:"scope"`
	Files       []fileJSON `json:"files"`
	Tests       []testFile `json:"tests"`
	TestCommand string     `json:"test_command"`
	CreatedAt   string     `json:"created_at,omitempty"`
}

type predJSON struct {
	InstanceID string            `json:"instance_id"`
	Model      string            `json:"model_name_or_path"`
	Run        int               `json:"run"`
	ModelPatch *string           `json:"model_patch,omitempty"`
	Files      map[string]string `json:"files,omitempty"`
	DurationS  float64           `json:"duration_s"`
	TokensIn   int64             `json:"tokens_in"`
	TokensOut  int64             `json:"tokens_out"`
	CostUSD    float64           `json:"cost_usd"`
}

// readTree returns path → content of the regular files under dir.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "__pycache__" || d.Name() == ".pytest_cache" || d.Name() == "node_modules" || d.Name() == "build") {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			out[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func buildTask(t *testing.T, dir string) taskJSON {
	t.Helper()
	var tk taskJSON
	b, err := os.ReadFile(filepath.Join(dir, "task.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &tk); err != nil {
		t.Fatalf("%s/task.json: %v", dir, err)
	}
	before, after := readTree(t, filepath.Join(dir, "before")), readTree(t, filepath.Join(dir, "after"))
	for _, p := range sortedKeys(after) {
		tk.Files = append(tk.Files, fileJSON{Path: p, Before: before[p], After: after[p]})
	}
	tests := readTree(t, filepath.Join(dir, "tests"))
	for _, p := range sortedKeys(tests) {
		tk.Tests = append(tk.Tests, testFile{Path: "tests/" + p, Content: tests[p]})
	}
	return tk
}

// unifiedDiff returns the git diff that turns before into after (path → content).
func unifiedDiff(t *testing.T, before, after map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=polynfi", "GIT_AUTHOR_EMAIL=sample@polynfi.invalid",
			"GIT_COMMITTER_NAME=polynfi", "GIT_COMMITTER_EMAIL=sample@polynfi.invalid",
			"GIT_AUTHOR_DATE=2024-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2024-01-01T00:00:00Z")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return string(out)
	}
	write := func(files map[string]string) {
		for p, c := range files {
			full := filepath.Join(dir, p)
			os.MkdirAll(filepath.Dir(full), 0o755)
			if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	git("init", "-q")
	write(before)
	git("add", "-A")
	git("commit", "-q", "-m", "before")
	write(after)
	return git("diff", "--no-color")
}

func build(t *testing.T, root string) (tasks, preds []byte) {
	t.Helper()
	src := filepath.Join(root, "src")
	byName := map[string]taskJSON{}
	dirs, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	var tb bytes.Buffer
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		tk := buildTask(t, filepath.Join(src, d.Name()))
		byName[d.Name()] = tk
		line, _ := json.Marshal(tk)
		tb.Write(line)
		tb.WriteByte('\n')
	}
	f, err := os.Open(filepath.Join(src, "predictions.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var pb bytes.Buffer
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		c := strings.Split(line, "\t")
		if len(c) != 9 {
			t.Fatalf("predictions.tsv:%d: want 9 columns, got %d", n, len(c))
		}
		tk, ok := byName[c[2]]
		if !ok {
			t.Fatalf("predictions.tsv:%d: unknown task %q", n, c[2])
		}
		p := predJSON{InstanceID: tk.InstanceID, Model: c[0]}
		p.Run, _ = strconv.Atoi(c[1])
		p.DurationS, _ = strconv.ParseFloat(c[5], 64)
		p.TokensIn, _ = strconv.ParseInt(c[6], 10, 64)
		p.TokensOut, _ = strconv.ParseInt(c[7], 10, 64)
		p.CostUSD, _ = strconv.ParseFloat(c[8], 64)
		before := map[string]string{}
		for _, f := range tk.Files {
			before[f.Path] = f.Before
		}
		var out map[string]string
		switch c[3] {
		case "empty":
			out = map[string]string{}
		case "gold":
			out = map[string]string{}
			for _, f := range tk.Files {
				out[f.Path] = f.After
			}
		case "none":
			out = before
		default:
			vdir := filepath.Join(src, c[2], "variants", c[3])
			if _, err := os.Stat(vdir); err != nil {
				t.Fatalf("predictions.tsv:%d: variant %q: %v", n, c[3], err)
			}
			out = map[string]string{}
			for k, v := range before {
				out[k] = v
			}
			for k, v := range readTree(t, vdir) {
				out[k] = v
			}
		}
		switch c[4] {
		case "files":
			if len(out) > 0 {
				p.Files = out
			} else {
				empty := ""
				p.ModelPatch = &empty
			}
		case "diff":
			d := ""
			if len(out) > 0 {
				d = unifiedDiff(t, before, out)
			}
			p.ModelPatch = &d
		default:
			t.Fatalf("predictions.tsv:%d: form %q: want files or diff", n, c[4])
		}
		rec, _ := json.Marshal(p)
		pb.Write(rec)
		pb.WriteByte('\n')
	}
	return tb.Bytes(), pb.Bytes()
}

func TestSampleUpToDate(t *testing.T) {
	for _, root := range []string{".", "multilang"} {
		sampleUpToDate(t, root)
	}
}

func sampleUpToDate(t *testing.T, root string) {
	tasks, preds := build(t, root)
	for _, f := range []struct {
		name string
		data []byte
	}{{filepath.Join(root, "tasks.jsonl"), tasks}, {filepath.Join(root, "predictions.jsonl"), preds}} {
		if *update {
			if err := os.WriteFile(f.name, f.data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(f.name)
		if err != nil {
			t.Fatalf("%v (run go test ./examples/nfi -update)", err)
		}
		if !bytes.Equal(got, f.data) {
			t.Errorf("%s is stale: run go test ./examples/nfi -update", f.name)
		}
	}
}
