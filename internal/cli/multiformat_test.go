package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiffSeveralFormatsOneRun: one diff run writes several formats of
// one comparison (issue 25, 7(a)): --format without =PATH goes to standard
// output, each FORMAT=PATH to its file, each the same as the run of that
// format alone. Two formats on standard output, a path named twice and an
// unknown format are usage errors; --out with every format given a file is
// one too.
func TestDiffSeveralFormatsOneRun(t *testing.T) {
	a := writeTree(t, map[string]string{"m.py": "x = 1\n"})
	b := writeTree(t, map[string]string{"m.py": "def f():\n    try:\n        return 1\n    except:\n        return 2\n"})
	single := map[string]string{}
	for _, f := range []string{"github", "markdown", "sarif", "gitlab"} {
		out, errOut, code := run(t, "diff", "--isolated", "--format", f, a, b)
		if code != ExitOK || out == "" {
			t.Fatalf("%s alone: exit %d %s", f, code, errOut)
		}
		single[f] = out
	}
	dir := t.TempDir()
	md, sarif := filepath.Join(dir, "summary.md"), filepath.Join(dir, "r.sarif")
	os.WriteFile(md, []byte("old content\n"), 0o644)
	out, errOut, code := run(t, "diff", "--isolated", "--format", "github", "--format", "markdown="+md, "--format", "sarif="+sarif, a, b)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if out != single["github"] {
		t.Errorf("stdout is not the github format:\n%s\nwant\n%s", out, single["github"])
	}
	for f, path := range map[string]string{"markdown": md, "sarif": sarif} {
		got, err := os.ReadFile(path)
		if err != nil || string(got) != single[f] {
			t.Errorf("%s file (%v):\n%s\nwant\n%s", f, err, got, single[f])
		}
	}
	// Only files: nothing on standard output; --out takes the stdout format.
	gl := filepath.Join(dir, "gl.json")
	if out, errOut, code := run(t, "diff", "--isolated", "--format", "gitlab="+gl, a, b); code != ExitOK || out != "" {
		t.Errorf("files only: exit %d, stdout %q, stderr %s", code, out, errOut)
	} else if got, _ := os.ReadFile(gl); string(got) != single["gitlab"] {
		t.Errorf("gitlab file:\n%s", got)
	}
	o := filepath.Join(dir, "o.txt")
	if _, errOut, code := run(t, "diff", "--isolated", "--format", "markdown", "--format", "github="+filepath.Join(dir, "g.txt"), "--out", o, a, b); code != ExitOK {
		t.Errorf("--out: exit %d %s", code, errOut)
	} else if got, _ := os.ReadFile(o); string(got) != single["markdown"] {
		t.Errorf("--out file:\n%s", got)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "github", "--format", "markdown"}, `already writes standard output`},
		{[]string{"--format", "json=" + o, "--format", "sarif=" + o}, `is already the file of --format "json=`},
		{[]string{"--format", "html=" + o}, `--format "html=`},
		{[]string{"--format", "json="}, `empty PATH`},
		{[]string{"--format", "json=" + o, "--out", md}, `every --format has its own =PATH`},
		{[]string{"--format", "json=" + dir}, `is a directory`},
	} {
		_, errOut, code := run(t, append(append([]string{"diff", "--isolated"}, c.args...), a, b)...)
		if code != ExitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, stderr %q, want exit 2 with %q", c.args, code, errOut, c.want)
		}
	}
}
