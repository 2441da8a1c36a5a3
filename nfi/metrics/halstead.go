package metrics

import (
	"bytes"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

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
func HalsteadMetrics(t *syntax.Tree) Halstead { return halstead(t, nil) }

// halstead is HalsteadMetrics; cc, when not nil, is shown every node the
// walk visits, and the per-def reports are left out (Functions is nil).
func halstead(t *syntax.Tree, cc *ccTracker) Halstead {
	var h halsteadVisitor
	h.init(t, cc)
	h.walk()
	return h.finish()
}

// init makes h a visitor of t's module, ready for visit or walk; finish
// returns its result. (h refers to itself: it is not copied afterwards.)
func (h *halsteadVisitor) init(t *syntax.Tree, cc *ccTracker) {
	sc := halScratchPool.Get().(*halScratch)
	clear(sc.seen)
	*h = halsteadVisitor{t: t, kinds: halKinds.Table(t.Lang), seen: sc.seen, mark: sc.mark[:0], buf: sc.buf[:0], keys: sc.keys[:0], cc: cc, scratch: sc}
	h.acc = &h.module
	h.scopes = h.scopeBuf[:0]
	h.next = t.Root() + 1
	h.end = t.Nodes[t.Root()].End
}

// finish leaves the open defs, returns the analysis and gives the scratch
// storage back for reuse; the visitor is not used afterwards.
func (h *halsteadVisitor) finish() Halstead {
	for len(h.scopes) > 0 {
		h.leave()
	}
	h.module.distinct = len(h.seen) + h.nodeDistinct
	if sc := h.scratch; sc != nil && len(h.seen) <= maxPooledOperands {
		sc.mark, sc.buf, sc.keys = h.mark, h.buf, h.keys
		if h.nodeSeen != nil && cap(h.nodeSeen) <= maxPooledNodeWords {
			sc.nodeSeen = h.nodeSeen
		}
		if cap(sc.keys) > maxPooledKeyBytes {
			sc.keys = nil
		}
		if cap(sc.defs) > maxPooledOperands {
			sc.defs = nil
		}
		halScratchPool.Put(sc)
	}
	// the storage may now be another goroutine's: drop every view of it
	h.scratch, h.seen, h.mark, h.buf, h.keys, h.nodeSeen = nil, nil, nil, nil, nil, nil
	return Halstead{Total: h.module.report(), Functions: h.functions}
}

// halScratch is the storage of one HalsteadMetrics call, kept in
// halScratchPool for the next call (of any goroutine) so that the operand
// map does not grow again for every file. keys holds the bytes of seen's
// keys (see halsteadVisitor.intern); it is reused only after seen is cleared.
// defs is the def list of the Summarizer's complexity count. nodeSeen is
// the storage of halsteadVisitor.nodeSeen.
type halScratch struct {
	seen     map[string]int32
	mark     []int32
	buf      []byte
	keys     []byte
	defs     []defComplexity
	nodeSeen []uint64
}

var halScratchPool = sync.Pool{New: func() any { return &halScratch{seen: map[string]int32{}} }}

// maxPooledOperands bounds the operand maps kept for reuse: clearing a map
// costs its capacity, which one huge file must not impose on all the next.
const maxPooledOperands = 4096

// maxPooledNodeWords bounds the node bit sets kept for reuse (words of 64
// nodes: a file of up to 4M nodes).
const maxPooledNodeWords = 1 << 16

// maxPooledKeyBytes bounds the key storage kept for reuse.
const maxPooledKeyBytes = 64 << 10

// halAcc counts the operators and operands of the module (fn 0) or of one
// def that is not nested in another def (fn > 0) with everything nested in it.
type halAcc struct {
	operators, operands int
	opsSeen             uint64 // bit k set when operator kind k occurs
	fn                  int32  // the def's number, 1-based; 0 for the module
	distinct            int    // distinct operands of the def (set at the end for the module)
}

// merge adds a def's counts to the module's (whose distinct operands are
// counted at the end, over every scope).
func (a *halAcc) merge(b *halAcc) {
	a.operators += b.operators
	a.operands += b.operands
	a.opsSeen |= b.opsSeen
}

func (a *halAcc) report() HalsteadReport {
	return NewHalsteadReport(bits.OnesCount64(a.opsSeen), a.distinct, a.operators, a.operands)
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

// operator kinds, as CPython's ast names them (bit numbers of halAcc.opsSeen)
const (
	opAdd = 1 + iota
	opSub
	opMult
	opMatMult
	opDiv
	opMod
	opPow
	opLShift
	opRShift
	opBitOr
	opBitXor
	opBitAnd
	opFloorDiv
	opUSub
	opUAdd
	opInvert
	opNot
	opAnd
	opOr
	opLt
	opGt
	opEq
	opGtE
	opLtE
	opNotEq
	opIn
	opNotIn
	opIs
	opIsNot
)

// halOperator returns the operator kind of a binary, boolean or comparison
// operator token (without the `=` of an augmented assignment).
func halOperator(tok string) (uint8, bool) {
	switch tok {
	case "+":
		return opAdd, true
	case "-":
		return opSub, true
	case "*":
		return opMult, true
	case "@":
		return opMatMult, true
	case "/":
		return opDiv, true
	case "%":
		return opMod, true
	case "**":
		return opPow, true
	case "<<":
		return opLShift, true
	case ">>":
		return opRShift, true
	case "|":
		return opBitOr, true
	case "^":
		return opBitXor, true
	case "&":
		return opBitAnd, true
	case "//":
		return opFloorDiv, true
	case "~":
		return opInvert, true
	case "not":
		return opNot, true
	case "and":
		return opAnd, true
	case "or":
		return opOr, true
	case "<":
		return opLt, true
	case ">":
		return opGt, true
	case "==":
		return opEq, true
	case ">=":
		return opGtE, true
	case "<=":
		return opLtE, true
	case "!=", "<>":
		return opNotEq, true
	case "in":
		return opIn, true
	case "not in":
		return opNotIn, true
	case "is":
		return opIs, true
	case "is not":
		return opIsNot, true
	}
	return 0, false
}

// unaryOperator returns the operator kind of a unary operator token
// (-, + and ~; `not` is a not_operator node of its own).
func unaryOperator(tok string) (uint8, bool) {
	switch tok {
	case "-":
		return opUSub, true
	case "+":
		return opUAdd, true
	case "~":
		return opInvert, true
	}
	return 0, false
}

// halsteadVisitor walks a module once. Operand keys (the scope, a NUL and
// operandKey's key) are interned in seen, so that the module's distinct
// operands are len(seen) and a def's are counted with mark: mark[id] is
// the number of the last def that used operand id.
type halsteadVisitor struct {
	t         *syntax.Tree
	cc        *ccTracker       // see halstead
	kinds     syntax.KindTable // halKinds.Table(t.Lang)
	functions []FunctionHalstead
	seen      map[string]int32
	mark      []int32
	nfn       int32
	buf       []byte // scratch for building operand keys
	keys      []byte // storage of the keys of seen (see intern)
	scratch   *halScratch
	// nodeSeen has bit n set once node n was seen as an operand equal to
	// no other (appendNodeKey's): those are counted here, not interned in
	// seen (a string key each, the map's growth on an expression-heavy
	// file); nil until the first. nodeDistinct counts its bits.
	nodeSeen     []uint64
	nodeDistinct int

	// the state of the walk (see visit)
	next, end syntax.NodeID // the next node to visit; the module's end
	ctx       []byte        // the operands' scope: the enclosing def's name (a slice of the source), empty at module and class level
	acc       *halAcc       // &module, or &fn within a def
	module    halAcc
	// fn counts the def being walked that is not nested in another def
	// (those are never nested in each other), nested defs included.
	fn       halAcc
	scopes   []halScope
	scopeBuf [16]halScope
}

// node classes of halsteadVisitor.walk
const (
	hkOther = iota
	hkDecorated
	hkFunction
	hkBinary
	hkComplexPattern
	hkPattern
	hkUnionType
	hkAugmented
	hkUnary
	hkNot
	hkBoolean
	hkComparison
)

var halKinds = &syntax.KindClasses{Names: map[string]uint8{
	"decorated_definition": hkDecorated,
	"function_definition":  hkFunction,
	"binary_operator":      hkBinary,
	"complex_pattern":      hkComplexPattern,
	"case_pattern":         hkPattern,
	"dict_pattern":         hkPattern,
	"list_pattern":         hkPattern,
	"tuple_pattern":        hkPattern,
	"union_pattern":        hkPattern,
	"keyword_pattern":      hkPattern,
	"as_pattern":           hkPattern,
	"union_type":           hkUnionType,
	"augmented_assignment": hkAugmented,
	"unary_operator":       hkUnary,
	"not_operator":         hkNot,
	"boolean_operator":     hkBoolean,
	"comparison_operator":  hkComparison,
}}

// halScope is a def body being walked: the walk leaves it at end.
type halScope struct {
	end      syntax.NodeID
	def      syntax.NodeID
	outerCtx []byte // the operands' scope around the def
	toplevel bool   // a def not nested in another: merged and reported when left
}

// walk visits, in preorder, the named nodes below the module root that
// radon's HalsteadVisitor visits: def decorators and headers are skipped,
// and a def's body is walked in the def's scope (see HalsteadMetrics). The
// walk is a loop over the preorder node slice that jumps over skipped
// subtrees.
func (h *halsteadVisitor) walk() {
	for n := h.next; n < h.end; n = h.next {
		h.visit(n)
	}
}

// leave closes the innermost def scope.
func (h *halsteadVisitor) leave() {
	sc := h.scopes[len(h.scopes)-1]
	h.scopes = h.scopes[:len(h.scopes)-1]
	h.ctx = sc.outerCtx
	if sc.toplevel {
		h.acc = &h.module
		h.module.merge(&h.fn)
		if h.cc == nil { // (Summarize reports the total only)
			h.functions = append(h.functions, FunctionHalstead{Name: nameOf(h.t, sc.def), Report: h.fn.report()})
		}
	}
}

// visit handles node n of a preorder walk and sets h.next to the next node
// the walk visits (n+1, or past the subtrees it skips). A node before
// h.next is ignored, so visit may also be called with every node of the
// tree in preorder, or with only those of the kinds in summaryKinds: the
// nodes of other kinds change nothing (see Summarizer).
func (h *halsteadVisitor) visit(n syntax.NodeID) {
	if n < h.next {
		return
	}
	t := h.t
	for len(h.scopes) > 0 && n >= h.scopes[len(h.scopes)-1].end {
		h.leave()
	}
	nd := &t.Nodes[n]
	h.next = n + 1 // the children
	if !nd.Named || nd.Extra {
		h.next = nd.End
		return
	}
	if c := h.cc; c != nil {
		if len(c.blocks) > 1 && n >= c.blocks[len(c.blocks)-1].end || len(c.filters) > 0 && n >= c.filters[len(c.filters)-1].end {
			c.leaveTo(n)
		}
		if n >= c.off {
			c.visit(n, nd)
		}
	}
	ctx, acc := h.ctx, h.acc
	switch h.kinds.Of(nd) {
	case hkDecorated:
		def := fieldDefinition.Child(t, n)
		if def != syntax.NoNode && t.Nodes[def].Kind() == "class_definition" {
			break // a class's decorators are visited
		}
		if def != syntax.NoNode {
			h.next = def // the decorators are not visited
		} else {
			h.next = nd.End
		}
	case hkFunction:
		sc := halScope{def: n, outerCtx: ctx}
		if acc.fn == 0 {
			// not nested in a def: counted on its own, then merged
			h.nfn++
			h.fn = halAcc{fn: h.nfn}
			h.acc, sc.toplevel = &h.fn, true
		} // else nested: counted in (and only reported with) the outer def
		h.ctx = nil
		if name := fieldName.Child(t, n); name != syntax.NoNode {
			h.ctx = t.Text(name)
		}
		body := fieldBody.Child(t, n)
		if body != syntax.NoNode {
			sc.end = t.Nodes[body].End
		}
		h.scopes = append(h.scopes, sc)
		if body == syntax.NoNode {
			h.leave()
			h.next = nd.End
			return
		}
		h.next = body // name, parameters and return type are not visited
	case hkBinary:
		left, op, right := binaryFields(t, n)
		h.operator(acc, op, false)
		h.operand(acc, ctx, left)
		h.operand(acc, ctx, right)
	case hkComplexPattern:
		h.complexPattern(acc, ctx, n)
	case hkPattern:
		// a negative number literal in a pattern: ast.UnaryOp(USub)
		for c := nd.FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if next := t.Nodes[c].NextSibling; t.Nodes[c].Kind() == "-" && !t.Nodes[c].Named && next != syntax.NoNode && isNumber(t, next) {
				acc.operators++
				acc.opsSeen |= 1 << opUSub
				h.operand(acc, ctx, next)
			}
		}
	case hkUnionType:
		// `X | None` in an annotation: ast.BinOp(BitOr)
		acc.operators++
		acc.opsSeen |= 1 << opBitOr
		for c := nd.FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if t.Nodes[c].Named && !t.Nodes[c].Extra {
				h.operand(acc, ctx, c)
			}
		}
	case hkAugmented:
		left, op, right := binaryFields(t, n)
		h.operator(acc, op, true)
		h.operand(acc, ctx, left)
		h.operand(acc, ctx, right)
	case hkUnary:
		acc.operators++
		if op := fieldOperator.Child(t, n); op != syntax.NoNode {
			k, _ := unaryOperator(t.Nodes[op].Kind())
			acc.opsSeen |= 1 << k
		}
		h.operand(acc, ctx, fieldArgument.Child(t, n))
	case hkNot:
		acc.operators++
		acc.opsSeen |= 1 << opNot
		h.operand(acc, ctx, fieldArgument.Child(t, n))
	case hkBoolean:
		op := fieldOperator.Child(t, n)
		if op == syntax.NoNode {
			break
		}
		kind := t.Nodes[op].Kind()
		if p := nd.Parent; t.Kind(p) == "boolean_operator" && fieldLeft.Child(t, p) == n && t.Kind(fieldOperator.Child(t, p)) == kind {
			break // part of the parent's flattened chain
		}
		acc.operators++
		k, _ := halOperator(kind)
		acc.opsSeen |= 1 << k
		h.boolValues(acc, ctx, n, kind)
	case hkComparison:
		for c := nd.FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			cn := &t.Nodes[c]
			switch {
			case cn.Field() == "operators":
				acc.operators++
				if k, ok := halOperator(cn.Kind()); ok {
					acc.opsSeen |= 1 << k
				}
			case cn.Named && !cn.Extra:
				h.operand(acc, ctx, c)
			}
		}
	}
}

// complexPattern counts `[-]real ± imag` in a pattern: an optional
// ast.UnaryOp(USub) and an ast.BinOp.
func (h *halsteadVisitor) complexPattern(acc *halAcc, ctx []byte, n syntax.NodeID) {
	t := h.t
	var kids [5]syntax.NodeID // -, real, ±, imag and one more tells "too many"
	nk := 0
	for c := t.Nodes[n].FirstChild; c != syntax.NoNode && nk < len(kids); c = t.Nodes[c].NextSibling {
		if !t.Nodes[c].Extra {
			kids[nk] = c
			nk++
		}
	}
	if nk < 3 {
		return
	}
	left, i := syntax.NoNode, 0
	if t.Nodes[kids[0]].Kind() == "-" {
		acc.operators++
		acc.opsSeen |= 1 << opUSub
		h.operand(acc, ctx, kids[1])
		i = 2 // the left operand is the UnaryOp: a key of its own
	} else {
		left, i = kids[0], 1
	}
	if i+1 >= nk {
		return
	}
	h.operator(acc, kids[i], false)
	acc.operands += 2
	if left == syntax.NoNode {
		h.see(acc, ctx, kids[0], true)
	} else {
		h.see(acc, ctx, left, false)
	}
	h.see(acc, ctx, kids[i+1], false)
}

func isNumber(t *syntax.Tree, n syntax.NodeID) bool {
	k := t.Nodes[n].Kind()
	return k == "integer" || k == "float"
}

// operator counts the operator whose token is op (with a trailing `=` when
// augmented).
func (h *halsteadVisitor) operator(acc *halAcc, op syntax.NodeID, augmented bool) {
	acc.operators++
	if op == syntax.NoNode {
		return
	}
	tok := h.t.Nodes[op].Kind()
	if augmented {
		tok = strings.TrimSuffix(tok, "=")
	}
	if k, ok := halOperator(tok); ok {
		acc.opsSeen |= 1 << k
	}
}

// boolValues adds the operands of a flattened and/or chain, left to right.
// The chain nests to the left, one level per operator: it is followed down
// to its innermost node and back up by the parent links, not by recursion,
// so that memory does not grow with its length.
func (h *halsteadVisitor) boolValues(acc *halAcc, ctx []byte, n syntax.NodeID, kind string) {
	t := h.t
	d := n // the innermost node of the chain: its left operand comes first
	for {
		left := fieldLeft.Child(t, d)
		if t.Kind(left) == "boolean_operator" && t.Kind(fieldOperator.Child(t, left)) == kind {
			d = left
			continue
		}
		h.operand(acc, ctx, left)
		break
	}
	for x := d; ; x = t.Nodes[x].Parent {
		h.operand(acc, ctx, fieldRight.Child(t, x))
		if x == n {
			return
		}
	}
}

func (h *halsteadVisitor) operand(acc *halAcc, ctx []byte, n syntax.NodeID) {
	acc.operands++
	if n == syntax.NoNode {
		return
	}
	h.see(acc, ctx, n, false)
}

// see records operand n of scope ctx as seen by acc; byNode gives n a key
// of its own (an operand never equal to another) instead of operandKey's.
func (h *halsteadVisitor) see(acc *halAcc, ctx []byte, n syntax.NodeID, byNode bool) {
	if byNode {
		h.seeNode(acc, n)
		return
	}
	b := append(h.buf[:0], ctx...)
	b = append(b, 0)
	b, n, keyed := appendOperandKey(b, h.t, n)
	h.buf = b
	if !keyed {
		h.seeNode(acc, n)
		return
	}
	id, ok := h.seen[string(b)]
	if !ok {
		id = int32(len(h.seen))
		h.seen[h.intern(b)] = id
		h.mark = append(h.mark, 0)
	}
	if acc.fn != 0 && h.mark[id] != acc.fn {
		h.mark[id] = acc.fn
		acc.distinct++
	}
}

// seeNode records operand n, equal to no other operand, as seen by acc.
// A node is in one scope only, and always walked with the same acc: its
// first sighting is a new distinct operand of the module and of acc's def.
func (h *halsteadVisitor) seeNode(acc *halAcc, n syntax.NodeID) {
	if h.nodeSeen == nil {
		words := (len(h.t.Nodes) + 63) / 64
		h.nodeSeen = h.scratch.nodeSeenStorage(words)
	}
	w, bit := n/64, uint64(1)<<(n%64)
	if h.nodeSeen[w]&bit != 0 {
		return
	}
	h.nodeSeen[w] |= bit
	h.nodeDistinct++
	if acc.fn != 0 {
		acc.distinct++
	}
}

// nodeSeenStorage returns a cleared bit set of words words, from sc's
// storage when sc is not nil and it is large enough.
func (sc *halScratch) nodeSeenStorage(words int) []uint64 {
	if sc != nil && cap(sc.nodeSeen) >= words {
		b := sc.nodeSeen[:words]
		clear(b)
		sc.nodeSeen = nil
		return b
	}
	return make([]uint64, words)
}

// intern returns a string of b's bytes, copied to h.keys, so that the
// operand keys of a file share a few arrays instead of taking one
// allocation each. The bytes of an interned key are never written again:
// a key that does not fit starts a new array (the old one stays with the
// strings that point into it), and the pooled storage is reused only after
// the map that held those strings is cleared (init).
func (h *halsteadVisitor) intern(b []byte) string {
	if len(h.keys)+len(b) > cap(h.keys) {
		h.keys = make([]byte, 0, max(2*cap(h.keys), 4*len(b), 1024))
	}
	start := len(h.keys)
	h.keys = append(h.keys, b...)
	return unsafe.String(&h.keys[start], len(b))
}

// appendOperandKey appends a key equal for two operands exactly when
// radon's operand values compare equal in Python, and returns it with
// true; an operand equal to no other (anything but a name, an attribute, a
// number, a constant or a string) has no key: b is returned as it was,
// with false. n is returned without its grouping parentheses.
func appendOperandKey(b []byte, t *syntax.Tree, n syntax.NodeID) ([]byte, syntax.NodeID, bool) {
	kinds := operandKinds.Table(t.Lang)
	n = unparen(t, kinds, n)
	switch kinds.Of(&t.Nodes[n]) {
	case okIdentifier:
		return append(append(b, "s:"...), t.Text(n)...), n, true
	case okAttribute:
		if a := fieldAttribute.Child(t, n); a != syntax.NoNode {
			return append(append(b, "s:"...), t.Text(a)...), n, true
		}
	case okNumber:
		return appendNumberKey(b, t.Text(n)), n, true
	case okTrue:
		return append(b, "n:1"...), n, true
	case okFalse:
		return append(b, "n:0"...), n, true
	case okNone:
		return append(b, "None"...), n, true
	case okEllipsis:
		return append(b, "Ellipsis"...), n, true
	case okString:
		if k, ok := appendStringKey(b, t, n); ok {
			return k, n, true
		}
	}
	return b, n, false
}

// node classes of appendOperandKey and unparen
const (
	okOther = iota
	okParen // grouping: parenthesized_expression, type
	okIdentifier
	okAttribute
	okNumber
	okTrue
	okFalse
	okNone
	okEllipsis
	okString
)

var operandKinds = &syntax.KindClasses{Names: map[string]uint8{
	"parenthesized_expression": okParen,
	"type":                     okParen,
	"identifier":               okIdentifier,
	"attribute":                okAttribute,
	"integer":                  okNumber,
	"float":                    okNumber,
	"true":                     okTrue,
	"false":                    okFalse,
	"none":                     okNone,
	"ellipsis":                 okEllipsis,
	"string":                   okString,
	"concatenated_string":      okString,
}}

// unparen strips the grouping nodes (kinds, operandKinds' table) around n.
func unparen(t *syntax.Tree, kinds syntax.KindTable, n syntax.NodeID) syntax.NodeID {
	for kinds.Of(&t.Nodes[n]) == okParen {
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

// appendNumberKey appends the key of a numeric literal, canonical so that
// equal Python values (1, 1.0, 0x1, True) share a key.
func appendNumberKey(b []byte, lit []byte) []byte {
	// Most literals are plain decimal integers, already canonical.
	plain := len(lit) == 1 || len(lit) > 1 && lit[0] != '0'
	for _, c := range lit {
		if c < '0' || c > '9' {
			plain = false
			break
		}
	}
	if plain {
		return append(append(b, "n:"...), lit...)
	}
	return append(b, numberKey(string(lit))...)
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

// appendStringKey appends the key of the value of a string literal n (a
// string or a concatenated_string of string parts); ok is false for
// f-strings (ast.JoinedStr, never equal to another operand), and b is then
// returned unchanged.
func appendStringKey(b []byte, t *syntax.Tree, n syntax.NodeID) ([]byte, bool) {
	mark := len(b)
	b = append(b, "s:"...)
	bytesLit := false
	part := func(p syntax.NodeID) bool {
		start, end := syntax.NoNode, syntax.NoNode
		for c := t.Nodes[p].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			switch t.Nodes[c].Kind() {
			case "string_start":
				start = c
			case "string_end":
				end = c
			case "interpolation":
				return false
			}
		}
		if start == syntax.NoNode || end == syntax.NoNode {
			return false
		}
		prefix := bytes.TrimRight(t.Text(start), "'\"")
		if bytes.ContainsAny(prefix, "fF") {
			return false
		}
		bytesLit = bytes.ContainsAny(prefix, "bB")
		body := t.Source[t.Nodes[start].EndByte:t.Nodes[end].StartByte]
		if bytes.ContainsAny(prefix, "rR") {
			b = append(b, normalizeNewlines(body)...)
		} else {
			b = decodeEscapes(b, normalizeNewlines(body), bytesLit)
		}
		return true
	}
	if t.Nodes[n].Kind() == "string" {
		if !part(n) {
			return b[:mark], false
		}
	} else {
		for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if t.Nodes[c].Kind() == "string" && !part(c) {
				return b[:mark], false
			}
		}
	}
	if bytesLit {
		b[mark] = 'b'
	}
	return b, true
}

func normalizeNewlines(b []byte) []byte {
	if bytes.IndexByte(b, '\r') < 0 {
		return b
	}
	s := strings.ReplaceAll(string(b), "\r\n", "\n")
	return []byte(strings.ReplaceAll(s, "\r", "\n"))
}

// decodeEscapes appends the value of a non-raw string body. \N{name}
// escapes are kept as written (the Unicode name table is not consulted).
func decodeEscapes(b []byte, s []byte, bytesLit bool) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b = append(b, c)
			continue
		}
		i++
		switch e := s[i]; e {
		case '\n':
		case '\\', '\'', '"':
			b = append(b, e)
		case 'a':
			b = append(b, 7)
		case 'b':
			b = append(b, 8)
		case 'f':
			b = append(b, 12)
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'v':
			b = append(b, 11)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v, j := 0, i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				v = v*8 + int(s[j]-'0')
				j++
			}
			b = appendCode(b, v, bytesLit)
			i = j - 1
		case 'x', 'u', 'U':
			width := 2
			switch e {
			case 'u':
				width = 4
			case 'U':
				width = 8
			}
			if e != 'x' && bytesLit || i+width >= len(s) {
				b = append(b, '\\')
				b = append(b, e)
				continue
			}
			v, err := strconv.ParseUint(string(s[i+1:i+1+width]), 16, 32)
			if err != nil {
				b = append(b, '\\')
				b = append(b, e)
				continue
			}
			b = appendCode(b, int(v), bytesLit)
			i += width
		default:
			b = append(b, '\\')
			b = append(b, e)
		}
	}
	return b
}

func appendCode(b []byte, v int, bytesLit bool) []byte {
	if bytesLit || v < utf8.RuneSelf {
		return append(b, byte(v))
	}
	return utf8.AppendRune(b, rune(v))
}
