package doc

import (
	"unicode"
	"unsafe"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
	"github.com/polynfi/polynfi/syntax"
)

// sourceString returns the tree's source as a string that shares its
// Source bytes (no copy), so that names taken from it are not copied
// either. Nothing modifies Source while a file is scored; the strings must
// not outlive the file's pass (they live in the module's memo, which
// Module.Release drops, and reach messages only through a copy).
func sourceString(t *syntax.Tree) string {
	return unsafe.String(unsafe.SliceData(t.Source), len(t.Source))
}

// defs returns the file's definitions (memoized in pyast).
func defs(p *nfi.Pass) *pyast.Defs { return p.Module.Definitions() }

// reportName reports msg at a definition's name (the module: line 1,
// column 1).
func reportName(p *nfi.Pass, d *pyast.Def, msg string) {
	if d.NameNode == syntax.NoNode {
		p.ReportAt(1, 1, msg)
		return
	}
	p.Report(d.NameNode, msg)
}

// describe names a definition for messages: "class Foo", "method Foo.bar",
// "function baz".
func describe(ds *pyast.Defs, d *pyast.Def) string {
	switch d.Kind {
	case pyast.ModuleDef:
		return "module " + d.Name
	case pyast.ClassDef, pyast.NestedClassDef:
		return "class " + d.Name
	case pyast.MethodDef:
		if parent := ds.ParentDef(d); parent != nil {
			return "method " + parent.Name + "." + d.Name
		}
	}
	return "function " + d.Name
}

// paramKind says how a parameter is passed.
type paramKind uint8

const (
	positional paramKind = iota // positional-only, positional or keyword-only
	varArgs                     // *args
	kwArgs                      // **kwargs
)

// param is one parameter of a def.
type param struct {
	node      syntax.NodeID
	name      string
	kind      paramKind
	annotated bool
	// implicit is true for the first non-variadic parameter of a method
	// that is not a @staticmethod (self, cls): Ruff's flake8-annotations
	// skips it, and so do the DOC rules.
	implicit bool
}

// stars is what a signature writes before the parameter's name: "", "*"
// (*args) or "**" (**kwargs).
func (pr param) stars() string {
	switch pr.kind {
	case varArgs:
		return "*"
	case kwArgs:
		return "**"
	}
	return ""
}

// funcParams returns the parameters of every function of the file, indexed
// like Defs.List (nil for the module and classes), computed once per file
// for the rules that look at them. The slices must not be modified.
func funcParams(p *nfi.Pass) [][]param {
	return pyast.Memo(p.Module, "doc.params", func() [][]param {
		ds := defs(p)
		out := make([][]param, len(ds.List))
		var all []param // one backing array for all of them
		src := sourceString(p.Tree)
		for i := range ds.List {
			if d := &ds.List[i]; d.Kind.IsFunction() {
				n := len(all)
				all = appendParams(all, p.Tree, src, d)
				out[i] = all[n:len(all):len(all)]
			}
		}
		return out
	})
}

// Fields looked up in every def (its parameters and return annotation) and
// every parameter with a default: by number rather than by name.
var (
	nameField       = syntax.NewFieldKey("name")
	parametersField = syntax.NewFieldKey("parameters")
	returnTypeField = syntax.NewFieldKey("return_type")
)

// appendParams appends a def's parameters to out, in order; their names
// are substrings of src, the tree's source (sourceString). Separators (`*`,
// `/`) are not parameters.
func appendParams(out []param, t *syntax.Tree, src string, d *pyast.Def) []param {
	ps := parametersField.Child(t, d.Node)
	if ps == syntax.NoNode {
		return out
	}
	skip := d.Kind == pyast.MethodDef && !d.StaticMethod
	for c := t.Nodes[ps].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		n := &t.Nodes[c]
		if !n.Named || n.Extra {
			continue
		}
		pr := param{node: c}
		inner := c
		switch n.Kind() {
		case "identifier":
		case "typed_parameter":
			pr.annotated = true
			inner = t.FirstNamedChild(c)
		case "default_parameter":
			inner = nameField.Child(t, c)
		case "typed_default_parameter":
			pr.annotated = true
			inner = nameField.Child(t, c)
		case "list_splat_pattern", "dictionary_splat_pattern":
		default: // keyword_separator, positional_separator, tuple_pattern (Python 2)
			continue
		}
		if inner == syntax.NoNode {
			continue
		}
		switch t.Nodes[inner].Kind() {
		case "list_splat_pattern":
			pr.kind = varArgs
			inner = t.FirstNamedChild(inner)
		case "dictionary_splat_pattern":
			pr.kind = kwArgs
			inner = t.FirstNamedChild(inner)
		}
		if inner == syntax.NoNode || t.Nodes[inner].Kind() != "identifier" {
			continue
		}
		pr.name = src[t.Nodes[inner].StartByte:t.Nodes[inner].EndByte]
		if skip && pr.kind == positional {
			pr.implicit = true
			skip = false
		}
		out = append(out, pr)
	}
	return out
}

// eachDocstring calls fn for every docstring of the file (module, classes,
// functions of any visibility), in source order.
func eachDocstring(p *nfi.Pass, fn func(d *pyast.Def, doc *pyast.Docstring)) {
	ds := defs(p)
	for i := range ds.List {
		if d := &ds.List[i]; d.Doc != nil {
			fn(d, d.Doc)
		}
	}
}

// whose names the owner of a docstring for messages.
func whose(p *nfi.Pass, d *pyast.Def) string { return describe(defs(p), d) }

func isSpace(r rune) bool { return unicode.IsSpace(r) }
