package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/driver"
)

// TestScoreFrontEndsAgree runs `polynfi score --format json` over the
// machine's Python code twice, with the Go parser (the default) and with
// tree-sitter (nfi.Engine.TreeSitter, the front end before it, as the
// oracle), and checks that the output is byte-identical except for the
// documented validity fixes (docs/pyparse.md): a file only one front end
// rejects, and the error (CPython's position and message) of a file both
// reject. Every file both accept must give the same line, byte for byte,
// and so must the run header; the summaries may differ only in their
// counts of valid and invalid files and timings.
//
// The corpus is every .py file of the standard library and site-packages
// under CI=true or with PYPARSE_CORPUS=all (11,827 files here), else an
// even 300-file sample of the standard library; without python3 the test
// fails under CI=true.
func TestScoreFrontEndsAgree(t *testing.T) {
	var files []string
	if corpus.WholeCorpus() {
		files = corpus.All(t)
	} else {
		files = corpus.StdlibSample(t, 300)
	}
	// --exclude= so that no default exclude (site-packages, build)
	// drops a file
	run := func(treeSitter bool) []byte {
		driver.TestEngineHook = func(e *nfi.Engine) { e.TreeSitter = treeSitter }
		defer func() { driver.TestEngineHook = nil }()
		var o, e bytes.Buffer
		args := append([]string{"score", "--format", "json", "--isolated", "--exclude="}, files...)
		code := Main(context.Background(), args, &o, &e)
		if code != ExitOK && code != ExitError && code != ExitFindings {
			t.Fatalf("score (tree-sitter %v): exit %d: %s", treeSitter, code, e.String())
		}
		return o.Bytes()
	}
	goOut, tsOut := run(false), run(true)
	if out := os.Getenv("PYPARSE_SCORE_OUT"); out != "" {
		os.WriteFile(filepath.Join(out, "score-pyparse.json"), goOut, 0o644)
		os.WriteFile(filepath.Join(out, "score-treesitter.json"), tsOut, 0o644)
	}
	goLines, tsLines := bytes.Split(goOut, []byte("\n")), bytes.Split(tsOut, []byte("\n"))
	if len(goLines) != len(tsLines) {
		t.Fatalf("%d output lines with the Go parser, %d with tree-sitter", len(goLines), len(tsLines))
	}
	type rec struct {
		Path   string         `json:"path"`
		Status string         `json:"status"`
		Error  *nfi.FileError `json:"error"`
	}
	var same, bothOK, fixedReject, fixedAccept, bothReject, bad int
	var summaries [2][]byte
	for i := range goLines {
		g, s := goLines[i], tsLines[i]
		if bytes.HasPrefix(g, []byte(`"summary": `)) {
			summaries = [2][]byte{g, s}
			continue
		}
		if bytes.Equal(g, s) {
			same++
			if bytes.HasPrefix(g, []byte(`{"path":`)) {
				bothOK++ // refined below for syntax errors that agree
				var r rec
				json.Unmarshal(bytes.TrimSuffix(g, []byte(",")), &r)
				if r.Status == nfi.StatusSyntaxError {
					bothOK--
					bothReject++
				}
			}
			continue
		}
		var rg, rs rec
		if json.Unmarshal(bytes.TrimSuffix(g, []byte(",")), &rg) != nil || json.Unmarshal(bytes.TrimSuffix(s, []byte(",")), &rs) != nil || rg.Path != rs.Path {
			bad++
			t.Errorf("line %d differs:\n go: %.300s\n ts: %.300s", i+1, g, s)
			continue
		}
		switch {
		case rg.Status == nfi.StatusSyntaxError && rs.Status == nfi.StatusSyntaxError:
			bothReject++ // the error is CPython's now
		case rg.Status == nfi.StatusSyntaxError:
			fixedAccept++ // tree-sitter accepted what CPython rejects
			t.Logf("validity fix: %s: %v (tree-sitter accepted it)", rg.Path, rg.Error)
		case rs.Status == nfi.StatusSyntaxError:
			fixedReject++ // tree-sitter rejected what CPython accepts
			t.Logf("validity fix: %s: tree-sitter said %v; CPython accepts it", rg.Path, rs.Error)
		default:
			bad++
			if bad <= 10 {
				t.Errorf("%s: scores differ:\n go: %.400s\n ts: %.400s", rg.Path, g, s)
			}
		}
	}
	t.Logf("%d files: %d identical output lines; %d files scored by both, identical; %d rejected by both (error now CPython's); validity fixes: %d valid files tree-sitter rejected, %d invalid files it accepted; %d differences not explained by validity",
		len(files), same, bothOK, bothReject, fixedReject, fixedAccept, bad)
	if bad > 0 {
		t.Errorf("%d files score differently though both front ends accept them", bad)
	}
	if bothOK < len(files)*9/10 {
		t.Errorf("only %d of %d files scored by both", bothOK, len(files))
	}
	// the summaries: same apart from the valid/invalid counts, the mean
	// scores over the valid files and timings
	var sg, ss map[string]any
	json.Unmarshal(bytes.TrimPrefix(summaries[0], []byte(`"summary": `))[:len(summaries[0])-len(`"summary": `)-1], &sg)
	json.Unmarshal(bytes.TrimPrefix(summaries[1], []byte(`"summary": `))[:len(summaries[1])-len(`"summary": `)-1], &ss)
	if sg == nil || ss == nil {
		t.Fatalf("no summary in the output:\n%.300s\n%.300s", summaries[0], summaries[1])
	}
	for _, k := range []string{"seconds", "mb_per_second", "valid", "invalid", "by_status", "mean_scores"} {
		delete(sg, k)
		delete(ss, k)
	}
	a, _ := json.Marshal(sg)
	b, _ := json.Marshal(ss)
	if !bytes.Equal(a, b) {
		t.Errorf("summaries differ beyond validity and timing:\n go: %s\n ts: %s", a, b)
	}
}
