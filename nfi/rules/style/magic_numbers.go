package style

import (
	"bytes"
	"math/big"
	"strconv"
	"strings"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
	"github.com/polynfi/polynfi/syntax"
)

// MagicNumbers reports files with more unnamed numeric literals than the limit.
//
// Source: SWE-NFI Table 2 (no magic numbers); Tufts CS 40 coding standards;
// PEP 8 "Constants"; catalog decision 12.
var MagicNumbers = &nfi.Rule{
	ID: "STY-T02", Name: "magic-numbers", Aspect: nfi.CodingStyle, Kind: nfi.Threshold,
	Limit: &nfi.Limit{Default: 5, Cmp: nfi.AtMost, Unit: "magic numbers"},
	Doc: nfi.Doc{
		Summary: "at most 5 magic numbers per file",
		What: "Counts integer, float and imaginary literals in the file, a unary -, + or ~ " +
			"folded into the literal (`-2` is one literal of value −2). Not counted: the " +
			"values 0, 1, −1, 0.0 and 1.0; a literal that is the whole value, or an element " +
			"(nested tuples and lists included) of the tuple or list value, of an assignment " +
			"to an UPPER_CASE name (`TIMEOUT = 30`, `SIZES = (3, 5)`); a default parameter " +
			"value (or an element of a tuple/list default); a subscript index or slice bound " +
			"(`a[2]`, `a[2:-3]`); any literal in an assignment to `__version__` or `__all__`. " +
			"Every magic literal is reported when the count exceeds the limit; the measured " +
			"value is the count.",
		Why:    "Unnamed numbers hide their meaning and must be changed in several places at once; a named constant documents and centralizes them.",
		Bad:    "def price(x):\n    return x * 1.19 + 2.5 - 3 * 7 + 42 // 12\n",
		Good:   "VAT = 1.19\n\n\ndef price(x):\n    return x * VAT + 2\n",
		Exempt: "booleans, None, strings and bytes are never magic.",
		Source: "SWE-NFI (arXiv 2607.27409) Table 2; Tufts CS 40 coding standards; catalog decision 12",
		Oracle: "Ruff PLR2004 differs: it only looks at literals in comparisons (so `x * 3.14` " +
			"passes Ruff and counts here) and exempts strings only via allow-magic-value-types. " +
			"Not exact.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"PLR2004"}, Exact: false},
	Kinds:  []string{"integer", "float"},
	Visit:  visitMagicNumber,
	Finish: finishMagicNumbers,
}

type magicState struct {
	found []syntax.NodeID
	// dunder is false when no identifier that an assignment may bind is
	// __version__ or __all__ (bindsDunder): exemptContext's climb to the
	// statement is then skipped (one climb per literal of an expression
	// nested N deep costs N).
	dunder bool
}

func visitMagicNumber(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	lit := n
	if par := t.Nodes[n].Parent; par != syntax.NoNode && t.Nodes[par].Kind() == "unary_operator" && t.Nodes[n].Field() == "argument" {
		lit = par
	}
	if !isMagicValue(t, n, lit) {
		return
	}
	st, _ := p.State.(*magicState)
	if st == nil {
		st = &magicState{dunder: bindsDunder(p)}
		p.State = st
	}
	if exemptContext(t, lit, st.dunder) {
		return
	}
	st.found = append(st.found, lit)
}

func finishMagicNumbers(p *nfi.Pass) {
	st, _ := p.State.(*magicState)
	count := 0
	if st != nil {
		count = len(st.found)
	}
	p.Measure(float64(count))
	if !p.Exceeds(float64(count)) {
		return
	}
	// The messages end alike: " (file has <count> magic numbers, > <limit>)",
	// formatted once. All of them are cut from one string (the file's magic
	// numbers are 45% of site-packages' diagnostics): one allocation, not
	// one per message.
	const head = "magic number "
	tail := " (file has " + strconv.Itoa(count) + " magic numbers, > " + strconv.Itoa(int(p.Limit())) + ")"
	msgLen := func(n syntax.NodeID) int { return len(head) + len(p.Tree.Text(n)) + len(tail) }
	size := 0
	for _, n := range st.found {
		size += msgLen(n)
	}
	var sb strings.Builder
	sb.Grow(size)
	for _, n := range st.found {
		sb.WriteString(head)
		sb.Write(p.Tree.Text(n))
		sb.WriteString(tail)
	}
	p.Grow(len(st.found))
	all, at := sb.String(), 0
	for _, n := range st.found {
		p.Report(n, all[at:at+msgLen(n)])
		at += msgLen(n)
	}
}

// isMagicValue reports whether the literal n (with its unary operator lit,
// when lit != n) has a value other than 0, 1, -1, 0.0 and 1.0.
func isMagicValue(t *syntax.Tree, n, lit syntax.NodeID) bool {
	integer := t.Nodes[n].Kind() == "integer"
	v, known := decimalValue(t.Text(n), integer)
	if !known && integer {
		v, known = prefixedValue(t.Text(n))
	}
	if known {
		// v is 0, 1 or a value ≥ 0 other than those (2): -0 = 0, ~0 = -1,
		// -1, and ~1 = -2; any other v is outside {0, 1, -1} whatever the
		// operator. (~ of a float goes the big.Float way below: -v-1 is
		// rounded there.)
		invert := lit != n && t.Nodes[t.ChildByField(lit, "operator")].Kind() == "~"
		if integer || !invert {
			return v == 2 || v == 1 && invert
		}
	}
	text := strings.ReplaceAll(string(t.Text(n)), "_", "")
	if text == "" {
		return false
	}
	if c := text[len(text)-1]; c == 'j' || c == 'J' {
		return true // imaginary literals are never 0 or 1
	}
	var f big.Float
	if t.Nodes[n].Kind() == "integer" {
		i, ok := new(big.Int).SetString(strings.ToLower(text), 0)
		if !ok {
			return true
		}
		f.SetInt(i)
	} else if _, ok := f.SetString(text); !ok {
		return true
	}
	if lit != n {
		switch t.Nodes[t.ChildByField(lit, "operator")].Kind() {
		case "-":
			f.Neg(&f)
		case "~":
			f.Neg(&f)
			f.Sub(&f, big.NewFloat(1))
		}
	}
	for _, x := range []float64{0, 1, -1} {
		if f.Cmp(big.NewFloat(x)) == 0 {
			return false
		}
	}
	return true
}

// decimalValue classifies the value of the most common numeric literals
// exactly, without math/big: a decimal integer without leading zeros, or a
// float of at most 15 digits and one point without exponent (underscores
// allowed in both). v is 0 or 1 for those values and 2 for any other value;
// ok is false for every other literal (hex, octal, binary, exponents,
// imaginary, leading zeros, longer floats). The digit limit keeps the float
// classification equal to isMagicValue's big.Float one, which rounds to 64
// bits: a float of 15 digits other than 1 is at least 1e-14 away from 1.
func decimalValue(lit []byte, integer bool) (v int, ok bool) {
	intPart, frac := lit, []byte(nil)
	if !integer {
		dot := bytes.IndexByte(lit, '.')
		if dot < 0 {
			return 0, false
		}
		intPart, frac = lit[:dot], lit[dot+1:]
	}
	// the integer part: its value is 0, 1 or more
	intVal, digits := 0, 0
	for _, c := range intPart {
		switch {
		case c == '_':
		case c >= '0' && c <= '9':
			digits++
			if intVal > 1 || c > '1' || intVal == 1 {
				intVal = 2
			} else if c == '1' {
				intVal = 1
			}
		default:
			return 0, false
		}
	}
	if integer && (digits == 0 || intPart[0] == '0' && len(intPart) > 1) {
		return 0, false
	}
	fracZero := true
	for _, c := range frac {
		switch {
		case c == '_':
		case c >= '0' && c <= '9':
			digits++
			fracZero = fracZero && c == '0'
		default:
			return 0, false
		}
	}
	if digits == 0 || !integer && digits > 15 {
		return 0, false
	}
	if !fracZero {
		return 2, true
	}
	return intVal, true
}

// prefixedValue classifies the value of a hexadecimal, octal or binary
// integer literal (0x1F, 0o17, 0b1, underscores allowed) like decimalValue:
// v is 0 or 1 for those values and 2 for any other; ok is false for any
// other literal (no digit, a digit outside the base, a suffix).
func prefixedValue(lit []byte) (v int, ok bool) {
	if len(lit) < 3 || lit[0] != '0' {
		return 0, false
	}
	var base byte
	switch lit[1] | 0x20 {
	case 'x':
		base = 16
	case 'o':
		base = 8
	case 'b':
		base = 2
	default:
		return 0, false
	}
	digits := 0
	for _, c := range lit[2:] {
		var d byte
		switch {
		case c == '_':
			continue
		case c >= '0' && c <= '9':
			d = c - '0'
		case c|0x20 >= 'a' && c|0x20 <= 'f':
			d = (c | 0x20) - 'a' + 10
		default:
			return 0, false
		}
		if d >= base {
			return 0, false
		}
		digits++
		if v > 1 || d > 1 || v == 1 {
			v = 2 // a digit after a 1, or a digit above 1
		} else if d == 1 {
			v = 1
		}
	}
	return v, digits > 0
}

// bindsDunder reports whether an identifier in a binding position (the
// module's index of them, which the left of every assignment is in) is
// __version__ or __all__. (A search of the source for the two names cost
// more than it saved: Python is full of underscores.)
func bindsDunder(p *nfi.Pass) bool {
	t := p.Tree
	for _, id := range p.Module.BindableIdentifiers() {
		n := &t.Nodes[id]
		if l := int(n.EndByte - n.StartByte); l != len("__all__") && l != len("__version__") {
			continue
		}
		if s := string(t.Text(id)); s == "__all__" || s == "__version__" {
			return true
		}
	}
	return false
}

// exemptContext reports the contexts of decision 12 where a literal is not
// magic; dunder false says that no assignment to __version__ or __all__
// can enclose lit (magicState.dunder).
func exemptContext(t *syntax.Tree, lit syntax.NodeID, dunder bool) bool {
	child := lit
	p := t.Nodes[lit].Parent
	// Climb through tuple/list containers and parentheses.
	for p != syntax.NoNode {
		k := t.Nodes[p].Kind()
		if k == "tuple" || k == "list" || k == "parenthesized_expression" || k == "expression_list" {
			child, p = p, t.Nodes[p].Parent
			continue
		}
		break
	}
	if p != syntax.NoNode {
		switch t.Nodes[p].Kind() {
		case "assignment":
			if t.Nodes[child].Field() == "right" && upperTargets(t, p) {
				return true
			}
		case "default_parameter", "typed_default_parameter":
			if t.Nodes[child].Field() == "value" {
				return true
			}
		}
	}
	// Subscript index or slice bound (the literal itself).
	if q := t.Nodes[lit].Parent; q != syntax.NoNode {
		switch t.Nodes[q].Kind() {
		case "slice":
			return true
		case "subscript":
			if t.Nodes[lit].Field() == "subscript" {
				return true
			}
		}
	}
	// Anywhere inside an assignment to __version__ or __all__.
	if !dunder {
		return false
	}
	for a := t.Nodes[lit].Parent; a != syntax.NoNode; a = t.Nodes[a].Parent {
		switch t.Nodes[a].Kind() {
		case "assignment", "augmented_assignment":
			if l := t.ChildByField(a, "left"); l != syntax.NoNode && t.Nodes[l].Kind() == "identifier" {
				if s := string(t.Text(l)); s == "__version__" || s == "__all__" {
					return true
				}
			}
		case "expression_statement", "block", "module":
			return false
		}
	}
	return false
}

// upperTargets reports whether every target of assignment a is an
// UPPER_CASE name (a plain name, or a tuple or list of plain names).
func upperTargets(t *syntax.Tree, a syntax.NodeID) bool {
	l := t.ChildByField(a, "left")
	if l == syntax.NoNode {
		return false
	}
	if t.Nodes[l].Kind() == "identifier" {
		return isUpperName(string(t.Text(l)))
	}
	switch t.Nodes[l].Kind() {
	case "pattern_list", "tuple_pattern", "list_pattern":
		ok := false
		for c := t.Nodes[l].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if !t.Nodes[c].Named || t.Nodes[c].Extra {
				continue
			}
			if t.Nodes[c].Kind() != "identifier" || !isUpperName(string(t.Text(c))) {
				return false
			}
			ok = true
		}
		return ok
	}
	return false
}

// isUpperName reports an UPPER_CASE name with at least one letter.
func isUpperName(s string) bool {
	if !pyast.IsUppercase(s) {
		return false
	}
	for _, r := range s {
		if r != '_' && (r < '0' || r > '9') {
			return true
		}
	}
	return false
}
