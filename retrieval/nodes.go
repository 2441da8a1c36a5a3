package retrieval

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/polynfi/polynfi/diff"
	"github.com/polynfi/polynfi/syntax"
)

// Node types SWE-PolyBench counts (one list for every language), the root
// types, and the child types whose text names a node.
//
// Source: SWE-PolyBench metrics/tree_sitter_utils.py
// (TREE_SITTER_FUNC_CLASS_TYPES, TREE_SITTER_TOP_LEVEL_NODE_TYPES,
// TREE_SITTER_NAME_IDENTIFIER).
var (
	compatCounted = set("function_definition", "class_definition", "function_declaration",
		"method_declaration", "method_definition", "class_declaration", "constructor_declaration")
	extendedCounted = set("function_definition", "class_definition", "function_declaration",
		"method_declaration", "method_definition", "class_declaration", "constructor_declaration",
		"generator_function_declaration", "interface_declaration", "type_alias_declaration",
		"enum_declaration", "abstract_class_declaration", "record_declaration")
	// Function expressions counted in Extended mode when bound to a name.
	boundFunctionKinds = set("arrow_function", "function_expression", "generator_function")
	rootKinds          = set("module", "program")
	nameKinds          = set("identifier", "property_identifier", "type_identifier", "computed_property_name")
)

func set(xs ...string) map[string]bool { return toSet(xs) }

// languageFor picks the grammar by extension. Compatible: SWE-PolyBench's
// map (.py .py-tpl .pyi, .java, .js .jsx .cjs, .ts). Extended adds .mjs,
// .mts, .cts and .tsx. Both modes read the extensions of Go, Rust, C, C++,
// PHP and Ruby (syntax.GrammarForPath), which SWE-PolyBench does not.
//
// Source: SWE-PolyBench tree_sitter_utils.py EXTENSION_LANGUAGE_MAP.
func languageFor(p string, mode Mode) (syntax.Language, bool) {
	if l, ok := syntax.GrammarForPath(p); ok && newLangNodes[l] != nil {
		return l, true
	}
	switch path.Ext(p) {
	case ".py", ".pyi", ".py-tpl":
		return syntax.Python, true
	case ".java":
		return syntax.Java, true
	case ".js", ".jsx", ".cjs":
		return syntax.JavaScript, true
	case ".ts":
		return syntax.TypeScript, true
	}
	if mode == Extended {
		return syntax.LanguageForPath(p)
	}
	return 0, false
}

type extractor struct {
	mode   Mode
	parser *syntax.Parser
	src    Source
}

// patchNodes returns the sorted node keys a patch touches. fail is a
// non-empty reason when the patch cannot be scored (does not parse, does
// not apply to the base files, or touches an unnamed node in Compatible
// mode); err is a Source failure.
//
// Every file of the patch must apply, as `git apply` of the whole patch
// must succeed in SWE-PolyBench. Compatible mode then looks only at files
// whose old and new paths agree (added, deleted and renamed files contribute
// nothing); Extended looks at every code file.
//
// Source: SWE-PolyBench patch_utils.py Patch.get_modified_nodes,
// _get_modified_lines_by_status, _get_nodes.
func (x *extractor) patchNodes(patch string) (keys []string, fail string, err error) {
	files, perr := diff.Parse(patch)
	if perr != nil {
		return nil, perr.Error(), nil
	}
	if x.src == nil && len(files) > 0 {
		return nil, "", errors.New("node metrics need a Source of base files")
	}
	out := map[string]bool{}
	for _, f := range files {
		var old []byte
		if !f.IsNew {
			content, ok, err := x.src.ReadFile(f.OldPath)
			if err != nil {
				return nil, "", err
			}
			if !ok {
				return nil, fmt.Sprintf("%s does not exist at the base commit", f.OldPath), nil
			}
			old = content
		}
		newContent, aerr := diff.Apply(old, f)
		if aerr != nil {
			return nil, aerr.Error(), nil
		}

		var fileKey string
		var removedIn, addedIn string // paths whose extension picks the grammar
		switch x.mode {
		case Compatible:
			if f.IsNew || f.IsDelete || f.OldPath != f.NewPath {
				continue
			}
			fileKey, removedIn, addedIn = f.OldPath, f.OldPath, f.NewPath
		default:
			fileKey = f.ExtendedKey()
			removedIn, addedIn = f.OldPath, f.NewPath
		}
		if rl := f.RemovedLines(); len(rl) > 0 && !f.IsNew {
			if lang, ok := languageFor(removedIn, x.mode); ok {
				if fail, err := x.fileNodes(lang, old, fileKey, rl, out); fail != "" || err != nil {
					return nil, fail, err
				}
			}
		}
		if al := f.AddedLines(); len(al) > 0 && !f.IsDelete {
			if lang, ok := languageFor(addedIn, x.mode); ok {
				if fail, err := x.fileNodes(lang, newContent, fileKey, al, out); fail != "" || err != nil {
					return nil, fail, err
				}
			}
		}
	}
	return sortedKeys(out), "", nil
}

// fileNodes parses src once and adds the key of the innermost counted node
// of every line in lines (1-based, ascending) to out.
func (x *extractor) fileNodes(lang syntax.Language, src []byte, fileKey string, lines []int, out map[string]bool) (fail string, err error) {
	t, err := x.parser.Parse(lang, src)
	var be *syntax.BudgetError
	if errors.As(err, &be) {
		// Text nested beyond code, not a failure of the tool: this file's
		// nodes are unknown, like a node without a name.
		return fmt.Sprintf("%s: %v", fileKey, err), nil
	}
	if err != nil {
		return "", fmt.Errorf("parse %s: %w", fileKey, err)
	}
	ix := newIndex(t, x.mode)
	hits := ix.locate(lines)
	for _, c := range hits {
		key, fail := ix.key(c)
		if fail != "" {
			return fmt.Sprintf("%s: %s", fileKey, fail), nil
		}
		if key != "" {
			out[fileKey+"->"+key] = true
		}
	}
	return "", nil
}

// index holds the counted nodes of one parsed file.
type index struct {
	t    *syntax.Tree
	mode Mode
	// ln is the node table of Go, Rust, C, C++, PHP and Ruby; nil for
	// SWE-PolyBench's languages.
	ln *langNodes
	// cands are the candidate nodes in preorder with their 1-based line
	// spans [first, last]; mask marks a Compatible-mode pair whose value is
	// a function expression, which hides the lines it spans.
	cands []cand
	names map[syntax.NodeID]string // bound names of Extended function expressions
}

type cand struct {
	id          syntax.NodeID
	first, last int
	mask        bool
}

func newIndex(t *syntax.Tree, mode Mode) *index {
	ix := &index{t: t, mode: mode, names: map[syntax.NodeID]string{}, ln: newLangNodes[t.Lang]}
	rc := t.NewRowCursor()
	for i := range t.Nodes {
		id := syntax.NodeID(i)
		n := &t.Nodes[i]
		kind := n.Kind()
		first, last := int(rc.Row(n.StartByte))+1, int(rc.RowAfter(n.EndByte))+1
		if ix.ln != nil {
			if ix.ln.counts(t, id) {
				ix.cands = append(ix.cands, cand{id: id, first: first, last: last})
			}
			continue
		}
		switch mode {
		case Compatible:
			if compatCounted[kind] {
				ix.cands = append(ix.cands, cand{id: id, first: first, last: last})
			} else if kind == "pair" && t.FirstChildOfKind(id, "function_expression") != syntax.NoNode {
				// The grammar SWE-PolyBench uses calls a function
				// expression "function"; it returns that (uncounted)
				// child for every line of the pair.
				ix.cands = append(ix.cands, cand{id: id, first: first, last: last, mask: true})
			}
		default:
			counted := extendedCounted[kind]
			if !counted && boundFunctionKinds[kind] {
				if name, ok := boundName(t, id); ok {
					ix.names[id] = name
					counted = true
				}
			}
			if !counted {
				continue
			}
			// Decorators belong to the definition they decorate.
			if p := n.Parent; p != syntax.NoNode && t.Nodes[p].Kind() == "decorated_definition" {
				first = t.Line(p)
			}
			ix.cands = append(ix.cands, cand{id: id, first: first, last: last})
		}
	}
	return ix
}

// locate returns, for each line, the candidate SWE-PolyBench's search
// returns: among the counted nodes whose line span holds the line, the first
// in source order that has no counted descendant holding it. Lines outside
// every counted node give nothing. In Compatible mode a line past the root
// node's last row (the last line of a file without a final newline) gives
// nothing, as there.
//
// One sweep over the candidates in preorder with a binary search into the
// sorted lines: cost O(candidates·log(lines) + lines·depth), independent of
// lines × file size.
//
// Source: SWE-PolyBench node_utils.py _find_inner_most_node and
// get_node_by_line_number.
func (ix *index) locate(lines []int) []int {
	ls := append([]int(nil), lines...)
	sort.Ints(ls)
	ls = dedupInts(ls)
	if ix.mode == Compatible && ix.ln == nil && len(ix.t.Nodes) > 0 {
		maxLine := int(ix.t.Row(ix.t.Nodes[0].EndByte))
		k := sort.SearchInts(ls, maxLine+1)
		ls = ls[:k]
	}
	best := make([]int, len(ls)) // index into cands, -1 for none
	for i := range best {
		best[i] = -1
	}
	for ci, c := range ix.cands {
		k := sort.SearchInts(ls, c.first)
		for ; k < len(ls) && ls[k] <= c.last; k++ {
			cur := best[k]
			if cur < 0 || ix.isAncestor(ix.cands[cur].id, c.id) {
				best[k] = ci
			}
		}
	}
	seen := map[int]bool{}
	var out []int
	for _, b := range best {
		if b < 0 || seen[b] || ix.cands[b].mask {
			continue
		}
		seen[b] = true
		out = append(out, b)
	}
	return out
}

func (ix *index) isAncestor(a, d syntax.NodeID) bool {
	return a < d && d < ix.t.Nodes[a].End
}

func dedupInts(xs []int) []int {
	out := xs[:0]
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// key builds "ROOT->type:name->...->type:name" for candidate ci. fail is set
// when a Compatible-mode node on the path has no name child (SWE-PolyBench
// raises there, and the whole patch scores 0).
//
// Compatible quirks kept: every "pair" ancestor appears as "pair:<key>"
// ("pair:[]" when its key is a string or number); the walk up stops at
// the first ancestor whose "type:name" repeats one already seen (losing
// the root); names join every direct child of a name type, so a Java
// method returning a plain class type is "ReturnType_method".
//
// Source: SWE-PolyBench node_utils.py _get_node_identifier,
// _find_identifiable_parent, get_parent_id; patch_utils.py _get_nodes.
func (ix *index) key(ci int) (string, string) {
	t := ix.t
	id := ix.cands[ci].id
	if ix.ln != nil {
		return ix.newLangKey(id), ""
	}
	self, fail := ix.label(id)
	if fail != "" {
		return "", fail
	}
	parts := []string{self}
	seen := map[string]bool{}
	for p := t.Nodes[id].Parent; p != syntax.NoNode; p = t.Nodes[p].Parent {
		n := &t.Nodes[p]
		kind := n.Kind()
		var lab string
		switch {
		case rootKinds[kind] && n.Parent == syntax.NoNode:
			lab = kind
		case ix.mode == Compatible && (compatCounted[kind] || kind == "pair"):
			l, fail := ix.label(p)
			if fail != "" {
				return "", fail
			}
			lab = l
		case ix.mode == Extended && ix.counted(p):
			l, _ := ix.label(p)
			lab = l
		default:
			continue
		}
		if ix.mode == Compatible {
			if seen[lab] {
				break
			}
			seen[lab] = true
		}
		parts = append(parts, lab)
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, "->"), ""
}

// newLangKey is key for the languages of newLangNodes: root type, counted
// ancestors, the node, each "type:name" ("type:<anonymous>" without a
// name), outermost first.
func (ix *index) newLangKey(id syntax.NodeID) string {
	t := ix.t
	var parts []string
	for p := id; p != syntax.NoNode; p = t.Nodes[p].Parent {
		n := &t.Nodes[p]
		switch {
		case p == id || ix.ln.counts(t, p):
			name := ix.ln.name(t, p)
			if name == "" {
				name = "<anonymous>"
			}
			parts = append(parts, n.Kind()+":"+name)
		case n.Parent == syntax.NoNode && n.Kind() == ix.ln.root:
			parts = append(parts, n.Kind())
		}
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, "->")
}

func (ix *index) counted(id syntax.NodeID) bool {
	if extendedCounted[ix.t.Nodes[id].Kind()] {
		return true
	}
	_, ok := ix.names[id]
	return ok
}

// label returns "type:name" for a counted node or pair.
func (ix *index) label(id syntax.NodeID) (string, string) {
	t := ix.t
	n := &t.Nodes[id]
	if name, ok := ix.names[id]; ok {
		return n.Kind() + ":" + name, ""
	}
	var names []string
	for c := n.FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if nameKinds[t.Nodes[c].Kind()] {
			names = append(names, t.TextString(c))
		}
	}
	if len(names) > 0 {
		return n.Kind() + ":" + strings.Join(names, "_"), ""
	}
	if ix.mode == Compatible {
		if n.Kind() == "pair" {
			// Python formats the empty list the tool returns.
			return "pair:[]", ""
		}
		return "", fmt.Sprintf("%s at line %d has no identifier", n.Kind(), t.Line(id))
	}
	if f := t.ChildByField(id, "name"); f != syntax.NoNode {
		return n.Kind() + ":" + t.TextString(f), ""
	}
	return n.Kind() + ":<anonymous>", ""
}

// boundName returns the name an arrow function or function expression is
// bound to: `const f = () => {}`, `obj.f = function () {}`, `{ f: () => {} }`,
// class field `f = () => {}`.
func boundName(t *syntax.Tree, id syntax.NodeID) (string, bool) {
	n := &t.Nodes[id]
	p := n.Parent
	if p == syntax.NoNode {
		return "", false
	}
	pn := &t.Nodes[p]
	var target syntax.NodeID = syntax.NoNode
	switch pn.Kind() {
	case "variable_declarator":
		if n.Field() == "value" {
			target = t.ChildByField(p, "name")
		}
	case "assignment_expression":
		if n.Field() == "right" {
			target = t.ChildByField(p, "left")
			if target != syntax.NoNode && t.Nodes[target].Kind() == "member_expression" {
				target = t.ChildByField(target, "property")
			}
		}
	case "pair":
		if n.Field() == "value" {
			target = t.ChildByField(p, "key")
		}
	case "public_field_definition", "field_definition":
		if n.Field() == "value" {
			target = t.ChildByField(p, "name")
			if target == syntax.NoNode {
				target = t.ChildByField(p, "property")
			}
		}
	}
	if target == syntax.NoNode {
		return "", false
	}
	name := strings.Trim(t.TextString(target), `"'`+"`")
	if name == "" {
		return "", false
	}
	return name, true
}
