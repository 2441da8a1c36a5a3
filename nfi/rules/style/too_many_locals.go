package style

import (
	"strings"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// TooManyLocals reports functions binding more local names than the limit,
// counted as pylint counts them.
//
// Source: pylint R0914 too-many-locals (max-locals=15); Ruff PLR0914 (preview).
var TooManyLocals = &nfi.Rule{
	ID: "STY-T06", Name: "too-many-locals", Aspect: nfi.CodingStyle, Kind: nfi.Threshold,
	Limit: &nfi.Limit{Default: 15, Cmp: nfi.AtMost, Unit: "local variables"},
	Doc: nfi.Doc{
		Summary: "functions bind at most 15 local names",
		What: "For every def: the number of distinct names bound in its own scope (pylint's " +
			"len(node.locals)): parameters (*args and **kwargs included), assignment, " +
			"augmented and annotated targets, for/with/except targets, assignment expressions " +
			"(also those inside comprehensions), match captures, imports, and nested def and " +
			"class names; minus names declared global or nonlocal. As pylint, `_` and " +
			"parameters matching ignored-argument-names `_.*|^ignored_|^unused_` are not " +
			"counted. Comprehension variables, lambda parameters and names bound in nested " +
			"defs and classes belong to their own scopes. The measured value is the largest count.",
		Why:    "Many locals mean a function juggles too much state at once; split it.",
		Bad:    "def f():\n" + numberedAssignments(16),
		Good:   "def f():\n" + numberedAssignments(15),
		Exempt: "nothing; a file without functions passes.",
		Source: "pylint too-many-locals (default 15); Ruff PLR0914",
		Oracle: "Ruff PLR0914 (preview) differs: it counts only names whose binding is a plain " +
			"assignment, so parameters, loop variables and imports are not counted " +
			"(`def f(a, b, ..., p)` with 16 parameters fails here and passes Ruff). Not exact.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"PLR0914"}, RuffArgs: []string{"--preview"}, Exact: false},
	Kinds:  []string{"function_definition"},
	Visit:  checkTooManyLocals,
}

func numberedAssignments(n int) string {
	s := ""
	for i := range n {
		s += "    v" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + " = 0\n"
	}
	return s
}

// ignoredArgument reports pylint's default ignored-argument-names,
// `^(_.*|ignored_|unused_)` (a match at the start).
func ignoredArgument(s string) bool {
	return strings.HasPrefix(s, "_") || strings.HasPrefix(s, "ignored_") || strings.HasPrefix(s, "unused_")
}

// node classes of checkTooManyLocals's walk
const (
	lkOther         = iota
	lkScope         // def or class: binds its name; its body is another scope
	lkLambda        // a scope of its own, binding nothing here
	lkComprehension // a scope of its own, but := inside binds here
	lkIdentifier
	lkImport // dotted_name or aliased_import: may bind an imported name
)

var localsKinds = &kindClasses{names: map[string]uint8{
	"function_definition":      lkScope,
	"class_definition":         lkScope,
	"lambda":                   lkLambda,
	"list_comprehension":       lkComprehension,
	"set_comprehension":        lkComprehension,
	"dictionary_comprehension": lkComprehension,
	"generator_expression":     lkComprehension,
	"identifier":               lkIdentifier,
	"dotted_name":              lkImport,
	"aliased_import":           lkImport,
}}

// localsScratch holds the name sets of checkTooManyLocals, reused from one
// def of a file to the next (in Pass.State), and the file's source as a
// string (sourceString): names are substrings of it, so that none is copied.
type localsScratch struct {
	names, global map[string]bool
	src           string
}

func checkTooManyLocals(p *nfi.Pass, fn syntax.NodeID) {
	t := p.Tree
	sc, _ := p.State.(*localsScratch)
	if sc == nil {
		sc = &localsScratch{names: map[string]bool{}, global: map[string]bool{}, src: sourceString(p)}
		p.State = sc
	}
	names, global, src := sc.names, sc.global, sc.src
	clear(names)
	clear(global)
	text := func(id syntax.NodeID) string {
		nd := &t.Nodes[id]
		return src[nd.StartByte:nd.EndByte]
	}
	add := func(id syntax.NodeID) { names[text(id)] = true }
	if params := t.ChildByField(fn, "parameters"); params != syntax.NoNode {
		for c := t.Nodes[params].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if id := paramName(t, c); id != syntax.NoNode {
				if !ignoredArgument(text(id)) {
					add(id)
				}
			}
		}
	}
	body := t.ChildByField(fn, "body")
	if body == syntax.NoNode {
		return
	}
	kinds := localsKinds.table()
	for id, end := body, t.Nodes[body].End; id < end; {
		nd := &t.Nodes[id]
		skip := false // skip id's descendants
		switch kinds.of(nd) {
		case lkScope:
			if n := t.ChildByField(id, "name"); n != syntax.NoNode {
				add(n)
			}
			// Decorators, defaults and bases run in this scope but rarely
			// bind; the body is another scope.
			skip = true
		case lkLambda:
			skip = true
		case lkComprehension:
			// Only assignment expressions inside bind here.
			t.Walk(id, func(w syntax.NodeID) bool {
				k := t.Nodes[w].Kind
				if k == "lambda" || k == "function_definition" || k == "class_definition" {
					return false
				}
				if k == "named_expression" {
					if n := t.ChildByField(w, "name"); n != syntax.NoNode {
						add(n)
					}
				}
				return true
			})
			skip = true
		case lkIdentifier:
			switch r, _ := bindingRole(t, id); r {
			case roleAssign, roleAug, roleFor, roleWith, roleExcept, roleWalrus, roleMatch:
				add(id)
			case roleGlobal:
				global[text(id)] = true
			}
			skip = true
		case lkImport:
			if s := importedName(t, id); s != "" {
				names[s] = true
				skip = true
			}
		}
		if skip {
			id = nd.End
		} else {
			id++
		}
	}
	// the names, less `_` and the names declared global (counted without
	// iterating names: its storage is kept from def to def)
	count := len(names)
	if names["_"] {
		count--
	}
	if len(global) > 0 {
		for s := range global {
			if s != "_" && names[s] {
				count--
			}
		}
	}
	p.Measure(float64(count))
	if p.Exceeds(float64(count)) {
		id, name := defName(t, fn)
		if id == syntax.NoNode {
			id = fn
		}
		p.Reportf(id, "function %s has %d local variables (> %d)", name, count, int(p.Limit()))
	}
}
