package jsts_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/catalog"
	. "github.com/polynfi/polynfi/nfi/rules/jsts"
	"github.com/polynfi/polynfi/syntax"
)

func defaultEngine(t testing.TB, suppress bool) *nfi.Engine {
	t.Helper()
	c, err := catalog.Get(catalog.Default)
	if err != nil {
		t.Fatal(err)
	}
	e, err := nfi.NewEngine(c, nfi.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	e.Suppressions = suppress
	return e
}

// TestDispatchByExtension checks that each file is judged by the rules of
// its language only, and that S_p is P_p / T_p over them (SWE-NFI Eq. 1).
func TestDispatchByExtension(t *testing.T) {
	e := defaultEngine(t, false)
	p := syntax.NewParser()
	defer p.Close()
	tsOnlyCount := 0
	for _, r := range All {
		if !r.Judges(syntax.JavaScript) {
			tsOnlyCount++
		}
	}
	cases := []struct {
		path, src string
		rules     int
	}{
		{"m.py", "x = 1\n", 92},
		{"m.js", "var x = 1;\n", len(All) - tsOnlyCount},
		{"m.mjs", "var x = 1;\n", len(All) - tsOnlyCount},
		{"m.cjs", "var x = 1;\n", len(All) - tsOnlyCount},
		{"m.jsx", "var x = <div>{a}</div>;\n", len(All) - tsOnlyCount},
		{"m.ts", "var x: any = 1;\n", len(All)},
		{"m.tsx", "var x: any = <div>{a}</div>;\n", len(All)},
	}
	for _, c := range cases {
		fs := e.Score(p, c.path, []byte(c.src))
		if !fs.Valid || len(fs.Rules) != c.rules {
			t.Errorf("%s: valid %v, %d rules, want %d (%v)", c.path, fs.Valid, len(fs.Rules), c.rules, fs.Error)
			continue
		}
		for _, a := range nfi.Aspects {
			total, passed := 0, 0
			for _, rr := range fs.Rules {
				if rr.Aspect == a {
					total++
					if rr.Passed {
						passed++
					}
				}
			}
			if total != e.TotalFor(nfi.SourceLanguage(c.path), a) {
				t.Errorf("%s %s: %d rules ran, T_p %d", c.path, a.Code(), total, e.TotalFor(nfi.SourceLanguage(c.path), a))
			}
			got, ok := fs.Scores.Get(a)
			if !ok || got != float64(passed)/float64(total) {
				t.Errorf("%s %s: S_p %v (%v), want %d/%d", c.path, a.Code(), got, ok, passed, total)
			}
		}
	}
	// var fails no-var in JS and TS; any fails no-explicit-any in TS only
	js := e.Score(p, "m.js", []byte("var x = 1;\n"))
	ts := e.Score(p, "m.ts", []byte("var x: any = 1;\n"))
	if r, _ := js.Rule(NoVar.ID); r.Passed {
		t.Error("no-var passes var in a .js file")
	}
	if r, _ := ts.Rule(NoExplicitAny.ID); r.Passed {
		t.Error("no-explicit-any passes any in a .ts file")
	}
	if _, ran := js.Rule(NoExplicitAny.ID); ran {
		t.Error("a TypeScript-only rule ran on a .js file")
	}
}

// TestInvalidFiles checks validity: tree-sitter syntax errors, NUL bytes
// and invalid UTF-8 make a JavaScript/TypeScript file invalid, with a
// status and a position, and I_p undefined.
func TestInvalidFiles(t *testing.T) {
	e := defaultEngine(t, false)
	p := syntax.NewParser()
	defer p.Close()
	for _, c := range []struct{ path, src, status string }{
		{"a.js", "function (\n", nfi.StatusSyntaxError},
		{"a.ts", "let x: = 1;\n", nfi.StatusSyntaxError},
		{"a.js", "let x = 1;\x00\n", nfi.StatusBinary},
		{"a.ts", "let x = '\xff';\n", nfi.StatusEncoding},
	} {
		fs := e.Score(p, c.path, []byte(c.src))
		if fs.Valid || fs.Status != c.status || fs.Error == nil || fs.Error.Line != 1 {
			t.Errorf("%s %q: valid %v status %s error %v, want %s at line 1", c.path, c.src, fs.Valid, fs.Status, fs.Error, c.status)
		}
	}
	good := e.Score(p, "a.js", []byte("let x = 1;\n"))
	bad := e.Score(p, "a.js", []byte("let x = ;\n"))
	if d := nfi.Compare([]nfi.FileScore{good}, []nfi.FileScore{bad}); d.Valid {
		t.Error("I_p defined with an invalid after file")
	}
}

// TestHostileInput: deep nesting, a huge line and invalid UTF-8 are
// scored or reported invalid, never a crash or a hang.
func TestHostileInput(t *testing.T) {
	e := defaultEngine(t, true)
	p := syntax.NewParser()
	defer p.Close()
	deep := strings.Repeat("if (a) {\n", 3000) + strings.Repeat("}\n", 3000)
	parens := "x = " + strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000) + ";\n"
	ternary := "x = " + strings.Repeat("a ? b : ", 5000) + "c;\n"
	huge := "const s = \"" + strings.Repeat("a", 2<<20) + "\";\n"
	fns := strings.Repeat("function f() {\n", 2000) + strings.Repeat("}\n", 2000)
	for name, src := range map[string]string{"deep.js": deep, "parens.ts": parens, "ternary.js": ternary,
		"huge.js": huge, "fns.tsx": fns, "bytes.ts": "\xfe\xff" + deep} {
		fs := e.Score(p, name, []byte(src))
		if fs.Status == nfi.StatusInternalError || (!fs.Valid && fs.Error == nil) {
			t.Errorf("%s: status %s %v", name, fs.Status, fs.Error)
		}
	}
}

// TestESLintSuppressions checks the eslint-disable comment forms.
func TestESLintSuppressions(t *testing.T) {
	e := defaultEngine(t, true)
	p := syntax.NewParser()
	defer p.Close()
	src := `var a = 1; // eslint-disable-line no-var
// eslint-disable-next-line no-var -- legacy
var b = 2;
var c = 3; // eslint-disable-line eqeqeq
/* eslint-disable */
var d = 4;
/* eslint-enable */
/* eslint-disable JS-STY-P01 */
var e = 5;
/* eslint-enable no-var */
var f = 6;
// eslint-disable no-var
var g = 7;
`
	fs := e.Score(p, "s.js", []byte(src))
	rr, _ := fs.Rule(NoVar.ID)
	var live []int
	for _, d := range rr.Diagnostics {
		if d.Suppressed == "" {
			live = append(live, d.Line)
		} else if d.Suppressed != nfi.SuppressedESLint {
			t.Errorf("line %d: suppressed as %q", d.Line, d.Suppressed)
		}
	}
	// c (wrong rule named), f (enabled again), g (a line comment cannot disable a region)
	if want := []int{4, 11, 13}; !equalInts(live, want) {
		t.Errorf("unsuppressed no-var findings on lines %v, want %v", live, want)
	}
	if rr.Passed {
		t.Error("no-var passes with unsuppressed findings")
	}
	off := defaultEngine(t, false).Score(p, "s.js", []byte(src))
	if r, _ := off.Rule(NoVar.ID); len(r.Diagnostics) != 7 {
		t.Errorf("without suppressions %d findings, want 7", len(r.Diagnostics))
	}
	if bytes.Contains([]byte(src), []byte("\x00")) {
		t.Fatal("unreachable")
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestSelectByESLintName: --select and --ignore accept the ESLint name of
// a rule polynfi reproduces (case ignored), as eslint-disable comments
// and 'rules explain' do; a name no rule reproduces is an error.
func TestSelectByESLintName(t *testing.T) {
	c, err := catalog.Get(catalog.Default)
	if err != nil {
		t.Fatal(err)
	}
	for sel, want := range map[string]string{"eqeqeq": "JS-LOG-P01", "@TypeScript-ESLint/no-explicit-any": ""} {
		e, err := nfi.NewEngine(c, nfi.Settings{Select: []string{sel}})
		if err != nil {
			t.Fatalf("select %s: %v", sel, err)
		}
		if rs := e.Rules(); len(rs) != 1 || (want != "" && rs[0].ID != want) {
			t.Errorf("select %s: %d rules (%v), want exactly one", sel, len(rs), rs)
		}
	}
	all, _ := nfi.NewEngine(c, nfi.Settings{})
	e, err := nfi.NewEngine(c, nfi.Settings{Ignore: []string{"EQEQEQ"}})
	if err != nil || len(e.Rules()) != len(all.Rules())-1 {
		t.Errorf("ignore eqeqeq: %v, %d rules of %d", err, len(e.Rules()), len(all.Rules()))
	}
	if _, err := nfi.NewEngine(c, nfi.Settings{Select: []string{"eqeqeqq"}}); err == nil {
		t.Error("select eqeqeqq: want an error")
	}
}
