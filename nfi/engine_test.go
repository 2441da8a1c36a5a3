package nfi

import (
	"github.com/polynfi/polynfi/internal/citest"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/syntax"
)

// Test rules: small, fully specified, so the engine's arithmetic can be
// checked by hand.
var (
	noPass = &Rule{ID: "STY-P90", Name: "no-pass", Aspect: CodingStyle, Kind: Prohibited,
		Doc:   Doc{Summary: "pass statement", Why: "w", Bad: "pass\n", Good: "x = 1\n", Source: "test"},
		Kinds: []string{"pass_statement"},
		Visit: func(p *Pass, n syntax.NodeID) { p.Reportf(n, "pass statement") }}
	fewDefs = &Rule{ID: "LOG-T90", Name: "few-defs", Aspect: LogicPatterns, Kind: Threshold,
		Limit: &Limit{Default: 1, Cmp: AtMost, Unit: "functions"},
		Doc:   Doc{Summary: "too many functions", Why: "w", Bad: "def f(): pass\ndef g(): pass\n", Good: "x = 1\n", Source: "test"},
		Kinds: []string{"function_definition"},
		Visit: func(p *Pass, n syntax.NodeID) {
			c, _ := p.State.(int)
			c++
			p.State = c
			p.Measure(float64(c))
			if p.Exceeds(float64(c)) {
				p.Reportf(n, "function %d of the file (> %g)", c, p.Limit())
			}
		}}
	hasDoc = &Rule{ID: "DOC-R90", Name: "module-doc", Aspect: Documentation, Kind: Required,
		Doc: Doc{Summary: "module docstring", Why: "w", Bad: "x = 1\n", Good: "\"\"\"D.\"\"\"\n", Source: "test"},
		Finish: func(p *Pass) {
			if !strings.HasPrefix(string(p.Tree.Source), `"""`) {
				p.ReportAtf(1, 1, "no module docstring")
			}
		}}
	panicky = &Rule{ID: "ERR-P90", Name: "panics", Aspect: ErrorHandling, Kind: Prohibited,
		Doc:   Doc{Summary: "panics on raise", Why: "w", Bad: "raise X\n", Good: "x = 1\n", Source: "test"},
		Kinds: []string{"raise_statement"},
		Visit: func(p *Pass, n syntax.NodeID) { panic("boom") }}
)

func testCatalog() *Catalog {
	return &Catalog{Version: "test", Rules: []*Rule{hasDoc, panicky, noPass, fewDefs}}
}

func score(t *testing.T, e *Engine, src string) FileScore {
	t.Helper()
	p := syntax.NewParser()
	defer p.Close()
	return e.Score(p, "m.py", []byte(src))
}

func TestEngineScores(t *testing.T) {
	e, err := NewEngine(testCatalog(), Settings{})
	if err != nil {
		t.Fatal(err)
	}
	fs := score(t, e, "def f():\n    pass\n\ndef g():\n    pass\n")
	if !fs.Valid {
		t.Fatalf("invalid: %v", fs.Error)
	}
	// DOC 0/1, ERR 1/1 (no raise), STY 0/1 (two pass), LOG 0/1 (2 > 1); LIB has no rule.
	want := map[Aspect]float64{Documentation: 0, ErrorHandling: 1, CodingStyle: 0, LogicPatterns: 0}
	for a, w := range want {
		if g, ok := fs.Scores.Get(a); !ok || g != w {
			t.Errorf("%s: got %v (%v), want %v", a.Code(), g, ok, w)
		}
	}
	if _, ok := fs.Scores.Get(LibraryConstraints); ok {
		t.Error("LIB has no selected rule and must have no score")
	}
	r, _ := fs.Rule("STY-P90")
	if len(r.Diagnostics) != 2 || r.Diagnostics[0].Line != 2 || r.Diagnostics[1].Line != 5 {
		t.Errorf("STY-P90 diagnostics: %+v", r.Diagnostics)
	}
	r, _ = fs.Rule("LOG-T90")
	if r.Value == nil || *r.Value != 2 || len(r.Diagnostics) != 1 {
		t.Errorf("LOG-T90: value %v diagnostics %+v", r.Value, r.Diagnostics)
	}
}

func TestEnginePanicIsPerFile(t *testing.T) {
	e, _ := NewEngine(testCatalog(), Settings{})
	fs := score(t, e, "def f():\n    raise ValueError\n")
	if fs.Valid || fs.Status != StatusInternalError || !strings.Contains(fs.Error.Message, "ERR-P90") || fs.Error.Line != 2 {
		t.Fatalf("got %+v %+v", fs, fs.Error)
	}
	if fs2 := score(t, e, "x = 1\n"); !fs2.Valid {
		t.Fatalf("the next file must score: %+v", fs2.Error)
	}
}

func TestSettingsSelection(t *testing.T) {
	cases := []struct {
		s    Settings
		want []string
	}{
		{Settings{}, []string{"DOC-R90", "ERR-P90", "STY-P90", "LOG-T90"}},
		{Settings{Select: []string{"DOC", "LOG-T"}}, []string{"DOC-R90", "LOG-T90"}},
		{Settings{Ignore: []string{"ERR-P90", "sty"}}, []string{"DOC-R90", "LOG-T90"}},
		{Settings{Select: []string{"ALL"}, Ignore: []string{"DOC-R90"}}, []string{"ERR-P90", "STY-P90", "LOG-T90"}},
	}
	for _, c := range cases {
		e, err := NewEngine(testCatalog(), c.s)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range e.Rules() {
			got = append(got, r.ID)
		}
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%+v: got %v, want %v", c.s, got, c.want)
		}
	}
	// Limits change verdicts.
	e, _ := NewEngine(testCatalog(), Settings{Limits: map[string]float64{"LOG-T90": 5}})
	if r, _ := score(t, e, "def f(): pass\ndef g(): pass\n").Rule("LOG-T90"); !r.Passed {
		t.Error("LOG-T90 with limit 5 must pass two functions")
	}
	for _, bad := range []Settings{
		{Select: []string{"XYZ"}},
		{Limits: map[string]float64{"STY-P90": 3}},
		{Limits: map[string]float64{"NOPE-T01": 3}},
		{Options: map[string]map[string]any{"NOPE": {}}},
	} {
		if _, err := NewEngine(testCatalog(), bad); err == nil {
			t.Errorf("%+v: want an error", bad)
		}
	}
}

func TestLoadSettings(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "pkg", "mod")
	os.MkdirAll(sub, 0o755)
	pp := filepath.Join(dir, "pyproject.toml")
	os.WriteFile(pp, []byte("[project]\nname = \"x\"\n\n[tool.polynfi]\nselect = [\"DOC\"]\nignore = [\"DOC-R90\"]\n[tool.polynfi.thresholds]\n\"LOG-T90\" = 3\n"), 0o644)
	found, ok := FindSettings(sub)
	if !ok || found != pp {
		t.Fatalf("FindSettings: got %q %v, want %q", found, ok, pp)
	}
	s, err := LoadSettings(found)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(s.Select, ",") != "DOC" || s.Limits["LOG-T90"] != 3 || !s.NonDefault() {
		t.Fatalf("got %+v", s)
	}
	// polynfi.toml beside it wins.
	pt := filepath.Join(dir, "pkg", "polynfi.toml")
	os.WriteFile(pt, []byte("ignore = [\"STY\"]\n"), 0o644)
	if found, _ := FindSettings(sub); found != pt {
		t.Fatalf("got %q, want %q", found, pt)
	}
	// Unknown keys and TOML errors name the file.
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("selct = [\"DOC\"]\n"), 0o644)
	if _, err := LoadSettings(bad); err == nil || !strings.Contains(err.Error(), "bad.toml") || !strings.Contains(err.Error(), "selct") {
		t.Fatalf("unknown key: got %v", err)
	}
	os.WriteFile(bad, []byte("select = [\n"), 0o644)
	if _, err := LoadSettings(bad); err == nil || !strings.Contains(err.Error(), "bad.toml") {
		t.Fatalf("syntax error: got %v", err)
	}
}

func TestCompareAndMean(t *testing.T) {
	e, _ := NewEngine(&Catalog{Version: "t", Rules: []*Rule{hasDoc, noPass}}, Settings{})
	p := syntax.NewParser()
	defer p.Close()
	b1 := e.Score(p, "a.py", []byte("pass\n"))                  // DOC 0, STY 0
	b2 := e.Score(p, "b.py", []byte("\"\"\"D.\"\"\"\n"))        // DOC 1, STY 1
	a1 := e.Score(p, "a.py", []byte("\"\"\"D.\"\"\"\nx = 1\n")) // DOC 1, STY 1
	a2 := e.Score(p, "b.py", []byte("\"\"\"D.\"\"\"\npass\n"))  // DOC 1, STY 0
	d := Compare([]FileScore{b1, b2}, []FileScore{a1, a2})
	// before: DOC (0+1)/2 = .5, STY .5; after: DOC 1, STY .5 → I_DOC +.5, I_STY 0.
	if v, _ := d.Improvement.Get(Documentation); math.Abs(v-0.5) > 1e-12 {
		t.Errorf("I_DOC = %v, want 0.5", v)
	}
	if v, _ := d.Improvement.Get(CodingStyle); v != 0 {
		t.Errorf("I_STY = %v, want 0", v)
	}
	if pts, _ := d.Improvement.Points(Documentation); pts != 50 {
		t.Errorf("points = %v, want 50", pts)
	}
	if len(d.Flips) != 3 {
		t.Errorf("flips: %+v (want a.py DOC, a.py STY, b.py STY)", d.Flips)
	}
	bad := e.Score(p, "b.py", []byte("def (:\n"))
	if d := Compare([]FileScore{b1}, []FileScore{bad}); d.Valid {
		t.Error("a version without a valid file has no improvement")
	}
}

func TestDecodeLatin1(t *testing.T) {
	e, _ := NewEngine(testCatalog(), Settings{})
	fs := score(t, e, "# -*- coding: iso-8859-1 -*-\nname = 'caf\xe9'\n")
	if !fs.Valid {
		t.Fatalf("latin-1 declared file: %v", fs.Error)
	}
	fs = score(t, e, "name = 'caf\xe9'\n")
	if fs.Valid || fs.Status != StatusEncoding || fs.Error.Line != 1 || fs.Error.Column != 12 {
		t.Fatalf("undeclared latin-1: %+v %+v", fs.Status, fs.Error)
	}
}

func TestDecodeDeclaredEncodings(t *testing.T) {
	e, _ := NewEngine(testCatalog(), Settings{})
	cases := []struct {
		name, src, status string
	}{
		{"koi8-r", "# -*- coding: koi8-r -*-\ns = '\xf0\xd2\xc9\xd7\xc5\xd4'\n", StatusOK},
		{"iso-8859-5 on line 2", "#!/usr/bin/env python\n# vim: set fileencoding=iso-8859-5 :\ns = '\xbf'\n", StatusOK},
		{"cp1252", "# coding=cp1252\ns = '\x93q\x94'\n", StatusOK},
		{"unknown codec", "# coding: no-such-codec\ns = '\xff'\n", StatusEncoding},
		{"declaration after code", "x = 1\n# coding: latin-1\ns = '\xe9'\n", StatusEncoding},
	}
	for _, c := range cases {
		if fs := score(t, e, c.src); fs.Status != c.status {
			t.Errorf("%s: got %q (%v), want %q", c.name, fs.Status, fs.Error, c.status)
		}
	}
}

// TestInnermostSyntaxError: with tree-sitter (Engine.TreeSitter) the
// reported position is the innermost error, not the start of an ERROR node
// that swallowed valid code before it. The standard library's
// test_compile.py has code tree-sitter-python cannot parse (a dedented
// continuation line inside parentheses, line 1335) and an ERROR node that
// starts at line 1. The Go parser accepts the file, as CPython does.
func TestInnermostSyntaxError(t *testing.T) {
	dir := corpus.StdlibDir()
	src, err := os.ReadFile(filepath.Join(dir, "test", "test_compile.py"))
	if dir == "" || err != nil {
		citest.Missing(t, "no test/test_compile.py in this Python's standard library")
	}
	e, _ := NewEngine(testCatalog(), Settings{})
	if fs := score(t, e, string(src)); fs.Status == StatusSyntaxError {
		t.Errorf("test_compile.py: %v; CPython parses it", fs.Error)
	}
	e.TreeSitter = true
	fs := score(t, e, string(src))
	if fs.Valid || fs.Error == nil {
		t.Skip("this tree-sitter-python parses test_compile.py")
	}
	lines := strings.Split(string(src), "\n")
	if fs.Error.Line < 100 || !strings.Contains(lines[fs.Error.Line-1], "(bar.") {
		t.Errorf("error reported at line %d (%s), want the line of the unparsable \"(bar.\"", fs.Error.Line, fs.Error.Message)
	}
}

func TestSettingsOptionsAndLimits(t *testing.T) {
	withOpt := *noPass
	withOpt.ID = "STY-P91"
	withOpt.Options = map[string]OptionKind{"strict": BoolOpt}
	cat := &Catalog{Version: "t", Rules: []*Rule{&withOpt, fewDefs}}
	ok := []Settings{
		{Options: map[string]map[string]any{"STY-P91": {"strict": true}}},
		{Limits: map[string]float64{"LOG-T90": 0}},
	}
	for _, s := range ok {
		if _, err := NewEngine(cat, s); err != nil {
			t.Errorf("%+v: %v", s, err)
		}
	}
	bad := map[string]Settings{
		"unknown option":     {Options: map[string]map[string]any{"STY-P91": {"strikt": true}}},
		"wrong type":         {Options: map[string]map[string]any{"STY-P91": {"strict": "yes"}}},
		"rule has no option": {Options: map[string]map[string]any{"LOG-T90": {"x": 1}}},
		"negative limit":     {Limits: map[string]float64{"LOG-T90": -5}},
	}
	for name, s := range bad {
		if _, err := NewEngine(cat, s); err == nil {
			t.Errorf("%s: want an error", name)
		} else if !strings.Contains(err.Error(), "settings") {
			t.Errorf("%s: the error should say where: %v", name, err)
		}
	}
}

// TestFileScoreLines: Lines counts lines as editors and wc -l do, with a
// last line without a line break counted and no line after a final break.
func TestFileScoreLines(t *testing.T) {
	e, err := NewEngine(testCatalog(), Settings{})
	if err != nil {
		t.Fatal(err)
	}
	for src, want := range map[string]int{
		"":                   0,
		"x = 1\n":            1,
		"x = 1":              1,
		"x = 1\n\n":          2,
		"x = 1\r\ny = 2\r\n": 2,
		"x = 1\ny = 2":       2,
	} {
		if got := score(t, e, src).Lines; got != want {
			t.Errorf("%q: Lines = %d, want %d", src, got, want)
		}
	}
}
