package jsparse_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
	"github.com/polynfi/polynfi/syntax/jsparse"
)

// compareTrees returns "" when mine equals tree-sitter's tree node for
// node (kind, field, named, extra, byte span, parent; points follow from
// the spans and the line starts, compared once), else the first
// difference.
func compareTrees(ts *syntax.Tree, mine *jsparse.Tree) string {
	n := min(len(ts.Nodes), len(mine.Nodes))
	for i := 0; i < n; i++ {
		a, b := &ts.Nodes[i], &mine.Nodes[i]
		ak, bk := a.Kind(), jsparse.KindName(b.Kind)
		if ak != bk || a.Field() != jsparse.FieldName(b.Field) || a.Named != b.Named || a.Extra != b.Extra ||
			a.StartByte != b.StartByte || a.EndByte != b.EndByte || int32(a.Parent) != b.Parent {
			return fmt.Sprintf("node %d: tree-sitter %s:%s %d-%d parent %d; jsparse %s:%s %d-%d parent %d",
				i, a.Field(), ak, a.StartByte, a.EndByte, a.Parent,
				jsparse.FieldName(b.Field), bk, b.StartByte, b.EndByte, b.Parent)
		}
	}
	if !slices.Equal(ts.LineStarts(), mine.LineStarts) {
		return "line starts differ"
	}
	if len(ts.Nodes) != len(mine.Nodes) {
		return fmt.Sprintf("tree-sitter %d nodes, jsparse %d", len(ts.Nodes), len(mine.Nodes))
	}
	return ""
}

// corpusFiles returns every .js, .mjs and .cjs file of the npm packages
// the jsts oracle tests use (.ci/eslint-oracle.sh installs them in
// $POLYNFI_ESLINT_ORACLE, by default ~/.cache/polynfi/eslint-<version>:
// the corpus directory's packages and the linters' node_modules); JSPARSE_FILES names a file listing files to use
// instead. Without the corpus the test skips (fails under CI=true).
func corpusFiles(t testing.TB) []string {
	if list := os.Getenv("JSPARSE_FILES"); list != "" {
		b, err := os.ReadFile(list)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Fields(string(b))
	}
	// $POLYNFI_ESLINT_ORACLE, which .ci/fresh.sh sets (HOME there is an
	// empty directory), else ~/.cache/polynfi/eslint-<version>.
	dir := citest.Oracle(t, "POLYNFI_ESLINT_ORACLE", "eslint-"+nfi.ESLintVersion, ".ci/eslint-oracle.sh")
	var out []string
	filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !e.Type().IsRegular() {
			return nil
		}
		switch filepath.Ext(path) {
		case ".js", ".mjs", ".cjs":
			out = append(out, path)
		}
		return nil
	})
	if len(out) == 0 {
		citest.Missing(t, "no JavaScript file under %s (bash .ci/eslint-oracle.sh)", dir)
	}
	sort.Strings(out)
	return out
}

type diffStats struct {
	files, tsClean, accepted, identical int
	bytes, tsCleanBytes, acceptedBytes  int64
	unsupported                         map[string]int
	example                             map[string]string
	diffs                               []string
}

func runDifferential(t testing.TB, files []string) diffStats {
	p := syntax.NewParser()
	defer p.Close()
	st := diffStats{unsupported: map[string]int{}, example: map[string]string{}}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		st.files++
		st.bytes += int64(len(src))
		ts, err := p.Parse(syntax.JavaScript, src)
		if err != nil {
			t.Fatal(err)
		}
		if !ts.HasError() {
			st.tsClean++
			st.tsCleanBytes += int64(len(src))
		}
		mine, perr := jsparse.Parse(src)
		if perr != nil {
			var se *jsparse.SyntaxError
			if errors.As(perr, &se) {
				key := se.Msg
				if !errors.Is(perr, jsparse.ErrUnsupported) {
					key = "syntax: " + key
				}
				if st.unsupported[key] == 0 {
					st.example[key] = fmt.Sprintf("%s:%d", f, se.Offset)
				}
				st.unsupported[key]++
			}
			continue
		}
		st.accepted++
		st.acceptedBytes += int64(len(src))
		if d := compareTrees(ts, mine); d != "" {
			st.diffs = append(st.diffs, f+": "+d)
			continue
		}
		st.identical++
	}
	return st
}

// TestDifferential parses every corpus file with jsparse and tree-sitter:
// where jsparse accepts a file, its tree must be tree-sitter's, node for
// node. It logs the acceptance rate (files and bytes, of all files and of
// those tree-sitter parses without error) and why files were declined.
func TestDifferential(t *testing.T) {
	files := corpusFiles(t)
	st := runDifferential(t, files)
	if out := os.Getenv("JSPARSE_DIFFS"); out != "" {
		os.WriteFile(out, []byte(strings.Join(st.diffs, "\n")+"\n"), 0o644)
	}
	for i, d := range st.diffs {
		if i >= 20 {
			break
		}
		t.Error("tree:", d)
	}
	type kv struct {
		k string
		v int
	}
	var reasons []kv
	for k, v := range st.unsupported {
		reasons = append(reasons, kv{k, v})
	}
	sort.Slice(reasons, func(i, j int) bool { return reasons[i].v > reasons[j].v })
	for i, r := range reasons {
		if i >= 25 {
			break
		}
		t.Logf("declined %5d: %s (%s)", r.v, r.k, st.example[r.k])
	}
	t.Logf("%d files (%.1f MB); tree-sitter without error: %d (%.1f MB); jsparse accepts %d files (%.1f%% of error-free, %.1f%% of their bytes), identical trees on %d",
		st.files, float64(st.bytes)/1e6, st.tsClean, float64(st.tsCleanBytes)/1e6, st.accepted,
		100*float64(st.accepted)/float64(max(st.tsClean, 1)), 100*float64(st.acceptedBytes)/float64(max(st.tsCleanBytes, 1)), st.identical)
	if st.accepted == 0 {
		t.Fatal("jsparse accepted no file")
	}
	if len(st.diffs) > 0 {
		t.Errorf("%d of %d accepted files differ from tree-sitter", len(st.diffs), st.accepted)
	}
}
