package nfi

import (
	"bytes"
	"fmt"
	"sort"
	"unicode/utf8"

	"github.com/polynfi/polynfi/nfi/pyast"
	"github.com/polynfi/polynfi/syntax"
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
	rules    []*Rule   // selected, in catalog order
	limits   []float64 // per selected rule
	total    [numAspects]int
	dispatch [][]int // by Python KindID: indexes into rules
	finish   []int
	// MaxFileSize is the largest file scored, in bytes; larger files are
	// reported with status too_large. 0 means no limit.
	MaxFileSize int
}

// NewEngine validates the catalog's rules and the settings and prepares the
// dispatch table. It returns an error for an invalid rule or setting.
func NewEngine(c *Catalog, s Settings) (*Engine, error) {
	if err := s.Validate(c.Rules); err != nil {
		return nil, err
	}
	e := &Engine{Catalog: c, Settings: s, MaxFileSize: 64 << 20}
	names := syntax.KindNames(syntax.Python)
	byName := map[string][]uint16{}
	for id, n := range names {
		byName[n] = append(byName[n], uint16(id))
	}
	e.dispatch = make([][]int, len(names))
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
		i := len(e.rules)
		e.rules = append(e.rules, r)
		lim := 0.0
		if r.Limit != nil {
			lim = r.Limit.Default
			if v, ok := s.Limits[r.ID]; ok {
				lim = v
			}
		}
		e.limits = append(e.limits, lim)
		e.total[r.Aspect]++
		for _, k := range r.Kinds {
			ids, ok := byName[k]
			if !ok {
				return nil, fmt.Errorf("rule %s: node kind %q is not in the Python grammar", r.ID, k)
			}
			for _, id := range ids {
				e.dispatch[id] = append(e.dispatch[id], i)
			}
		}
		if r.Finish != nil {
			e.finish = append(e.finish, i)
		}
	}
	return e, nil
}

// Rules returns the selected rules in catalog order.
func (e *Engine) Rules() []*Rule { return e.rules }

// Total returns T_p, the number of selected rules of aspect a.
func (e *Engine) Total(a Aspect) int { return e.total[a] }

// Status values of a FileScore.
const (
	StatusOK          = "ok"           // scored
	StatusSyntaxError = "syntax_error" // tree-sitter found an ERROR or MISSING node
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
func (e *Engine) Score(parser *syntax.Parser, path string, src []byte) FileScore {
	fs := FileScore{Path: path, Bytes: len(src)}
	src, status, err := e.decode(src)
	if status != StatusOK {
		fs.Status, fs.Error = status, err
		return fs
	}
	tree, perr := parser.Parse(syntax.Python, src)
	if perr != nil {
		fs.Status, fs.Error = StatusSyntaxError, &FileError{Line: 1, Column: 1, Message: perr.Error()}
		return fs
	}
	if id, bad := tree.FirstError(); bad {
		n := tree.Node(id)
		msg := "syntax error"
		if snippet := errorSnippet(tree.Text(id)); snippet != "" {
			msg = fmt.Sprintf("syntax error near %q", snippet)
		}
		if n.Missing {
			msg = fmt.Sprintf("syntax error: missing %s", n.Kind)
		}
		fs.Status = StatusSyntaxError
		fs.Error = &FileError{Line: int(n.StartRow) + 1, Column: int(n.StartCol) + 1, Message: msg}
		return fs
	}
	return e.ScoreTree(path, tree)
}

// ScoreTree runs the selected rules over an already parsed, error-free
// Python tree (the caller checks HasError). A rule that panics does not take
// the run down: the file comes back invalid with Status internal_error naming
// the rule and the node, so one bad file never kills a run of thousands.
func (e *Engine) ScoreTree(path string, tree *syntax.Tree) (result FileScore) {
	cur, node := -1, syntax.NoNode
	defer func() {
		if r := recover(); r != nil {
			id := "?"
			if cur >= 0 {
				id = e.rules[cur].ID
			}
			line := 1
			if node >= 0 && int(node) < len(tree.Nodes) {
				line = int(tree.Nodes[node].StartRow) + 1
			}
			result = FileScore{Path: path, Bytes: len(tree.Source), Status: StatusInternalError,
				Error: &FileError{Line: line, Column: 1, Message: fmt.Sprintf("rule %s panicked: %v", id, r)}}
		}
	}()
	fs := FileScore{Path: path, Bytes: len(tree.Source), Valid: true, Status: StatusOK, Lines: len(tree.LineStarts())}
	mod := pyast.NewModule(path, tree)
	passes := make([]Pass, len(e.rules))
	for i, r := range e.rules {
		passes[i] = Pass{Rule: r, Tree: tree, Module: mod, limit: e.limits[i], options: e.Settings.Options[r.ID]}
	}
	nodes := tree.Nodes
	for i := range nodes {
		kid := nodes[i].KindID
		if int(kid) >= len(e.dispatch) {
			continue
		}
		for _, ri := range e.dispatch[kid] {
			cur, node = ri, syntax.NodeID(i)
			passes[ri].Rule.Visit(&passes[ri], node)
		}
	}
	node = syntax.NoNode
	for _, ri := range e.finish {
		cur = ri
		passes[ri].Rule.Finish(&passes[ri])
	}
	fs.Rules = make([]RuleResult, len(e.rules))
	var passed [numAspects]int
	for i := range passes {
		p := &passes[i]
		sortDiagnostics(p.diags)
		rr := RuleResult{ID: p.Rule.ID, Aspect: p.Rule.Aspect, Passed: len(p.diags) == 0, Diagnostics: p.diags}
		if p.hasValue {
			v := p.value
			rr.Value = &v
		}
		if rr.Passed {
			passed[p.Rule.Aspect]++
		}
		fs.Rules[i] = rr
	}
	for _, a := range Aspects {
		if e.total[a] > 0 {
			fs.Scores.set(a, float64(passed[a])/float64(e.total[a]))
		}
	}
	return fs
}

func sortDiagnostics(d []Diagnostic) {
	sort.SliceStable(d, func(i, j int) bool {
		if d[i].Line != d[j].Line {
			return d[i].Line < d[j].Line
		}
		return d[i].Column < d[j].Column
	})
}

// decode checks that src can be scored and returns it as UTF-8. A PEP 263
// latin-1 coding declaration is honoured; other non-UTF-8 input is an
// encoding error with the offending line.
func (e *Engine) decode(src []byte) ([]byte, string, *FileError) {
	if e.MaxFileSize > 0 && len(src) > e.MaxFileSize {
		return nil, StatusTooLarge, &FileError{Line: 1, Column: 1, Message: fmt.Sprintf("file is %d bytes, over the %d-byte limit", len(src), e.MaxFileSize)}
	}
	if i := bytes.IndexByte(src, 0); i >= 0 {
		line, col := position(src, i)
		return nil, StatusBinary, &FileError{Line: line, Column: col, Message: "NUL byte: not a text file"}
	}
	if utf8.Valid(src) {
		return src, StatusOK, nil
	}
	if isLatin1Declared(src) {
		out := make([]byte, 0, len(src)+len(src)/8)
		for _, b := range src {
			out = utf8.AppendRune(out, rune(b))
		}
		return out, StatusOK, nil
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
	return nil, StatusEncoding, &FileError{Line: line, Column: col, Message: fmt.Sprintf("invalid UTF-8 byte 0x%02x and no latin-1 coding declaration", src[i])}
}

func position(src []byte, off int) (line, col int) {
	line = 1 + bytes.Count(src[:off], []byte{'\n'})
	col = off - bytes.LastIndexByte(src[:off], '\n')
	return line, col
}

// isLatin1Declared reports a PEP 263 coding cookie naming latin-1 or
// iso-8859-1 on line 1 or 2.
func isLatin1Declared(src []byte) bool {
	lines := bytes.SplitN(src, []byte{'\n'}, 3)
	if len(lines) > 2 {
		lines = lines[:2]
	}
	for _, l := range lines {
		l = bytes.ToLower(l)
		if !bytes.HasPrefix(bytes.TrimSpace(l), []byte("#")) {
			continue
		}
		i := bytes.Index(l, []byte("coding"))
		if i < 0 || i+6 >= len(l) || (l[i+6] != ':' && l[i+6] != '=') {
			continue
		}
		rest := bytes.TrimSpace(l[i+7:])
		for _, name := range []string{"latin-1", "latin_1", "iso-8859-1", "iso8859-1", "iso_8859_1", "latin1"} {
			if bytes.HasPrefix(rest, []byte(name)) {
				return true
			}
		}
	}
	return false
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
