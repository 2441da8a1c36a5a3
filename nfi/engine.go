package nfi

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/ianaindex"

	"github.com/polynfi/polynfi/internal/initgc"
	"github.com/polynfi/polynfi/nfi/pyast"
	"github.com/polynfi/polynfi/syntax"
	"github.com/polynfi/polynfi/syntax/pyparse"
)

// Catalog is a versioned list of rules, in ID order.
type Catalog struct {
	Version string // e.g. "polynfi-92"
	Rules   []*Rule
}

// Lookup returns the rule with the given ID.
func (c *Catalog) Lookup(id string) (*Rule, bool) {
	for _, r := range c.Rules {
		if r.ID == id {
			return r, true
		}
	}
	return nil, false
}

// Engine scores Python files with the selected rules of a catalog. An Engine
// is immutable after NewEngine and safe for concurrent use; each goroutine
// needs its own syntax.Parser.
type Engine struct {
	Catalog  *Catalog
	Settings Settings
	rules    []*Rule // selected, in catalog order, every language
	// tables holds, per Language (by its number), the selected rules that
	// judge its files and their dispatch table; nil for a language no
	// selected rule judges.
	tables [syntax.TSX + 1]*langTable
	// Suppressions, when true, honours `# noqa` comments and the settings'
	// per-file-ignores (see suppress.go): silenced findings stay in the
	// result, marked, and do not fail their rule. False (the default)
	// scores as SWE-NFI does, every finding counting, so that benchmark
	// numbers are reproducible. Set it before the first Score.
	Suppressions bool
	ruffExact    map[string]map[string]bool // Ruff code → polynfi IDs with that exact oracle
	perFile      []perFileIgnore
	// PythonMinor is the Python 3 minor version whose grammar decides
	// validity (8 through 14; 0, the default, is the newest, 14). See
	// ParsePython. Set it before the first Score.
	PythonMinor int
	// TreeSitter makes Score parse with tree-sitter and take its error
	// nodes as syntax errors: polynfi's front end before the Go parsers
	// (syntax/pyparse; syntax/jsparse, which JavaScript files go to first
	// and which declines to tree-sitter what it does not parse), kept as
	// the oracle of the tests that check the two give the same scores.
	// Set it before the first Score.
	TreeSitter bool
	// MaxFileSize is the largest file scored, in bytes; larger files are
	// reported with status too_large. 0 means no limit.
	MaxFileSize int
}

// langTable is the part of an Engine for the files of one language: the
// selected rules that judge them, their limits, T_p per aspect and the
// dispatch table.
type langTable struct {
	lang   Language
	rules  []*Rule   // selected, in catalog order
	limits []float64 // per rule
	// options are the rules' Settings.Options, per rule (looked up once,
	// not per file)
	options []map[string]any
	total   [numAspects]int
	// The dispatch table, flat for ScoreTree's loop over every node: the
	// rules visiting KindID k are visitors[first[k]:first[k+1]].
	first     []int32
	visitors  []visitor
	finish    []int
	isComment []bool // by KindID
	// passFree holds pass slices of scored files for later files, one per
	// core (a file per core is scored at a time): their diagnostic buffers
	// keep their capacity, so that a file's diagnostics are collected
	// without growing a slice per rule (see ScoreTree).
	passFree chan []Pass
}

// maxKeptDiagnostics bounds the diagnostic buffer a pass slice keeps for
// reuse, per rule.
const maxKeptDiagnostics = 256

// NewEngine validates the catalog's rules and the settings and prepares the
// dispatch table. It returns an error for an invalid rule or setting.
func NewEngine(c *Catalog, s Settings) (*Engine, error) {
	if err := s.Validate(c.Rules); err != nil {
		return nil, err
	}
	e := &Engine{Catalog: c, Settings: s, MaxFileSize: 64 << 20}
	seen := map[string]bool{}
	for _, r := range c.Rules {
		if err := r.Validate(); err != nil {
			return nil, err
		}
		if seen[r.ID] {
			return nil, fmt.Errorf("catalog %s: duplicate rule %s", c.Version, r.ID)
		}
		seen[r.ID] = true
		if !s.Selected(r) {
			continue
		}
		e.rules = append(e.rules, r)
		lim := 0.0
		if r.Limit != nil {
			lim = r.Limit.Default
			if v, ok := s.Limits[r.ID]; ok {
				lim = v
			} else if v, ok := s.Ruff.ruffLimit(r.Oracle.RuffLimit); ok && r.Oracle.RuffLimit != "" {
				lim = v
			}
		}
		for _, l := range r.Langs() {
			if l < syntax.Python || l > syntax.TSX {
				return nil, fmt.Errorf("rule %s: unknown language %v", r.ID, l)
			}
			t := e.tables[l]
			if t == nil {
				t = &langTable{lang: l, passFree: make(chan []Pass, runtime.GOMAXPROCS(0))}
				e.tables[l] = t
			}
			t.rules = append(t.rules, r)
			t.limits = append(t.limits, lim)
			t.options = append(t.options, s.Options[r.ID])
			t.total[r.Aspect]++
		}
	}
	for _, t := range e.tables {
		if t == nil {
			continue
		}
		if err := t.prepare(); err != nil {
			return nil, err
		}
	}
	e.ruffExact = map[string]map[string]bool{}
	for _, r := range e.rules {
		if !r.Oracle.Exact {
			continue
		}
		for _, code := range r.Oracle.Ruff {
			code = strings.ToUpper(code)
			if e.ruffExact[code] == nil {
				e.ruffExact[code] = map[string]bool{}
			}
			e.ruffExact[code][r.ID] = true
		}
	}
	pats := make([]string, 0, len(s.PerFileIgnores))
	for p := range s.PerFileIgnores {
		pats = append(pats, p)
	}
	slices.Sort(pats)
	for _, p := range pats {
		g, err := CompileGlob(p)
		if err != nil {
			return nil, err
		}
		e.perFile = append(e.perFile, perFileIgnore{glob: g, rules: s.PerFileIgnores[p]})
	}
	if s.Ruff != nil {
		// Ruff's per-file-ignores, for the patterns polynfi's own do not
		// have: each selected Ruff code silences its exact rules.
		pats = pats[:0]
		for p := range s.Ruff.PerFileIgnores {
			if _, own := s.PerFileIgnores[p]; !own {
				pats = append(pats, p)
			}
		}
		slices.Sort(pats)
		for _, p := range pats {
			g, err := CompileGlob(p)
			if err != nil {
				return nil, fmt.Errorf("%s: [tool.ruff] per-file-ignores: %w", s.Origin, err)
			}
			var ids []string
			for code, rules := range e.ruffExact {
				for _, sel := range s.Ruff.PerFileIgnores[p] {
					if ruffSelects(sel, code) {
						for id := range rules {
							ids = append(ids, id)
						}
						break
					}
				}
			}
			if len(ids) > 0 {
				slices.Sort(ids)
				e.perFile = append(e.perFile, perFileIgnore{glob: g, rules: slices.Compact(ids)})
			}
		}
	}
	return e, nil
}

// prepare builds t's dispatch table from its rules' Kinds.
func (t *langTable) prepare() error {
	names := syntax.KindNames(t.lang)
	byName := map[string][]uint16{}
	for id, n := range names {
		byName[n] = append(byName[n], uint16(id))
	}
	dispatch := make([][]int, len(names)) // by KindID: indexes into t.rules
	for i, r := range t.rules {
		for _, k := range r.Kinds {
			ids, ok := byName[k]
			if !ok && t.lang != syntax.Python {
				// tree-sitter-javascript and -typescript name a few node
				// types differently (field_definition and
				// public_field_definition): a rule of both lists both.
				// TestKindsKnown checks each exists in one of them.
				continue
			}
			if !ok {
				return fmt.Errorf("rule %s: node kind %q is not in the %v grammar", r.ID, k, t.lang)
			}
			for _, id := range ids {
				dispatch[id] = append(dispatch[id], i)
			}
		}
		if r.Finish != nil {
			t.finish = append(t.finish, i)
		}
	}
	t.isComment = make([]bool, len(names))
	for _, k := range []string{"comment", "line_comment", "block_comment"} { // Java has the last two
		for _, id := range byName[k] {
			t.isComment[id] = true
		}
	}
	t.first = make([]int32, len(dispatch)+1)
	for k, rs := range dispatch {
		for _, ri := range rs {
			t.visitors = append(t.visitors, visitor{rule: ri, visit: t.rules[ri].Visit})
		}
		t.first[k+1] = int32(len(t.visitors))
	}
	return nil
}

// perFileIgnore is one compiled entry of Settings.PerFileIgnores.
type perFileIgnore struct {
	glob  Glob
	rules []string
}

// visitor is one entry of the flattened dispatch table.
type visitor struct {
	rule  int // index into langTable.rules
	visit func(*Pass, syntax.NodeID)
}

// Rules returns the selected rules in catalog order.
func (e *Engine) Rules() []*Rule { return e.rules }

// Total returns T_p of Python files, the number of selected rules of
// aspect a that judge Python (TotalFor(syntax.Python, a)).
func (e *Engine) Total(a Aspect) int { return e.TotalFor(syntax.Python, a) }

// TotalFor returns T_p of the files of language l: the number of selected
// rules of aspect a that judge l (0 when none does). Source: SWE-NFI Eq. 1,
// applied per language (a file is judged by the rules of its language only).
func (e *Engine) TotalFor(l Language, a Aspect) int {
	if t := e.table(l); t != nil {
		return t.total[a]
	}
	return 0
}

// HasRules reports whether some selected rule judges the files of
// language l. A file of a language without rules is still parsed (its
// validity is that of its front end, see Score) but has no S_p in any
// aspect: reports say n/a for it, never 0.
func (e *Engine) HasRules(l Language) bool { return e.table(l) != nil }

// table returns the language table of l, nil when no selected rule judges l.
func (e *Engine) table(l Language) *langTable {
	if l < syntax.Python || l > syntax.TSX {
		return nil
	}
	return e.tables[l]
}

// Status values of a FileScore.
const (
	StatusOK          = "ok"           // scored
	StatusSyntaxError = "syntax_error" // CPython's grammar rejects the file (see ParsePython)
	StatusBinary      = "binary"       // contains NUL bytes
	StatusEncoding    = "encoding_error"
	StatusTooLarge    = "too_large"
	StatusReadError   = "read_error"
	// StatusInternalError means a rule panicked on this file: a polynfi bug.
	StatusInternalError = "internal_error"
)

// Score parses src as Python and runs every selected rule over it. It never
// fails: a file that cannot be scored comes back with Valid false, a Status
// and an Error naming the first problem. path is used for module visibility
// and is copied into the result.
//
// The language is SourceLanguage(path): a .js, .ts, .java ... file is
// parsed with its tree-sitter grammar (valid when the tree has no ERROR or
// MISSING node) and judged by the rules of its language; any other file
// as Python.
func (e *Engine) Score(parser *syntax.Parser, path string, src []byte) FileScore {
	if l := SourceLanguage(path); l != syntax.Python {
		return e.scoreTreeSitter(parser, l, path, src)
	}
	fs := FileScore{Path: path, Bytes: len(src)}
	if len(src) >= bigFileBytes {
		defer lowGC()()
	}
	raw := src
	src, status, err := e.decode(src)
	if status != StatusOK {
		fs.Status, fs.Error = status, err
		return fs
	}
	var tree *syntax.Tree
	if e.TreeSitter {
		t, perr := parser.Parse(syntax.Python, src)
		if perr != nil {
			fs.Status, fs.Error = StatusSyntaxError, parseFailure(src, perr)
			return fs
		}
		if ferr := SyntaxError(t); ferr != nil {
			t.Release()
			fs.Status, fs.Error = StatusSyntaxError, ferr
			return fs
		}
		tree = t
	} else {
		t, ferr := ParsePython(parser, src, !sameBytes(raw, src), e.PythonMinor)
		if ferr != nil {
			fs.Status, fs.Error = StatusSyntaxError, ferr
			return fs
		}
		tree = t
	}
	// The FileScore holds nothing of the tree: its storage goes back to the
	// parser for the next file.
	defer tree.Release()
	return e.ScoreTree(path, tree)
}

// scoreTreeSitter is Score for a language whose front end is its
// tree-sitter grammar: the text must be UTF-8 without NUL bytes (ECMA-262
// and the JLS read Unicode text; a NUL is taken as a binary file), and
// the tree free of syntax errors (SyntaxError).
func (e *Engine) scoreTreeSitter(parser *syntax.Parser, l Language, path string, src []byte) FileScore {
	fs := FileScore{Path: path, Bytes: len(src)}
	if e.MaxFileSize > 0 && len(src) > e.MaxFileSize {
		fs.Status, fs.Error = StatusTooLarge, &FileError{Line: 1, Column: 1, Message: fmt.Sprintf("file is %d bytes, over the %d-byte limit", len(src), e.MaxFileSize)}
		return fs
	}
	if i := bytes.IndexByte(src, 0); i >= 0 {
		line, col := position(src, i)
		fs.Status, fs.Error = StatusBinary, &FileError{Line: line, Column: col, Message: "NUL byte: not a text file"}
		return fs
	}
	if !utf8.Valid(src) {
		i := 0
		for i < len(src) {
			r, size := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			i += size
		}
		line, col := position(src, i)
		fs.Status, fs.Error = StatusEncoding, &FileError{Line: line, Column: col, Message: fmt.Sprintf("invalid UTF-8 byte 0x%02x", src[i])}
		return fs
	}
	if l == syntax.JavaScript && !e.TreeSitter {
		// the Go parser first: where it accepts the file, its tree is
		// tree-sitter's (syntax/jsparse's differential test); where it
		// declines (JSX, decorators, syntax errors...), tree-sitter parses
		if t, err := parser.ParseJavaScript(src); err == nil {
			defer t.Release()
			return e.ScoreTree(path, t)
		}
	}
	t, perr := parser.Parse(l, src)
	if perr != nil {
		fs.Status, fs.Error = StatusSyntaxError, parseFailure(src, perr)
		return fs
	}
	defer t.Release()
	if ferr := SyntaxError(t); ferr != nil {
		fs.Status, fs.Error = StatusSyntaxError, ferr
		return fs
	}
	return e.ScoreTree(path, t)
}

// parseFailure is the FileError of a parse that returned err: at the byte
// the parse had reached when it spent its budget (syntax.BudgetError: text
// nested far beyond code, after a syntax error), else at 1:1.
func parseFailure(src []byte, err error) *FileError {
	var be *syntax.BudgetError
	if errors.As(err, &be) && be.Offset < len(src) {
		line, col := position(src, be.Offset)
		return &FileError{Line: line, Column: col, Message: err.Error()}
	}
	return &FileError{Line: 1, Column: 1, Message: err.Error()}
}

// SourceLanguage picks the language of a file by its extension (see
// syntax.LanguageForPath): .java is Java; .js .jsx .cjs .mjs JavaScript;
// .ts .mts .cts TypeScript; .tsx TSX; every other name (.py included) is
// Python, as polynfi has always scored what it was given.
func SourceLanguage(path string) Language {
	if l, ok := syntax.LanguageForPath(path); ok {
		return l
	}
	return syntax.Python
}

// IsSource reports whether a directory walk or a git comparison scores
// the file at path: .py, or an extension of a language with rules
// (Java, JavaScript, TypeScript, TSX; see SourceLanguage).
//
// The extension is matched case-sensitively, as git's pathspecs
// (SourceGlobs) match it: a.JS is not scored by a walk.
func IsSource(path string) bool {
	switch filepath.Ext(path) {
	case ".py", ".java", ".js", ".jsx", ".cjs", ".mjs", ".ts", ".mts", ".cts", ".tsx":
		return true
	}
	return false
}

// SourceGlobs are the git pathspecs of the files IsSource accepts.
var SourceGlobs = []string{"*.py", "*.java", "*.js", "*.jsx", "*.cjs", "*.mjs", "*.ts", "*.mts", "*.cts", "*.tsx"}

// bigFileBytes is the source size from which Score runs the garbage
// collector at bigFileGCPercent while it scores the file.
const bigFileBytes = 8 << 20

// bigFileGCPercent is the garbage collector's heap growth (GOGC) while a
// large file is scored. The default, 100, lets the heap reach twice what is
// live before a collection: for one large file, whose tree and analyses
// are live together (some 10-13 bytes per source byte), that doubles the
// peak memory. The live heap is then mostly pointer-free arrays (nodes,
// tokens, lines), which a collection does not scan, so that collecting
// after every 10% of growth costs next to nothing (measured: CPU time
// within noise on a 50 MB file, peak RSS 1.4 times lower).
const bigFileGCPercent = 10

// lowGC sets the GC percent to bigFileGCPercent until the function it
// returns is called (for the last of the files being scored at once); a
// lower setting made by the user (GOGC) is kept (initgc.Hold, which also
// keeps the heap floor of initgc out of the way meanwhile). The restore
// collects the file's garbage and returns its pages to the system at once
// (debug.FreeOSMemory): the heap goal the restored percent sets is then
// twice what is live after the file (its result), not twice its tree, and
// the output of its result does not add to a peak that still holds it.
func lowGC() (restore func()) { return initgc.Hold(bigFileGCPercent) }

// ParsePython parses src, the UTF-8 text DecodeSource returned (decoded:
// it was converted from the encoding its PEP 263 declaration names), as
// Python 3.minor (8 through 14; 0: the newest) with the Go parser
// (syntax.Parser.ParsePython). It returns the tree, or nil and the first
// syntax error as CPython's ast.parse of that version reports it: its
// 1-based line, 1-based column (in characters, SyntaxError.offset) and
// message in CPython's words ("invalid syntax", "expected ':'",
// "unterminated string literal (detected at line 3)", ...). Release the
// tree when done.
func ParsePython(parser *syntax.Parser, src []byte, decoded bool, minor int) (*syntax.Tree, *FileError) {
	t, perr := parser.ParsePython(src, pyparse.Options{Minor: minor, Decoded: decoded})
	if perr != nil {
		return nil, &FileError{Line: perr.Line, Column: perr.Col, Message: perr.Msg}
	}
	return t, nil
}

// sameBytes reports whether a and b are the same memory (DecodeSource
// returns its input when it is UTF-8 already).
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// SyntaxError describes the first syntax error of tree (see innermostError)
// as polynfi reports it: its 1-based line and column and `syntax error near
// "TEXT"` (the error's first line, at most 30 bytes) or `syntax error:
// missing "TOKEN"` (for a token that error recovery inserted). It returns
// nil for a tree without syntax errors.
func SyntaxError(tree *syntax.Tree) *FileError {
	id, bad := innermostError(tree)
	if !bad {
		return nil
	}
	n := tree.Node(id)
	msg := "syntax error"
	if snippet := errorSnippet(tree.Text(id)); snippet != "" {
		msg = fmt.Sprintf("syntax error near %q", snippet)
	}
	if n.Missing {
		msg = fmt.Sprintf("syntax error: missing %q", n.Kind())
	}
	return &FileError{Line: tree.Line(id), Column: tree.Column(id), Message: msg}
}

// ScoreTree runs the selected rules over an already parsed, error-free
// Python tree (the caller checks HasError). A rule that panics does not take
// the run down: the file comes back invalid with Status internal_error naming
// the rule and the node, so one bad file never kills a run of thousands.
func (e *Engine) ScoreTree(path string, tree *syntax.Tree) (result FileScore) {
	t := e.table(tree.Lang)
	if t == nil {
		t = &langTable{lang: tree.Lang}
	}
	cur, node := -1, syntax.NoNode
	defer func() {
		if r := recover(); r != nil {
			id := "?"
			if cur >= 0 {
				id = t.rules[cur].ID
			}
			line := 1
			if node >= 0 && int(node) < len(tree.Nodes) {
				line = tree.Line(node)
			}
			result = FileScore{Path: path, Bytes: len(tree.Source), Status: StatusInternalError,
				Error: &FileError{Line: line, Column: 1, Message: fmt.Sprintf("rule %s panicked: %v", id, r)}}
		}
	}()
	fs := FileScore{Path: path, Bytes: len(tree.Source), Valid: true, Status: StatusOK, Lines: physicalLines(tree)}
	var mod *pyast.Module
	if tree.Lang == syntax.Python {
		mod = pyast.NewModule(path, tree)
		defer mod.Release()
	}
	// A pass from takePasses holds its rule, limit and options already
	// (givePasses leaves them): only the file's fields are set.
	passes := t.takePasses()
	for i := range passes {
		p := &passes[i]
		p.Tree, p.Module, p.Path = tree, mod, path
	}
	nodes := tree.Nodes
	first, visitors := t.first, t.visitors
	for i := range nodes {
		kid := int(nodes[i].KindID)
		if kid+1 >= len(first) {
			continue
		}
		lo, hi := first[kid], first[kid+1]
		if lo == hi {
			continue
		}
		node = syntax.NodeID(i)
		for _, v := range visitors[lo:hi] {
			cur = v.rule
			v.visit(&passes[v.rule], node)
		}
	}
	node = syntax.NoNode
	for _, ri := range t.finish {
		cur = ri
		passes[ri].Rule.Finish(&passes[ri])
	}
	fs.Rules = make([]RuleResult, len(t.rules))
	// The diagnostics leave the reused buffers for one array per file; a
	// buffer givePasses would drop (keptForReuse) is handed to the result
	// as it is instead of copied.
	total, valued := 0, 0
	for i := range passes {
		sortDiagnostics(passes[i].diags)
		if d := passes[i].diags; keptForReuse(d) {
			total += len(d)
		}
		if passes[i].hasValue {
			valued++
		}
	}
	var all []Diagnostic
	if total > 0 {
		all = make([]Diagnostic, 0, total)
	}
	values := make([]float64, 0, valued) // what the RuleResults' Values point to
	var passed [numAspects]int
	for i := range passes {
		p := &passes[i]
		var diags []Diagnostic // nil when the rule passed
		switch n := len(p.diags); {
		case n > 0 && !keptForReuse(p.diags):
			diags = p.diags[:n:n]
			p.diags = nil
		case n > 0:
			start := len(all)
			all = append(all, p.diags...)
			diags = all[start:len(all):len(all)]
		}
		// written in place into the zeroed slice, not composed and copied
		rr := &fs.Rules[i]
		rr.ID, rr.Aspect, rr.Passed, rr.Diagnostics = p.Rule.ID, p.Rule.Aspect, len(diags) == 0, diags
		if p.hasValue {
			values = append(values, p.value)
			rr.Value = &values[len(values)-1]
		}
		if rr.Passed {
			passed[p.Rule.Aspect]++
		}
	}
	for _, a := range Aspects {
		if t.total[a] > 0 {
			fs.Scores.set(a, float64(passed[a])/float64(t.total[a]))
		}
	}
	t.givePasses(passes)
	if e.Suppressions {
		if tree.Lang == syntax.Python {
			e.suppress(path, tree, t, &fs)
		} else if tree.Lang == syntax.Java {
			e.suppressJava(path, tree, t, &fs)
		} else {
			e.suppressESLint(path, tree, t, &fs)
		}
	}
	return fs
}

// physicalLines is FileScore.Lines of tree's source: LineStarts counts an
// empty line after a final line break, which editors do not show.
func physicalLines(tree *syntax.Tree) int {
	src := tree.Source
	if len(src) == 0 {
		return 0
	}
	n := len(tree.LineStarts())
	if src[len(src)-1] == '\n' {
		n--
	}
	return n
}

// takePasses returns a pass slice for one file, reused when one is free.
func (t *langTable) takePasses() []Pass {
	select {
	case ps := <-t.passFree:
		return ps
	default:
		ps := make([]Pass, len(t.rules))
		for i, r := range t.rules {
			ps[i] = Pass{Rule: r, limit: t.limits[i], options: t.options[i]}
		}
		return ps
	}
}

// givePasses keeps passes for a later file: it drops what they refer to
// (the file's tree, module, state and diagnostics) but the capacity of
// their diagnostic buffers, up to maxKeptDiagnostics each.
func (t *langTable) givePasses(passes []Pass) {
	for i := range passes {
		d := passes[i].diags
		clear(d)
		if !keptForReuse(d) {
			d = nil
		}
		p := &passes[i]
		*p = Pass{Rule: p.Rule, limit: p.limit, options: p.options, diags: d[:0]}
	}
	select {
	case t.passFree <- passes:
	default:
	}
}

// keptForReuse reports whether givePasses keeps diagnostic buffer d for a
// later file (up to maxKeptDiagnostics); ScoreTree hands a buffer it
// would drop to the file's result instead of copying it.
func keptForReuse(d []Diagnostic) bool { return cap(d) <= maxKeptDiagnostics }

// sortDiagnostics sorts d by line, then column, keeping the report order
// of equal positions.
func sortDiagnostics(d []Diagnostic) {
	if len(d) < 2 {
		return
	}
	slices.SortStableFunc(d, func(a, b Diagnostic) int {
		if a.Line != b.Line {
			return cmp.Compare(a.Line, b.Line)
		}
		return cmp.Compare(a.Column, b.Column)
	})
}

// decode checks that src can be scored (its size within MaxFileSize, then
// DecodeSource) and returns it as UTF-8.
func (e *Engine) decode(src []byte) ([]byte, string, *FileError) {
	if e.MaxFileSize > 0 && len(src) > e.MaxFileSize {
		return nil, StatusTooLarge, &FileError{Line: 1, Column: 1, Message: fmt.Sprintf("file is %d bytes, over the %d-byte limit", len(src), e.MaxFileSize)}
	}
	return DecodeSource(src)
}

// DecodeSource checks that src is Python source text and returns it as
// UTF-8 with status StatusOK, or nil, the status (StatusBinary for a NUL
// byte, StatusEncoding) and an error naming the line and column. Source that
// is valid UTF-8 is used as is; otherwise a PEP 263 coding declaration on
// line 1 or 2 (latin-1, koi8-r, iso-8859-5, cp1252, shift_jis, ...) is
// honoured; anything else is an encoding error, except bytes that are not
// UTF-8 only in comments, which CPython never decodes
// (pyparse.UTF8OutsideComments): src is used as is.
func DecodeSource(src []byte) ([]byte, string, *FileError) {
	if i := bytes.IndexByte(src, 0); i >= 0 {
		line, col := position(src, i)
		return nil, StatusBinary, &FileError{Line: line, Column: col, Message: "NUL byte: not a text file"}
	}
	if utf8.Valid(src) || pyparse.UTF8OutsideComments(src) {
		return src, StatusOK, nil
	}
	name := declaredEncoding(src)
	if name != "" {
		out, err := decodeAs(name, src)
		if err == nil {
			return out, StatusOK, nil
		}
		return nil, StatusEncoding, &FileError{Line: 1, Column: 1, Message: fmt.Sprintf("coding declaration %q: %v", name, err)}
	}
	i := 0
	for i < len(src) {
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		i += size
	}
	line, col := position(src, i)
	return nil, StatusEncoding, &FileError{Line: line, Column: col, Message: fmt.Sprintf("invalid UTF-8 byte 0x%02x and no coding declaration", src[i])}
}

func position(src []byte, off int) (line, col int) {
	line = 1 + bytes.Count(src[:off], []byte{'\n'})
	col = off - bytes.LastIndexByte(src[:off], '\n')
	return line, col
}

// codingRE is PEP 263's coding declaration. Source: PEP 263 ("Defining the Encoding").
var codingRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)`) })

// declaredEncoding returns the PEP 263 encoding name declared on line 1 or 2, or "".
func declaredEncoding(src []byte) string {
	lines := bytes.SplitN(src, []byte{'\n'}, 3)
	if len(lines) > 2 {
		lines = lines[:2]
	}
	for _, l := range lines {
		if m := codingRE().FindSubmatch(l); m != nil {
			return strings.ToLower(string(m[1]))
		}
		if t := bytes.TrimSpace(l); len(t) > 0 && t[0] != '#' {
			break // PEP 263: line 2 counts only after a comment or blank line 1
		}
	}
	return ""
}

// decodeAs converts src from the named encoding to UTF-8. Python's latin-1
// aliases are ISO-8859-1 exactly; other names go through the IANA and WHATWG
// registries (golang.org/x/text).
func decodeAs(name string, src []byte) ([]byte, error) {
	norm := strings.ReplaceAll(name, "_", "-")
	switch norm {
	case "latin-1", "latin1", "iso-8859-1", "iso8859-1", "l1", "cp819":
		out := make([]byte, 0, len(src)+len(src)/8)
		for _, b := range src {
			out = utf8.AppendRune(out, rune(b))
		}
		return out, nil
	case "utf-8", "utf8", "utf-8-sig":
		return nil, fmt.Errorf("the file is not valid UTF-8")
	}
	enc, err := ianaindex.IANA.Encoding(norm)
	if err != nil || enc == nil {
		enc, err = htmlindex.Get(norm)
	}
	if err != nil || enc == nil {
		return nil, fmt.Errorf("unknown encoding")
	}
	out, err := enc.NewDecoder().Bytes(src)
	if err != nil {
		return nil, fmt.Errorf("cannot decode: %w", err)
	}
	return out, nil
}

// errorSnippet returns the first line of an ERROR node's text, at most 30 bytes.
func errorSnippet(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	b = bytes.TrimSpace(b)
	if len(b) > 30 {
		b = b[:30]
		for len(b) > 0 && !utf8.Valid(b) {
			b = b[:len(b)-1]
		}
	}
	return string(b)
}

// innermostError returns the first ERROR or MISSING node in preorder that
// contains no other one. Tree-sitter's error recovery can wrap a long stretch
// of valid code in one ERROR node; the innermost one is where the problem is.
func innermostError(t *syntax.Tree) (syntax.NodeID, bool) {
	id, ok := t.FirstError()
	if !ok {
		return syntax.NoNode, false
	}
	isErr := func(n *syntax.Node) bool { return n.Kind() == "ERROR" || n.Missing }
	for {
		n := t.Node(id)
		inner := syntax.NoNode
		for i := id + 1; i < n.End; i++ {
			if isErr(t.Node(i)) {
				inner = i
				break
			}
		}
		if inner == syntax.NoNode {
			return id, true
		}
		id = inner
	}
}
