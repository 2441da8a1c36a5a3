package style

import (
	"strings"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
	"github.com/polynfi/polynfi/syntax"
)

// FunctionName reports functions and methods whose name is not lowercase.
//
// Source: PEP 8 "Function and Variable Names"; Ruff N802 (pep8-naming).
var FunctionName = &nfi.Rule{
	ID: "STY-R01", Name: "function-name-snake-case", Aspect: nfi.CodingStyle, Kind: nfi.Required,
	Doc: nfi.Doc{
		Summary: "function and method names are snake_case",
		What: "Every def (async included, nested and methods too) has a lowercase name: no ASCII " +
			"capital letter, and no upper-case non-ASCII letter (Ruff is_lowercase). Dunders pass.",
		Why: "PEP 8: function names should be lowercase, with words separated by underscores; a " +
			"consistent convention tells functions from classes at a glance.",
		Bad:  "def parseLine(line):\n    return line.split()\n",
		Good: "def parse_line(line):\n    return line.split()\n",
		Exempt: "pep8-naming's default ignore-names (setUp, tearDown, setUpClass, tearDownClass, " +
			"setUpModule, tearDownModule, asyncSetUp, asyncTearDown, setUpTestData, " +
			"failureException, longMessage, maxDiff); defs decorated @typing.override or " +
			"@typing.overload (typing_extensions too); visit_* methods of classes deriving, " +
			"directly or through classes of the same file, from ast.NodeVisitor or " +
			"ast.NodeTransformer; do_* methods of subclasses of http.server's BaseHTTPRequestHandler, " +
			"SimpleHTTPRequestHandler or CGIHTTPRequestHandler.",
		Source: "PEP 8 (\"Function names should be lowercase, with words separated by underscores\"); Ruff N802",
		Oracle: "Ruff N802, same semantics (100% per-file agreement on the standard library). " +
			"Differences: a class defined in the module it names is recognized from the file " +
			"path alone (`class NodeVisitor` in `ast.py`), while Ruff also requires " +
			"`__init__.py` files for package paths such as http/server.py; a base bound by " +
			"assignment (`Base = ast.NodeVisitor`) is not followed; `# noqa` and " +
			"`# flake8: noqa` comments are not honoured (polynfi judges the code, not its " +
			"suppressions).",
	},
	Oracle: nfi.Oracle{Ruff: []string{"N802"}, Exact: true},
	Kinds:  []string{"function_definition"},
	Visit:  checkFunctionName,
}

func checkFunctionName(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	id, name := defName(t, n)
	if id == syntax.NoNode || pyast.IsLowercase(name) || pyast.IsIgnoredName(name) {
		return
	}
	defs := p.Module.Definitions()
	def, ok := defs.Lookup(n)
	if ok && (def.Override || def.Overload) {
		return
	}
	if ok && def.Kind == pyast.MethodDef {
		cls := defs.ParentDef(def)
		switch {
		case strings.HasPrefix(name, "visit_") && derivesFrom(p.Module, cls, "ast.NodeVisitor", "ast.NodeTransformer"):
			return
		case strings.HasPrefix(name, "do_") && derivesFrom(p.Module, cls, "http.server.BaseHTTPRequestHandler",
			"http.server.SimpleHTTPRequestHandler", "http.server.CGIHTTPRequestHandler"):
			return
		}
	}
	p.Reportf(id, "function name %s is not snake_case", name)
}

// definedHere reports whether a class named base defined in the file at
// path is the class with qualified name q: the file is q's module
// (`ast.py` for ast.NodeVisitor, `.../http/server.py` for
// http.server.BaseHTTPRequestHandler), judged from the path alone.
func definedHere(path, q, base string) bool {
	i := strings.LastIndexByte(q, '.')
	if i < 0 || q[i+1:] != base {
		return false
	}
	file := strings.ReplaceAll(q[:i], ".", "/") + ".py"
	return path == file || strings.HasSuffix(path, "/"+file)
}

// derivesFrom reports whether class cls has a base class whose qualified
// name is one of names, directly or through base classes defined in the
// same file (followed by name, at most 16 levels).
func derivesFrom(m *pyast.Module, cls *pyast.Def, names ...string) bool {
	if cls == nil || !cls.Kind.IsClass() {
		return false
	}
	seen := map[syntax.NodeID]bool{}
	var walk func(c *pyast.Def, depth int) bool
	walk = func(c *pyast.Def, depth int) bool {
		if depth > 16 || seen[c.Node] {
			return false
		}
		seen[c.Node] = true
		t := m.Tree
		args := t.ChildByField(c.Node, "superclasses")
		if args == syntax.NoNode {
			return false
		}
		for b := t.Nodes[args].FirstChild; b != syntax.NoNode; b = t.Nodes[b].NextSibling {
			k := t.Nodes[b].Kind()
			if k != "identifier" && k != "attribute" {
				continue
			}
			if q, ok := m.QualifiedName(b); ok {
				for _, n := range names {
					if q == n {
						return true
					}
				}
			}
			if k == "identifier" {
				base := string(t.Text(b))
				for _, n := range names {
					if definedHere(m.Path, n, base) {
						return true
					}
				}
				for i := range m.Definitions().List {
					d := &m.Definitions().List[i]
					if d.Kind.IsClass() && d.Name == base && walk(d, depth+1) {
						return true
					}
				}
			}
		}
		return false
	}
	return walk(cls, 0)
}
