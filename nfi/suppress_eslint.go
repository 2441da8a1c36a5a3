package nfi

import (
	"bytes"
	"regexp"
	"strings"
	"sync"

	"github.com/polynfi/polynfi/syntax"
)

// ESLint's directive comments, honoured in JavaScript and TypeScript files
// when the Engine honours suppressions. Source: ESLint "Configure Rules",
// section "Disabling Rules" (eslint.org/docs/latest/use/configure/rules):
//
//   - `/* eslint-disable */` silences every rule from the comment to the
//     end of the file or the next `/* eslint-enable */`; with a rule list
//     (`/* eslint-disable no-var, eqeqeq */`) those rules only. Both are
//     block comments only, as in ESLint;
//   - `// eslint-disable-line` and `// eslint-disable-next-line` (line or
//     block comments), bare or with a rule list, silence the findings
//     starting on the comment's line, or on the line after the comment's
//     last line;
//   - a rule list may end with ` -- a description`, which is ignored.
//
// A rule list names ESLint rules ("eqeqeq", "@typescript-eslint/no-explicit-any"):
// a name silences the polynfi rules whose Oracle.ESLint has it; a polynfi
// rule ID (JS-LOG-P01) silences that rule.
var eslintDirectiveRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:/\*|//)\s*(eslint-disable-next-line|eslint-disable-line|eslint-disable|eslint-enable)(?:\s+([^*]*?))?\s*(?:\*/)?$`)
})

// eslintDirective is one directive comment.
type eslintDirective struct {
	kind      string // eslint-disable, eslint-enable, eslint-disable-line, eslint-disable-next-line
	line, col int    // where the comment starts (1-based) or, for -next-line, the line it covers
	rules     []string
}

// suppressESLint marks the diagnostics of fs that the file's ESLint
// directive comments silence (SuppressedESLint), then recomputes the
// verdicts and S_p as suppress does.
func (e *Engine) suppressESLint(path string, tree *syntax.Tree, t *langTable, fs *FileScore) {
	perFile := e.perFileIgnored(path)
	var dirs []eslintDirective
	if bytes.Contains(tree.Source, []byte("eslint-")) {
		dirs = eslintDirectives(tree, t)
	}
	if len(dirs) == 0 && len(perFile) == 0 {
		return
	}
	var passed [numAspects]int
	for i := range fs.Rules {
		rr := &fs.Rules[i]
		r, _ := e.Catalog.Lookup(rr.ID)
		silenced := 0
		for j := range rr.Diagnostics {
			d := &rr.Diagnostics[j]
			switch {
			case perFile[rr.ID]:
				d.Suppressed = SuppressedPerFile
			case r != nil && eslintSilenced(dirs, r, d.Line, d.Column):
				d.Suppressed = SuppressedESLint
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
	fs.Scores = Scores{}
	for _, a := range Aspects {
		if t.total[a] > 0 {
			fs.Scores.set(a, float64(passed[a])/float64(t.total[a]))
		}
	}
}

// eslintDirectives returns the directive comments of tree in source order.
func eslintDirectives(tree *syntax.Tree, t *langTable) []eslintDirective {
	var out []eslintDirective
	for i := range tree.Nodes {
		n := &tree.Nodes[i]
		if int(n.KindID) >= len(t.isComment) || !t.isComment[n.KindID] {
			continue
		}
		text := bytes.TrimSpace(tree.Source[n.StartByte:n.EndByte])
		m := eslintDirectiveRe().FindSubmatch(text)
		if m == nil {
			continue
		}
		startRow, startCol := tree.Point(n.StartByte)
		endRow := tree.Row(n.EndByte)
		d := eslintDirective{kind: string(m[1]), line: int(startRow) + 1, col: int(startCol) + 1}
		block := bytes.HasPrefix(text, []byte("/*"))
		if (d.kind == "eslint-disable" || d.kind == "eslint-enable") && !block {
			continue // ESLint reads these in block comments only
		}
		if d.kind == "eslint-disable-line" && startRow != endRow {
			continue // ESLint: an eslint-disable-line comment may not span lines
		}
		if d.kind == "eslint-disable-next-line" {
			d.line = int(endRow) + 2
		}
		list := string(m[2])
		if k := strings.Index(list, " --"); k >= 0 {
			list = list[:k]
		} else if strings.HasPrefix(list, "--") {
			list = ""
		}
		for _, name := range strings.Split(list, ",") {
			if name = strings.TrimSpace(name); name != "" {
				d.rules = append(d.rules, name)
			}
		}
		out = append(out, d)
	}
	return out
}

// names reports whether a directive's rule list covers rule r (an empty
// list covers every rule).
func (d *eslintDirective) names(r *Rule) bool {
	if len(d.rules) == 0 {
		return true
	}
	for _, n := range d.rules {
		if n == r.ID {
			return true
		}
		for _, es := range r.Oracle.ESLint {
			if n == es {
				return true
			}
		}
	}
	return false
}

// eslintSilenced reports whether the directives silence a finding of rule
// r starting at line, col.
func eslintSilenced(dirs []eslintDirective, r *Rule, line, col int) bool {
	disabled := false
	for i := range dirs {
		d := &dirs[i]
		switch d.kind {
		case "eslint-disable-line", "eslint-disable-next-line":
			if d.line == line && d.names(r) {
				return true
			}
		case "eslint-disable", "eslint-enable":
			if d.line > line || d.line == line && d.col > col {
				continue
			}
			if d.names(r) {
				disabled = d.kind == "eslint-disable"
			}
		}
	}
	return disabled
}
