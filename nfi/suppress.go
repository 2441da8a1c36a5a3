package nfi

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/polynfi/polynfi/syntax"
)

// UnusedSuppression is a suppression that silenced nothing in its file:
// a polynfi rule ID in a `# noqa: ...` list, or a file-level
// `# polynfi: noqa` comment (Code "" for the bare form). Line is 1-based.
type UnusedSuppression struct {
	Line int    `json:"line"`
	Code string `json:"code,omitempty"`
	File bool   `json:"file_level,omitempty"`
}

// Suppression comments. Source of the forms: Ruff's "Error suppression"
// documentation (`# noqa`, `# noqa: CODE, CODE`, file-level `# ruff: noqa`,
// `# ruff: noqa: CODE`), flake8's `# noqa`.
//
//   - `# noqa` (anywhere in a comment, case-insensitive) silences every
//     finding that starts on the comment's line;
//   - `# noqa: DOC-R01, E722` silences the findings on that line of the
//     rules named: a polynfi rule ID, or a Ruff code when the catalog says
//     the rule is exactly that Ruff check (Oracle.Exact) — so a line already
//     annotated for Ruff needs no second comment;
//   - `# polynfi: noqa` on a line of its own silences the whole file;
//     `# polynfi: noqa: IDS` silences those rules in the whole file;
//     `# ruff: noqa: CODES` does so for rules with an exact Ruff equivalent
//     (a bare `# ruff: noqa` is Ruff's business and is not honoured here);
//   - `# polynfi: ignore[DOC-R01, ERR-P01]` (anywhere in a comment) silences
//     the findings of those rules on its line, `# polynfi: ignore` every
//     finding on its line: the line-level form that Ruff does not read (Ruff
//     warns "Invalid `# noqa` directive" on `# noqa: DOC-R01`, whose codes
//     are not Ruff's), so a project linted by both needs no exemption.
var (
	ignoreRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`#\s*polynfi\s*:\s*ignore(?:\[\s*([A-Za-z]+-?[A-Za-z]?[0-9]+(?:[\s,]+[A-Za-z]+-?[A-Za-z]?[0-9]+)*)\s*\])?`)
	})
	noqaRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)#\s*noqa(?:\s*:\s*([A-Za-z]+-?[A-Za-z]?[0-9]+(?:[\s,]+[A-Za-z]+-?[A-Za-z]?[0-9]+)*))?`)
	})
	fileNoqaRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^#\s*(polynfi|ruff)\s*:\s*noqa(?:\s*:\s*([A-Za-z]+-?[A-Za-z]?[0-9]+(?:[\s,]+[A-Za-z]+-?[A-Za-z]?[0-9]+)*))?\s*$`)
	})
	codeSepRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[\s,]+`) })
)

// noqa is one suppression comment of a file.
type noqa struct {
	line   int
	file   bool     // file-level
	ruff   bool     // `# ruff: noqa: ...` (file-level)
	codes  []string // upper case; empty for the bare form
	usedBy []bool   // per code (or [0] for the bare form): silenced something
}

// suppress marks the diagnostics of fs that the file's suppression
// comments or the settings' per-file-ignores silence, recomputes each
// rule's verdict (a rule passes when all its findings are silenced) and
// the scores, and lists unused suppressions. path is the file's path as
// given to Score (per-file-ignores match it relative to the settings
// file's directory).
func (e *Engine) suppress(path string, tree *syntax.Tree, t *langTable, fs *FileScore) {
	var comments []noqa
	if containsNoqa(tree.Source) || bytes.Contains(tree.Source, []byte("polynfi")) {
		comments = e.noqaComments(tree, t)
	}
	perFile := e.perFileIgnored(path)
	if len(comments) == 0 && len(perFile) == 0 {
		return
	}
	var passed [numAspects]int
	for i := range fs.Rules {
		rr := &fs.Rules[i]
		silenced := 0
		for j := range rr.Diagnostics {
			d := &rr.Diagnostics[j]
			switch {
			case perFile[rr.ID]:
				d.Suppressed = SuppressedPerFile
			default:
				d.Suppressed = e.silencedBy(comments, rr.ID, d.Line)
			}
			if d.Suppressed != "" {
				silenced++
			}
		}
		fs.Suppressed += silenced
		rr.Passed = silenced == len(rr.Diagnostics)
		if rr.Passed {
			passed[rr.Aspect]++
		}
	}
	for _, a := range Aspects {
		if t.total[a] > 0 {
			fs.Scores.set(a, float64(passed[a])/float64(t.total[a]))
		}
	}
	for _, c := range comments {
		if c.ruff {
			continue // Ruff's own codes: not ours to call unused
		}
		if len(c.codes) == 0 {
			if c.file && !c.usedBy[0] {
				fs.UnusedSuppressions = append(fs.UnusedSuppressions, UnusedSuppression{Line: c.line, File: true})
			}
			continue
		}
		for k, code := range c.codes {
			if _, ours := e.Catalog.Lookup(code); ours && !c.usedBy[k] {
				fs.UnusedSuppressions = append(fs.UnusedSuppressions, UnusedSuppression{Line: c.line, Code: code, File: c.file})
			}
		}
	}
}

// silencedBy returns the suppression kind that silences a finding of rule
// id starting on line, "" when none does, and marks the comment used.
func (e *Engine) silencedBy(comments []noqa, id string, line int) string {
	for i := range comments {
		c := &comments[i]
		if !c.file && c.line != line {
			continue
		}
		if len(c.codes) == 0 {
			c.usedBy[0] = true
			if c.file {
				return SuppressedFile
			}
			return SuppressedNoqa
		}
		for k, code := range c.codes {
			if code == id || e.ruffExact[code][id] {
				c.usedBy[k] = true
				if c.file {
					return SuppressedFile
				}
				return SuppressedNoqa
			}
		}
	}
	return ""
}

// noqaComments returns the suppression comments of tree, in source order.
func (e *Engine) noqaComments(tree *syntax.Tree, t *langTable) []noqa {
	var out []noqa
	for i := range tree.Nodes {
		n := &tree.Nodes[i]
		if int(n.KindID) >= len(t.isComment) || !t.isComment[n.KindID] {
			continue
		}
		text := tree.Source[n.StartByte:n.EndByte]
		line := tree.Line(syntax.NodeID(i))
		if m := fileNoqaRe().FindSubmatch(text); m != nil && ownLine(tree.Source, int(n.StartByte)) {
			c := noqa{line: line, file: true, ruff: strings.EqualFold(string(m[1]), "ruff"), codes: splitCodes(m[2])}
			if c.ruff && len(c.codes) == 0 {
				continue
			}
			c.usedBy = make([]bool, max(1, len(c.codes)))
			out = append(out, c)
			continue
		}
		if m := noqaRe().FindSubmatch(text); m != nil {
			c := noqa{line: line, codes: splitCodes(m[1])}
			c.usedBy = make([]bool, max(1, len(c.codes)))
			out = append(out, c)
		} else if m := ignoreRe().FindSubmatch(text); m != nil {
			c := noqa{line: line, codes: splitCodes(m[1])}
			c.usedBy = make([]bool, max(1, len(c.codes)))
			out = append(out, c)
		}
	}
	return out
}

// ownLine reports whether only blanks precede offset off on its line.
func ownLine(src []byte, off int) bool {
	for i := off - 1; i >= 0 && src[i] != '\n'; i-- {
		if src[i] != ' ' && src[i] != '\t' && src[i] != '\f' {
			return false
		}
	}
	return true
}

func splitCodes(b []byte) []string {
	s := strings.TrimSpace(string(b))
	if s == "" {
		return nil
	}
	var out []string
	for _, c := range codeSepRe().Split(s, -1) {
		if c != "" {
			out = append(out, strings.ToUpper(c))
		}
	}
	return out
}

// perFileIgnored returns the rule IDs that the settings' per-file-ignores
// switch off for path, nil when none.
func (e *Engine) perFileIgnored(path string) map[string]bool {
	if len(e.perFile) == 0 {
		return nil
	}
	rel := RelativeTo(e.Settings.BaseDir(), path)
	var out map[string]bool
	for _, pf := range e.perFile {
		if !pf.glob.Match(rel) {
			continue
		}
		for _, r := range e.rules {
			if matches(pf.rules, r) {
				if out == nil {
					out = map[string]bool{}
				}
				out[r.ID] = true
			}
		}
	}
	return out
}

// RelativeTo returns path relative to base, with forward slashes; path
// itself (slashed) when it is not under base.
func RelativeTo(base, path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.ToSlash(path)
	}
	if base == "" {
		return filepath.ToSlash(path)
	}
	rel, err := filepath.Rel(base, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(rel)
}

// Glob is a compiled path pattern of the settings (exclude,
// extend-exclude, per-file-ignores), matched against slash-separated paths
// relative to the settings file's directory. A pattern without a slash
// matches a file or directory name at any depth ("venv", "*_pb2.py"); one
// with a slash matches the relative path from the start ("src/gen/*.py",
// a leading "/" or "./" is dropped). `*` and `?` do not cross "/", `**`
// does, `[abc]` is a class. A pattern that matches a directory matches
// everything under it. Source of the shape: Ruff's exclude and
// per-file-ignores (globset), gitignore(5).
type Glob struct {
	Pattern string
	re      *regexp.Regexp
	// lit is the pattern when it has no wildcard (most excludes: "venv",
	// "build"): Match then compares path components instead of running re
	// (the same answer; some 40 ns instead of some 1.5 µs per path)
	lit      string
	isLit    bool
	litSlash bool // lit holds a "/": it matches from the start of the path
}

// CompileGlob compiles pattern; the error names it.
func CompileGlob(pattern string) (Glob, error) {
	p := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(pattern), "./"), "/")
	p = strings.TrimSuffix(p, "/")
	if p == "" {
		return Glob{}, fmt.Errorf("empty pattern %q", pattern)
	}
	var b strings.Builder
	if strings.Contains(p, "/") {
		b.WriteString("^")
	} else {
		b.WriteString("(?:^|/)")
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '*' && i+1 < len(p) && p[i+1] == '*':
			i++
			if i+1 < len(p) && p[i+1] == '/' {
				i++
				b.WriteString("(?:.*/)?")
			} else {
				b.WriteString(".*")
			}
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			j := strings.IndexByte(p[i:], ']')
			if j < 0 {
				return Glob{}, fmt.Errorf("pattern %q: unclosed [", pattern)
			}
			class := p[i+1 : i+j]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += j
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("(?:/|$)")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return Glob{}, fmt.Errorf("pattern %q: %w", pattern, err)
	}
	g := Glob{Pattern: pattern, re: re}
	if !strings.ContainsAny(p, "*?[") {
		g.lit, g.isLit, g.litSlash = p, true, strings.Contains(p, "/")
	}
	return g, nil
}

// Match reports whether the slash-separated relative path rel, or a
// directory above it, matches the pattern.
func (g Glob) Match(rel string) bool {
	if g.re == nil {
		return false
	}
	rel = strings.TrimPrefix(rel, "./")
	if g.isLit {
		// re is (?:^|/)lit(?:/|$), or ^lit(?:/|$) when lit has a "/"
		if g.litSlash {
			return rel == g.lit || strings.HasPrefix(rel, g.lit) && rel[len(g.lit)] == '/'
		}
		for rest := rel; ; {
			i := strings.Index(rest, g.lit)
			if i < 0 {
				return false
			}
			end := i + len(g.lit)
			if (i == 0 || rest[i-1] == '/') && (end == len(rest) || rest[end] == '/') {
				return true
			}
			rest = rest[i+1:]
		}
	}
	return g.re.MatchString(rel)
}

// containsNoqa reports whether "noqa" occurs in src in any letter case, as
// bytes.Contains(bytes.ToLower(src), "noqa") does (no non-ASCII character
// lower-cases to n, o, q or a) without copying src.
func containsNoqa(src []byte) bool {
	for i := 2; i < len(src)-1; {
		k := bytes.IndexAny(src[i:len(src)-1], "qQ")
		if k < 0 {
			return false
		}
		j := i + k
		if src[j-2]|0x20 == 'n' && src[j-1]|0x20 == 'o' && src[j+1]|0x20 == 'a' {
			return true
		}
		i = j + 1
	}
	return false
}
