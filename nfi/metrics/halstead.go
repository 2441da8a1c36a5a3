package metrics

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/polynfi/polynfi/syntax"
)

// HalsteadReport holds Halstead's measures as radon reports them.
//
// Source: radon 6.0.1 radon/metrics.py h_visit_ast and
// halstead_visitor_report; M. H. Halstead, "Elements of Software Science" (1977).
type HalsteadReport struct {
	H1               int     `json:"h1"`                // distinct operators
	H2               int     `json:"h2"`                // distinct operands
	N1               int     `json:"N1"`                // total operators
	N2               int     `json:"N2"`                // total operands
	Vocabulary       int     `json:"vocabulary"`        // h1 + h2
	Length           int     `json:"length"`            // N1 + N2
	CalculatedLength float64 `json:"calculated_length"` // h1·log2 h1 + h2·log2 h2 (0 unless both > 0)
	Volume           float64 `json:"volume"`            // length · log2 vocabulary (0 when the vocabulary is 0)
	Difficulty       float64 `json:"difficulty"`        // h1/2 · N2/h2 (0 when h2 is 0)
	Effort           float64 `json:"effort"`            // difficulty · volume
	Time             float64 `json:"time"`              // effort / 18, in seconds
	Bugs             float64 `json:"bugs"`              // volume / 3000
}

// FunctionHalstead is the Halstead report of one def's body.
type FunctionHalstead struct {
	Name   string
	Report HalsteadReport
}

// Halstead is the Halstead analysis of a module: the whole file, and each
// def that is not nested in another def (methods included), in source order.
type Halstead struct {
	Total     HalsteadReport
	Functions []FunctionHalstead
}

// HalsteadMetrics counts Halstead operators and operands the way radon does.
//
// Operators are the operator nodes of binary operations, unary operations
// (not, -, +, ~), boolean operations (one per `and`/`or` chain, as CPython's
// ast flattens `a and b and c`), augmented assignments and each comparison
// operator; distinct operators are distinct operator kinds (Add, Not, Lt, …).
// Operands are the operation's operands: the left and right of a binary
// operation or augmented assignment, the operand of a unary one, every value
// of a boolean chain, and every term of a comparison. An operand that is a
// name counts as its identifier, an attribute as its attribute name, a
// literal as its value (1, 1.0 and True are one operand, as in Python
// equality), anything else as itself (never equal to another). Distinct
// operands are counted per scope: module and class level share one scope,
// each def body is the scope of the def's name. Def decorators, parameters,
// defaults and annotations are not visited.
//
// Source: radon 6.0.1 radon/visitors.py HalsteadVisitor.
func HalsteadMetrics(t *syntax.Tree) Halstead {
	h := halsteadVisitor{t: t}
	acc := newHalAcc()
	root := t.Root()
	for c := t.Nodes[root].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		h.walk(c, "", acc, true)
	}
	return Halstead{Total: acc.report(), Functions: h.functions}
}

type halAcc struct {
	operators, operands int
	opsSeen             uint64
	operandsSeen        map[string]struct{}
}

func newHalAcc() *halAcc { return &halAcc{operandsSeen: map[string]struct{}{}} }

func (a *halAcc) merge(b *halAcc) {
	a.operators += b.operators
	a.operands += b.operands
	a.opsSeen |= b.opsSeen
	for k := range b.operandsSeen {
		a.operandsSeen[k] = struct{}{}
	}
}

func (a *halAcc) report() HalsteadReport {
	return NewHalsteadReport(bits.OnesCount64(a.opsSeen), len(a.operandsSeen), a.operators, a.operands)
}

// NewHalsteadReport derives every Halstead measure from the four counts.
func NewHalsteadReport(h1, h2, n1, n2 int) HalsteadReport {
	r := HalsteadReport{H1: h1, H2: h2, N1: n1, N2: n2, Vocabulary: h1 + h2, Length: n1 + n2}
	if h1 > 0 && h2 > 0 {
		r.CalculatedLength = float64(h1)*math.Log2(float64(h1)) + float64(h2)*math.Log2(float64(h2))
	}
	if r.Vocabulary > 0 {
		r.Volume = float64(r.Length) * math.Log2(float64(r.Vocabulary))
	}
	if h2 > 0 {
		r.Difficulty = float64(h1*n2) / float64(2*h2)
	}
	r.Effort = r.Difficulty * r.Volume
	r.Time = r.Effort / 18
	r.Bugs = r.Volume / 3000
	return r
}

// operator kinds, as CPython's ast names them
var halOperators = map[string]uint8{
	"+": 1, "-": 2, "*": 3, "@": 4, "/": 5, "%": 6, "**": 7, "<<": 8, ">>": 9, "|": 10, "^": 11, "&": 12, "//": 13,
	"u-": 14, "u+": 15, "~": 16, "not": 17, "and": 18, "or": 19,
	"<": 20, ">": 21, "==": 22, ">=": 23, "<=": 24, "!=": 25, "<>": 25, "in": 26, "not in": 27, "is": 28, "is not": 29,
}

type halsteadVisitor struct {
	t         *syntax.Tree
	functions []FunctionHalstead
}

func (h *halsteadVisitor) walk(n syntax.NodeID, ctx string, acc *halAcc, top bool) {
	t := h.t
	nd := &t.Nodes[n]
	if !nd.Named || nd.Extra {
		return
	}
	switch nd.Kind {
	case "decorated_definition":
		def := t.ChildByField(n, "definition")
		if def != syntax.NoNode && t.Nodes[def].Kind == "class_definition" {
			break // a class's decorators are visited
		}
		if def != syntax.NoNode {
			h.walk(def, ctx, acc, top)
		}
		return
	case "function_definition":
		name := nameOf(t, n)
		fn := newHalAcc()
		bodyStatements(t, n, func(s syntax.NodeID) { h.walk(s, name, fn, false) })
		acc.merge(fn)
		if top {
			h.functions = append(h.functions, FunctionHalstead{Name: name, Report: fn.report()})
		}
		return
	case "binary_operator":
		h.operator(acc, t.ChildByField(n, "operator"), "")
		h.operand(acc, ctx, t.ChildByField(n, "left"))
		h.operand(acc, ctx, t.ChildByField(n, "right"))
	case "complex_pattern":
		h.complexPattern(acc, ctx, n)
	case "case_pattern", "dict_pattern", "list_pattern", "tuple_pattern", "union_pattern", "keyword_pattern", "as_pattern":
		// a negative number literal in a pattern: ast.UnaryOp(USub)
		for c := nd.FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if next := t.Nodes[c].NextSibling; t.Nodes[c].Kind == "-" && !t.Nodes[c].Named && next != syntax.NoNode && isNumber(t, next) {
				acc.operators++
				acc.opsSeen |= 1 << halOperators["u-"]
				h.operand(acc, ctx, next)
			}
		}
	case "union_type":
		// `X | None` in an annotation: ast.BinOp(BitOr)
		acc.operators++
		acc.opsSeen |= 1 << halOperators["|"]
		for c := nd.FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if t.Nodes[c].Named && !t.Nodes[c].Extra {
				h.operand(acc, ctx, c)
			}
		}
	case "augmented_assignment":
		h.operator(acc, t.ChildByField(n, "operator"), "=")
		h.operand(acc, ctx, t.ChildByField(n, "left"))
		h.operand(acc, ctx, t.ChildByField(n, "right"))
	case "unary_operator":
		acc.operators++
		if op := t.ChildByField(n, "operator"); op != syntax.NoNode {
			kind := t.Nodes[op].Kind
			if kind != "~" {
				kind = "u" + kind
			}
			acc.opsSeen |= 1 << halOperators[kind]
		}
		h.operand(acc, ctx, t.ChildByField(n, "argument"))
	case "not_operator":
		acc.operators++
		acc.opsSeen |= 1 << halOperators["not"]
		h.operand(acc, ctx, t.ChildByField(n, "argument"))
	case "boolean_operator":
		op := t.ChildByField(n, "operator")
		if op == syntax.NoNode {
			break
		}
		kind := t.Nodes[op].Kind
		if p := nd.Parent; t.Kind(p) == "boolean_operator" && t.ChildByField(p, "left") == n && t.Kind(t.ChildByField(p, "operator")) == kind {
			break // part of the parent's flattened chain
		}
		acc.operators++
		acc.opsSeen |= 1 << halOperators[kind]
		h.boolValues(acc, ctx, n, kind)
	case "comparison_operator":
		for c := nd.FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			cn := &t.Nodes[c]
			switch {
			case cn.Field == "operators":
				acc.operators++
				if k, ok := halOperators[cn.Kind]; ok {
					acc.opsSeen |= 1 << k
				}
			case cn.Named && !cn.Extra:
				h.operand(acc, ctx, c)
			}
		}
	}
	for c := nd.FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		h.walk(c, ctx, acc, top)
	}
}

// complexPattern counts `[-]real ± imag` in a pattern: an optional
// ast.UnaryOp(USub) and an ast.BinOp.
func (h *halsteadVisitor) complexPattern(acc *halAcc, ctx string, n syntax.NodeID) {
	t := h.t
	var kids []syntax.NodeID
	for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if !t.Nodes[c].Extra {
			kids = append(kids, c)
		}
	}
	if len(kids) < 3 {
		return
	}
	left, i := "", 0
	if t.Nodes[kids[0]].Kind == "-" {
		acc.operators++
		acc.opsSeen |= 1 << halOperators["u-"]
		h.operand(acc, ctx, kids[1])
		left, i = "#"+strconv.Itoa(int(kids[0])), 2
	} else {
		left, i = operandKey(t, kids[0]), 1
	}
	if i+1 >= len(kids) {
		return
	}
	h.operator(acc, kids[i], "")
	acc.operands += 2
	acc.operandsSeen[ctx+"\x00"+left] = struct{}{}
	acc.operandsSeen[ctx+"\x00"+operandKey(t, kids[i+1])] = struct{}{}
}

func isNumber(t *syntax.Tree, n syntax.NodeID) bool {
	k := t.Nodes[n].Kind
	return k == "integer" || k == "float"
}

func (h *halsteadVisitor) operator(acc *halAcc, op syntax.NodeID, suffix string) {
	acc.operators++
	if op == syntax.NoNode {
		return
	}
	if k, ok := halOperators[strings.TrimSuffix(h.t.Nodes[op].Kind, suffix)]; ok {
		acc.opsSeen |= 1 << k
	}
}

// boolValues adds the operands of a flattened and/or chain.
func (h *halsteadVisitor) boolValues(acc *halAcc, ctx string, n syntax.NodeID, kind string) {
	t := h.t
	left := t.ChildByField(n, "left")
	if t.Kind(left) == "boolean_operator" && t.Kind(t.ChildByField(left, "operator")) == kind {
		h.boolValues(acc, ctx, left, kind)
	} else {
		h.operand(acc, ctx, left)
	}
	h.operand(acc, ctx, t.ChildByField(n, "right"))
}

func (h *halsteadVisitor) operand(acc *halAcc, ctx string, n syntax.NodeID) {
	acc.operands++
	if n == syntax.NoNode {
		return
	}
	acc.operandsSeen[ctx+"\x00"+operandKey(h.t, n)] = struct{}{}
}

// operandKey returns a key equal for two operands exactly when radon's
// operand values compare equal in Python.
func operandKey(t *syntax.Tree, n syntax.NodeID) string {
	n = unparen(t, n)
	switch t.Nodes[n].Kind {
	case "identifier":
		return "s:" + t.TextString(n)
	case "attribute":
		if a := t.ChildByField(n, "attribute"); a != syntax.NoNode {
			return "s:" + t.TextString(a)
		}
	case "integer", "float":
		return numberKey(t.TextString(n))
	case "true":
		return "n:1"
	case "false":
		return "n:0"
	case "none":
		return "None"
	case "ellipsis":
		return "Ellipsis"
	case "string":
		if k, ok := stringKey(t, []syntax.NodeID{n}); ok {
			return k
		}
	case "concatenated_string":
		var parts []syntax.NodeID
		for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if t.Nodes[c].Kind == "string" {
				parts = append(parts, c)
			}
		}
		if k, ok := stringKey(t, parts); ok {
			return k
		}
	}
	return "#" + strconv.Itoa(int(n))
}

func unparen(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	for k := t.Nodes[n].Kind; k == "parenthesized_expression" || k == "type"; k = t.Nodes[n].Kind {
		inner := syntax.NoNode
		for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if t.Nodes[c].Named && !t.Nodes[c].Extra {
				inner = c
				break
			}
		}
		if inner == syntax.NoNode {
			return n
		}
		n = inner
	}
	return n
}

// numberKey canonicalizes a numeric literal so that equal Python values
// (1, 1.0, 0x1, True) share a key.
func numberKey(lit string) string {
	s := strings.ReplaceAll(lit, "_", "")
	imag := false
	if strings.HasSuffix(s, "j") || strings.HasSuffix(s, "J") {
		imag, s = true, s[:len(s)-1]
	}
	lower := strings.ToLower(s)
	isFloat := !strings.HasPrefix(lower, "0x") && strings.ContainsAny(lower, ".e")
	if !isFloat && !imag {
		v, ok := new(big.Int).SetString(lower, 0)
		if !ok {
			if v, ok = new(big.Int).SetString(strings.TrimLeft(lower, "0"), 10); !ok {
				return "n:" + lit
			}
		}
		return "n:" + v.String()
	}
	f, err := strconv.ParseFloat(lower, 64)
	if err != nil && !math.IsInf(f, 0) {
		return "n:" + lit
	}
	if imag {
		if f == 0 {
			return "n:0"
		}
		return "j:" + strconv.FormatFloat(f, 'g', -1, 64)
	}
	return floatKey(f)
}

func floatKey(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) || f != math.Trunc(f) {
		return "n:" + strconv.FormatFloat(f, 'g', -1, 64)
	}
	i, _ := new(big.Float).SetFloat64(f).Int(nil)
	return "n:" + i.String()
}

// stringKey returns the key of the value of a string literal made of the
// given parts; ok is false for f-strings (ast.JoinedStr, never equal to
// another operand).
func stringKey(t *syntax.Tree, parts []syntax.NodeID) (string, bool) {
	var b strings.Builder
	bytesLit := false
	for _, p := range parts {
		start, end := syntax.NoNode, syntax.NoNode
		for c := t.Nodes[p].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			switch t.Nodes[c].Kind {
			case "string_start":
				start = c
			case "string_end":
				end = c
			case "interpolation":
				return "", false
			}
		}
		if start == syntax.NoNode || end == syntax.NoNode {
			return "", false
		}
		delim := t.TextString(start)
		prefix := strings.ToLower(strings.TrimRight(delim, "'\""))
		if strings.ContainsRune(prefix, 'f') {
			return "", false
		}
		bytesLit = strings.ContainsRune(prefix, 'b')
		body := t.Source[t.Nodes[start].EndByte:t.Nodes[end].StartByte]
		if strings.ContainsRune(prefix, 'r') {
			b.Write(normalizeNewlines(body))
		} else {
			decodeEscapes(&b, normalizeNewlines(body), bytesLit)
		}
	}
	if bytesLit {
		return "b:" + b.String(), true
	}
	return "s:" + b.String(), true
}

func normalizeNewlines(b []byte) []byte {
	if !strings.ContainsRune(string(b), '\r') {
		return b
	}
	s := strings.ReplaceAll(string(b), "\r\n", "\n")
	return []byte(strings.ReplaceAll(s, "\r", "\n"))
}

// decodeEscapes writes the value of a non-raw string body. \N{name} escapes
// are kept as written (the Unicode name table is not consulted).
func decodeEscapes(b *strings.Builder, s []byte, bytesLit bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case '\n':
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'f':
			b.WriteByte(12)
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte(11)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v, j := 0, i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				v = v*8 + int(s[j]-'0')
				j++
			}
			writeCode(b, v, bytesLit)
			i = j - 1
		case 'x', 'u', 'U':
			width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if e != 'x' && bytesLit || i+width >= len(s) {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			v, err := strconv.ParseUint(string(s[i+1:i+1+width]), 16, 32)
			if err != nil {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			writeCode(b, int(v), bytesLit)
			i += width
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
}

func writeCode(b *strings.Builder, v int, bytesLit bool) {
	if bytesLit {
		b.WriteByte(byte(v))
		return
	}
	if v < utf8.RuneSelf {
		b.WriteByte(byte(v))
		return
	}
	b.WriteRune(rune(v))
}
