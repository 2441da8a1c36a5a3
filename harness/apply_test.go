package harness

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/clones"
	"github.com/polynfi/polynfi/diff"
	"github.com/polynfi/polynfi/runrecord"
	"github.com/polynfi/polynfi/runtime"
)

// TestApplyCascadeScriptMatchesSteps: the cascade run as one script
// (applyCascade) gives the record the cascade run one command per step
// gives (cascadeFrom without records), and leaves the same tree, for a
// patch applied at each of the cascade's places, one that no method
// applies, one that does not parse strictly (GNU patch not tried), and a
// patch that makes a symbolic link out of the tree, which the check
// after the apply refuses; and a script cut after any of its steps (its first k records,
// the rest run one by one after a reset) ends the same way. Real git and
// GNU patch in the local runtime.
func TestApplyCascadeScriptMatchesSteps(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "o__r")
	lines := func(prefix string) string {
		var b strings.Builder
		for i := 1; i <= 12; i++ {
			b.WriteString(prefix + strings.Repeat("x", i) + "\n")
		}
		return b.String()
	}
	makeRepo(t, dir, map[string]string{"a.txt": lines("a"), "b.txt": lines("b")})
	patch := diffOf(t, dir, map[string]string{
		"a.txt": strings.Replace(lines("a"), "axxxxxx\n", "CHANGED\n", 1),
		"b.txt": strings.Replace(lines("b"), "bxxxxxx\n", "CHANGED\n", 1),
	})
	noIndex := regexp.MustCompile(`(?m)^index [0-9a-f]+\.\.[0-9a-f]+.*\n`).ReplaceAllString(patch, "")
	run(t, dir, "sed", "-i", "s/^bxxxx$/bYYYY/", "b.txt")
	run(t, dir, "git", "commit", "--quiet", "-am", "drift")
	head := run(t, dir, "git", "rev-parse", "HEAD")
	clean := diffOf(t, dir, map[string]string{"a.txt": strings.Replace(lines("a"), "ax\n", "FIRST\n", 1)})
	// A file the tree does not have.
	fails := strings.ReplaceAll(clean, "a.txt", "nothere.txt")
	// Not strict: a hunk whose counts are wrong (git apply refuses it too).
	loose := strings.Replace(clean, "@@ -1,4 +1,4 @@", "@@ -1,9 +1,9 @@", 1)
	// A link out of the tree, which git apply makes: the check of the
	// patch's paths before the apply (which refuses it) is not made here,
	// so the check of what the apply wrote is what finds it.
	link := "diff --git a/evil b/evil\nnew file mode 120000\n--- /dev/null\n+++ b/evil\n@@ -0,0 +1 @@\n+/etc/passwd\n\\ No newline at end of file\n"

	repos := clones.New(filepath.Dir(dir), t.TempDir())
	local := runtime.NewLocal(context.Background(), runtime.LocalOptions{})
	t.Cleanup(func() { local.Close() })
	type outcome struct {
		res    runrecord.ApplyResult
		err    string
		status string
	}
	// evaluate applies patch in a fresh work tree with apply and returns
	// what it did.
	evaluate := func(t *testing.T, patch string, apply func(*tree, []cascadeStep) (runrecord.ApplyResult, error)) outcome {
		ws, remove, err := repos.Workspace(context.Background(), "o/r", head, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(remove)
		sb, err := local.Start(context.Background(), runtime.Spec{Workdir: ws})
		if err != nil {
			t.Fatal(err)
		}
		wt := &tree{sb: sb, tmp: t.TempDir()}
		t.Cleanup(wt.endSession)
		parsed, _ := diff.Parse(patch)
		copies := map[string]string{}
		files := patchFiles("p.diff", patch, parsed, copies)
		at, err := wt.copyPatches(context.Background(), copies)
		if err != nil {
			t.Fatal(err)
		}
		res, err := apply(wt, cascadeSteps(files.at(at)))
		o := outcome{res: res}
		if err != nil {
			o.err = err.Error()
		}
		st, err := wt.script(context.Background(), `g status --porcelain --untracked-files=all --ignored && g diff`)
		if err != nil {
			t.Fatal(err)
		}
		o.status = string(st)
		return o
	}
	for _, c := range []struct {
		name, patch, method string
		applied             bool
		attempts            int
		rejected            bool
	}{
		{"clean", clean, "git apply --verbose", true, 1, false},
		{"3way", patch, "git apply --verbose --3way", true, 2, false},
		{"fuzz", noIndex, "patch --batch --fuzz=5 -p1 --forward", true, 4, false},
		{"fails", fails, "", false, 4, false},
		{"not strict", loose, "", false, 4, false},
		{"link out", link, "", false, 1, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var recs []cascadeRecord
			script := evaluate(t, c.patch, func(wt *tree, steps []cascadeStep) (runrecord.ApplyResult, error) {
				var cut bool
				var err error
				recs, cut, err = runCascadeScript(context.Background(), wt, steps, head, nil)
				if err != nil || cut {
					t.Fatalf("script: %v (cut %v)", err, cut)
				}
				res, _, err := cascadeFrom(context.Background(), wt, steps, recs, false, head)
				return res, err
			})
			steps := evaluate(t, c.patch, func(wt *tree, steps []cascadeStep) (runrecord.ApplyResult, error) {
				res, _, err := cascadeFrom(context.Background(), wt, steps, nil, false, head)
				return res, err
			})
			if !reflect.DeepEqual(script, steps) {
				t.Fatalf("one script:\n%+v\nstep by step:\n%+v", script, steps)
			}
			r := script.res
			if r.Applied != c.applied || r.Method != c.method || len(r.Attempts) != c.attempts || strings.Contains(script.err, ErrPatchRejected.Error()) != c.rejected {
				t.Fatalf("cascade %+v (error %q), want applied %v by %q at attempt %d, rejected %v", r, script.err, c.applied, c.method, c.attempts, c.rejected)
			}
			if c.name == "not strict" && !strings.HasPrefix(r.Attempts[3].Output, "not tried: ") {
				t.Errorf("GNU patch given a patch that does not parse strictly: %+v", r.Attempts[3])
			}
			if c.rejected && script.status != "" {
				t.Errorf("a rejected apply left the tree changed:\n%s", script.status)
			}
			if len(recs) == 0 {
				t.Fatal("the script reported no step")
			}
			// The snapshot taken in the same command is the one taken
			// after the cascade (a fixed identity and date: the same
			// commit), and none is offered when nothing applied.
			paths := []string{"a.txt", "b.txt", "dir/new.txt", "evil"}
			pre := lookups(paths)
			var sha, want string
			var got, wantTypes []bool
			types := func(l func(string) (os.FileMode, bool)) (out []bool) {
				for _, q := range pre {
					m, ok := l(q)
					out = append(out, ok, m&os.ModeSymlink != 0)
				}
				return out
			}
			ahead := evaluate(t, c.patch, func(wt *tree, _ []cascadeStep) (runrecord.ApplyResult, error) {
				files := cascadeFiles{raw: "p.diff", canonical: "canonical-p.diff"}
				if strings.HasPrefix(script.res.Attempts[len(script.res.Attempts)-1].Output, "not tried") {
					files.canonical = ""
				}
				files = files.at(map[string]string{"p.diff": wt.tmp + "/p.diff", "canonical-p.diff": wt.tmp + "/canonical-p.diff"})
				res, ans, err := cascadeByScript(context.Background(), wt, cascadeSteps(files), head, pre)
				if (ans != nil) != res.Applied {
					t.Errorf("snapshot answer %q for a cascade that applied: %v", ans, res.Applied)
				}
				if ans != nil {
					s, l, aerr := snapshotAnswer(pre, ans)
					if aerr != nil {
						t.Fatal(aerr)
					}
					sha, got = s, types(l)
				}
				return res, err
			})
			if c.applied {
				evaluate(t, c.patch, func(wt *tree, steps []cascadeStep) (runrecord.ApplyResult, error) {
					res, _, err := cascadeFrom(context.Background(), wt, steps, nil, false, head)
					s, l, serr := snapshot(context.Background(), wt, paths)
					if serr != nil {
						t.Fatal(serr)
					}
					want, wantTypes = s, types(l)
					return res, err
				})
				if sha == "" || sha != want || !reflect.DeepEqual(got, wantTypes) {
					t.Errorf("snapshot in the cascade %s %v, after it %s %v", sha, got, want, wantTypes)
				}
			}
			if !reflect.DeepEqual(ahead.res, script.res) || ahead.err != script.err {
				t.Errorf("with the snapshot: %+v %q, without %+v %q", ahead.res, ahead.err, script.res, script.err)
			}
			for k := range len(recs) {
				cut := evaluate(t, c.patch, func(wt *tree, steps []cascadeStep) (runrecord.ApplyResult, error) {
					// The script given the first k steps only, then cut.
					part, _, err := runCascadeScript(context.Background(), wt, steps[:k], head, nil)
					if err != nil || len(part) != k {
						t.Fatalf("script of %d steps: %d records, %v", k, len(part), err)
					}
					res, _, err := cascadeFrom(context.Background(), wt, steps, part, true, head)
					return res, err
				})
				if !reflect.DeepEqual(cut, script) {
					t.Errorf("script cut after %d steps:\n%+v\nwhole:\n%+v", k, cut, script)
				}
			}
		})
	}
}

// TestParseCascade: cascadeScript's records are read up to the first that
// does not frame; an attempt's listing of changed paths is taken only
// when whole.
func TestParseCascade(t *testing.T) {
	t.Parallel()
	out := "A\x001\x003\x00abc0\x00r\x00n\x00R\x00128\x005\x00fatal"
	recs := parseCascade([]byte(out), 10)
	want := []cascadeRecord{{tag: 'A', code: 1, out: []byte("abc"), err: []byte{}}, {tag: 'r'}, {tag: 'n'}, {tag: 'R', code: 128, err: []byte("fatal")}}
	if !reflect.DeepEqual(recs, want) {
		t.Fatalf("records %+v, want %+v", recs, want)
	}
	if got := parseCascade([]byte(out), 2); len(got) != 2 {
		t.Errorf("at most 2 records: %d", len(got))
	}
	// A length past the end, a tag that is no tag: the records before.
	for _, bad := range []string{"r\x00A\x000\x009\x00abc", "r\x00Zz\x00r\x00", "r\x00A\x00x\x000\x000\x00"} {
		if got := parseCascade([]byte(bad), 10); len(got) != 1 || got[0].tag != 'r' {
			t.Errorf("%q: %+v, want the first record only", bad, got)
		}
	}
	ok := "A\x000\x000\x000\x00W\x000\x004\x00a\x00f\x000\x00"
	recs = parseCascade([]byte(ok), 10)
	if len(recs) != 1 || recs[0].written == nil || string(recs[0].written.out) != "a\x00f\x00" {
		t.Fatalf("%+v, want an attempt with its listing", recs)
	}
	recs = parseCascade([]byte(ok[:len(ok)-3]), 10)
	if len(recs) != 1 || recs[0].written != nil {
		t.Fatalf("%+v, want an attempt without its cut listing", recs)
	}
}
