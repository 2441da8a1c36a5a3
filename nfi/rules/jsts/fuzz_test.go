package jsts_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// FuzzScoreJSTS: any bytes, as a .js, .ts or .tsx file, are scored by the
// whole default catalog or reported invalid, never a rule panic (status
// internal_error) or a crash. The seeds (the fixtures and deeply nested,
// huge and non-UTF-8 inputs) run as a unit test; go test -fuzz=FuzzScoreJSTS
// explores further.
func FuzzScoreJSTS(f *testing.F) {
	fixtures, _ := filepath.Glob("testdata/*")
	for _, p := range fixtures {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(uint8(0), b)
			f.Add(uint8(1), b)
		}
	}
	r := strings.Repeat
	for _, s := range []string{
		r("if (a) { ", 5000) + r("}", 5000),
		"x = " + r("a ? b : ", 5000) + "c;",
		"x = " + r("(", 10000) + "1" + r(")", 10000) + ";",
		r("function f(a = 1) { ", 2000) + r("}", 2000),
		"let x: " + r("Array<", 5000) + "any" + r(">", 5000) + ";",
		"throw " + r("a || ", 10000) + "\"x\";",
		"const s = \"" + r("a", 1<<20) + "\";",
		"var \xff\xfe = 1;",
		r("/* eslint-disable */\n", 1000) + "var a;",
	} {
		f.Add(uint8(2), []byte(s))
	}
	e := defaultEngine(f, true)
	p := syntax.NewParser()
	f.Cleanup(p.Close)
	names := []string{"f.js", "f.ts", "f.tsx"}
	f.Fuzz(func(t *testing.T, li uint8, src []byte) {
		fs := e.Score(p, names[int(li)%len(names)], src)
		if fs.Status == nfi.StatusInternalError {
			t.Fatalf("%s: %v", fs.Status, fs.Error)
		}
		if !fs.Valid && fs.Error == nil {
			t.Fatalf("invalid without an error: %s", fs.Status)
		}
	})
}
