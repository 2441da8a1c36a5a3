package doc

import (
	"strings"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
)

// ParametersDocumented reports parameters of documented public functions
// that their docstring does not describe.
//
// Source: PEP 257 ("document its arguments"); Ruff D417 (partial).
var ParametersDocumented = &nfi.Rule{
	ID: "DOC-R12", Name: "parameters-documented", Aspect: nfi.Documentation, Kind: nfi.Required,
	Doc: nfi.Doc{
		Summary: "docstring does not document every parameter",
		What: "Every public function or method that has a docstring and at least one parameter " +
			"(not counting `self`/`cls`, skipped as in DOC-R06) names each parameter in its docstring, in " +
			"one of three styles: a Google section (`Args:`, `Arguments:`, `Parameters:`, `Params:`, " +
			"`Keyword Args:`, `Keyword Arguments:`, `Other Parameters:`) with an entry `name:` or " +
			"`name (type):` indented under it; a NumPy section (`Parameters`, `Other Parameters`, " +
			"`Keyword Arguments`, ... underlined with dashes) with an entry `name`, `name : type` or " +
			"`a, b : type`; or a Sphinx field `:param name:` / `:param type name:` (also `:arg`, " +
			"`:argument`, `:key`, `:keyword`). `*args` and `**kwargs` may be written with or without " +
			"their stars.",
		Why:    "A docstring that explains a function but not its parameters leaves callers guessing what to pass.",
		Bad:    "def scale(x, factor):\n    \"\"\"Scale x.\n\n    Args:\n        x: The value.\n    \"\"\"\n    return x * factor\n",
		Good:   "def scale(x, factor):\n    \"\"\"Scale x.\n\n    Args:\n        x: The value.\n        factor (float): The multiplier.\n    \"\"\"\n    return x * factor\n",
		Exempt: "Private functions and methods, nested functions, functions without a docstring (DOC-R03/R04 report those), `@overload` stubs, and functions whose only parameter is `self`/`cls`.",
		Source: "PEP 257 (\"The docstring for a function or method should summarize its behavior and document its arguments\"); the polynfi-92 catalog spec DOC-R12",
		Oracle: "Ruff D417 is partial: it only checks docstrings that already contain an Args/Parameters " +
			"section (a docstring with no such section passes D417 and fails DOC-R12, e.g. " +
			"`def f(x):\\n    \"\"\"Do f.\"\"\"`), it is disabled under the pep257 and numpy conventions, and it " +
			"checks private functions too. DOC-R12 is stricter and custom.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"D417"}, Exact: false},
	Finish: checkParametersDocumented,
}

func checkParametersDocumented(p *nfi.Pass) {
	ds := defs(p)
	fps := funcParams(p)
	for i := range ds.List {
		d := &ds.List[i]
		if (d.Kind != pyast.FunctionDef && d.Kind != pyast.MethodDef) || !d.Public || d.Doc == nil || d.Overload {
			continue
		}
		var documented map[string]bool
		owner := "" // describe(ds, d), built once for all its parameters
		for _, pr := range fps[i] {
			if pr.implicit {
				continue
			}
			if documented == nil {
				documented = documentedParams(d.Doc.Lines())
			}
			if !documented[pr.name] {
				if owner == "" {
					owner = describe(ds, d)
				}
				p.Report(pr.node, "parameter "+pr.stars()+pr.name+" of "+owner+" is not documented in its docstring")
			}
		}
	}
}

var googleSections = map[string]bool{
	"args": true, "arguments": true, "parameters": true, "params": true,
	"keyword args": true, "keyword arguments": true, "other parameters": true,
	"other args": true, "other arguments": true, "kwargs": true,
}

var numpySections = map[string]bool{
	"parameters": true, "other parameters": true, "keyword arguments": true,
	"keyword args": true, "arguments": true, "args": true, "params": true,
}

var sphinxFields = map[string]bool{
	"param": true, "parameter": true, "arg": true, "argument": true, "key": true, "keyword": true,
}

// documentedParams collects the parameter names a docstring documents
// (without stars).
func documentedParams(lines []string) map[string]bool {
	out := map[string]bool{}
	section := ""       // "google" or "numpy" while inside a parameter section
	sectionIndent := -1 // indentation of the section header
	entryIndent := -1   // indentation of the section's entries
	for i, raw := range lines {
		line := strings.TrimRight(raw, " \t\r")
		text := strings.TrimLeft(line, " \t")
		indent := len(line) - len(text)
		if text == "" {
			continue
		}
		sphinxParams(text, out)
		// section headers: a line ending in ":" (Google) or underlined
		// (NumPy); only those are lowercased (ToLower allocates, and most
		// docstring lines are neither; a line ends in ":" exactly when
		// its lowercase form does)
		if colon, under := strings.HasSuffix(text, ":"), i+1 < len(lines) && isUnderline(lines[i+1]); colon || under {
			lower := strings.ToLower(text)
			if colon && googleSections[strings.TrimSpace(strings.TrimSuffix(lower, ":"))] {
				section, sectionIndent, entryIndent = "google", indent, -1
				continue
			}
			if under && numpySections[lower] {
				section, sectionIndent, entryIndent = "numpy", indent, -1
				continue
			}
		}
		if section == "" {
			continue
		}
		switch section {
		case "google":
			if indent <= sectionIndent {
				section = ""
				continue
			}
			if entryIndent < 0 {
				entryIndent = indent
			}
			if indent == entryIndent {
				if name, ok := googleEntry(text); ok {
					out[name] = true
				}
			}
		case "numpy":
			if isUnderline(line) {
				continue
			}
			if indent < sectionIndent || (indent == sectionIndent && i+1 < len(lines) && isUnderline(lines[i+1])) {
				section = ""
				continue
			}
			if indent == sectionIndent {
				for _, name := range numpyEntry(text) {
					out[name] = true
				}
			}
		}
	}
	return out
}

func isUnderline(s string) bool {
	s = strings.TrimSpace(s)
	return len(s) >= 3 && strings.Trim(s, "-") == ""
}

// googleEntry parses "name: text", "name (type): text", "*args: text".
func googleEntry(text string) (string, bool) {
	colon := strings.IndexByte(text, ':')
	if colon <= 0 {
		return "", false
	}
	head := strings.TrimSpace(text[:colon])
	if paren := strings.IndexByte(head, '('); paren > 0 {
		head = strings.TrimSpace(head[:paren])
	}
	name := strings.TrimLeft(head, "*")
	if !isIdentifier(name) {
		return "", false
	}
	return name, true
}

// numpyEntry parses "name : type", "name", "a, b : type", "*args".
func numpyEntry(text string) []string {
	head := text
	if colon := strings.Index(text, " :"); colon >= 0 {
		head = text[:colon]
	} else if strings.ContainsAny(text, " \t") && !strings.Contains(text, ",") {
		return nil
	}
	var names []string
	for _, f := range strings.Split(head, ",") {
		name := strings.TrimLeft(strings.TrimSpace(f), "*")
		if isIdentifier(name) {
			names = append(names, name)
		}
	}
	return names
}

// sphinxParams adds the names of `:param name:` / `:param type name:` fields.
func sphinxParams(text string, out map[string]bool) {
	for {
		start := strings.IndexByte(text, ':')
		if start < 0 {
			return
		}
		text = text[start+1:]
		end := strings.IndexByte(text, ':')
		if end < 0 {
			return
		}
		fields := strings.Fields(text[:end])
		if len(fields) >= 2 && sphinxFields[strings.ToLower(fields[0])] {
			name := strings.TrimLeft(fields[len(fields)-1], "*")
			if isIdentifier(name) {
				out[name] = true
			}
			text = text[end+1:]
		}
	}
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || r > 0x7f || (i > 0 && r >= '0' && r <= '9') {
			continue
		}
		return false
	}
	return true
}
