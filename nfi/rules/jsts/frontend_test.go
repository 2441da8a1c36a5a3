package jsts_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// TestJavaScriptFrontEndsAgree scores every .js, .mjs and .cjs file of
// the npm corpus (~/.cache/polynfi/eslint-*/corpus, .ci/eslint-oracle.sh)
// with the default front end (the Go parser, syntax/jsparse, falling back
// to tree-sitter where it declines) and with tree-sitter alone
// (Engine.TreeSitter): the FileScores must be identical, as JSON, on
// every file. It logs how many files the Go parser took.
func TestJavaScriptFrontEndsAgree(t *testing.T) {
	// The corpus .ci/eslint-oracle.sh installs ($POLYNFI_ESLINT_ORACLE,
	// which .ci/fresh.sh sets: HOME there is an empty directory).
	dir := citest.Oracle(t, "POLYNFI_ESLINT_ORACLE", "eslint-"+nfi.ESLintVersion, ".ci/eslint-oracle.sh")
	var files []string
	filepath.WalkDir(filepath.Join(dir, "corpus"), func(path string, e fs.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() {
			switch filepath.Ext(path) {
			case ".js", ".mjs", ".cjs":
				files = append(files, path)
			}
		}
		return nil
	})
	if len(files) == 0 {
		citest.Missing(t, "no JavaScript file under %s (bash .ci/eslint-oracle.sh)", filepath.Join(dir, "corpus"))
	}
	if testing.Short() && len(files) > 500 {
		files = files[:500]
	}
	goEngine := defaultEngine(t, false)
	tsEngine := defaultEngine(t, false)
	tsEngine.TreeSitter = true
	p := syntax.NewParser()
	defer p.Close()
	goParsed, differ := 0, 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := syntax.ParseJavaScriptGo(src); err == nil {
			goParsed++
		}
		a, _ := json.Marshal(goEngine.Score(p, f, src))
		b, _ := json.Marshal(tsEngine.Score(p, f, src))
		if !bytes.Equal(a, b) {
			differ++
			if differ <= 5 {
				t.Errorf("%s: scores differ:\n go: %.400s\n ts: %.400s", f, a, b)
			}
		}
	}
	t.Logf("%d files, %d parsed by the Go parser; %d scores differ", len(files), goParsed, differ)
	if goParsed == 0 {
		t.Error("the Go parser took no file")
	}
}
