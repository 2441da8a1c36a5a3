package metrics

import (
	"slices"

	"github.com/polynfi/polynfi/syntax"
)

// Summary is what the maintainability index and the per-def complexity
// limit need from a module: CyclomaticTotals(t) and HalsteadMetrics(t).Total.
type Summary struct {
	Complexity ComplexityTotals
	Halstead   HalsteadReport
}

// Summarize computes CyclomaticTotals(t) and HalsteadMetrics(t).Total in
// one walk over the tree: the Halstead walk, which visits every node the
// complexity visitor visits, tells a complexity tracker what it meets.
func Summarize(t *syntax.Tree) Summary {
	s := NewSummarizer(t)
	s.h.walk()
	return s.Summary()
}

// Summarizer computes Summarize(t) from nodes handed to it in preorder, for
// a caller that visits the tree anyway (a rule of the scoring engine): for a
// tree free of syntax errors the nodes of the kinds SummaryKinds lists are
// enough, as the nodes of other kinds change neither count, so the
// Summarizer needs no walk of its own. A Summarizer is used by one goroutine.
type Summarizer struct {
	h    halsteadVisitor
	cc   ccTracker
	done bool
	sum  Summary
}

// NewSummarizer returns a Summarizer of module t (Python).
func NewSummarizer(t *syntax.Tree) *Summarizer {
	s := &Summarizer{}
	cc := &s.cc
	*cc = ccTracker{t: t, kinds: ccKinds.Table(t.Lang)}
	cc.blocks = append(cc.blockBuf[:0], ccBlock{end: t.Nodes[t.Root()].End, node: t.Root()})
	s.h.init(t, cc)
	cc.defs = s.h.scratch.defs[:0]
	return s
}

// Visit takes node n of the tree. Nodes must come in preorder (increasing
// NodeID); a node at or before one already taken, and any node after
// Summary, is ignored. Every node of a kind in SummaryKinds must come; other
// nodes may (all of them, for a tree with syntax errors).
func (s *Summarizer) Visit(n syntax.NodeID) {
	if !s.done {
		s.h.visit(n)
	}
}

// Summary returns Summarize(t) of the nodes visited (computed on the first
// call; later Visits are ignored).
func (s *Summarizer) Summary() Summary {
	if s.done {
		return s.sum
	}
	s.done = true
	cc, t := &s.cc, s.cc.t
	cc.leaveTo(t.Nodes[t.Root()].End)
	m := cc.blocks[0]
	// Total: Module + Σ (function − 1) + Σ (class real complexity − 1)
	total := 1 + m.complexity + m.fnSum - m.fnCount + m.real
	byDef := make(map[syntax.NodeID]int, len(cc.defs))
	for _, d := range cc.defs {
		byDef[d.node] = d.complexity
	}
	s.h.scratch.defs, cc.defs = cc.defs, nil // pooled with the Halstead storage
	h := s.h.finish()
	s.sum = Summary{Complexity: ComplexityTotals{Total: total, ByDef: byDef}, Halstead: h.Total}
	return s.sum
}

// SummaryKinds returns the Python node kinds a Summarizer of a tree free of
// syntax errors must be shown: the kinds either count handles (operations,
// defs, classes, decisions). Strings and attributes, whose children the
// complexity count filters (it visits only a string's interpolations and an
// attribute's object), need not come (they were some three quarters of the
// nodes a Summarizer was shown): in Python's grammar the children the filters drop
// (string_start, string_content and string_end; an attribute's name) hold
// no node of the counted kinds, so the filters change nothing there.
func SummaryKinds() []string {
	var out []string
	for _, k := range syntax.KindNames(syntax.Python) {
		cc := ccKinds.Names[k] &^ ckNoLine
		filterOnly := cc == ckString || cc == ckConcatenated || cc == ckAttribute
		if (halKinds.Names[k] != 0 || cc != 0 && !filterOnly) && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// ccTracker counts cyclomatic complexity as CyclomaticTotals does, from the
// nodes of a preorder walk that visits a superset of what radon's
// complexity visitor visits: it ignores the nodes that visitor skips (class
// decorators and headers, assert contents, string parts other than
// interpolations, attribute names).
type ccTracker struct {
	t      *syntax.Tree
	kinds  syntax.KindTable
	defs   []defComplexity // the defs left so far, in postorder (storage of the halScratch)
	off    syntax.NodeID   // the nodes before off are skipped
	blocks []ccBlock       // the module, then the enclosing defs and classes
	// filters are the strings, concatenations and attributes being walked,
	// whose children the visitor visits only in part
	filters  []ccFilter
	blockBuf [16]ccBlock
}

// defComplexity is one def's cyclomatic complexity.
type defComplexity struct {
	node       syntax.NodeID
	complexity int
}

type ccBlock struct {
	end, node            syntax.NodeID // the block ends with its body
	class                bool
	complexity           int // decision points of the block's own code
	fnSum, fnCount, real int // defs met directly: Σ complexity, count; classes: Σ (real − 1)
}

type ccFilter struct {
	parent, end syntax.NodeID
	class       uint8 // ckString, ckConcatenated or ckAttribute
}

// leaveTo closes the blocks and filters that end at or before n.
func (c *ccTracker) leaveTo(n syntax.NodeID) {
	for len(c.blocks) > 1 && n >= c.blocks[len(c.blocks)-1].end {
		c.leave()
	}
	for len(c.filters) > 0 && n >= c.filters[len(c.filters)-1].end {
		c.filters = c.filters[:len(c.filters)-1]
	}
}

func (c *ccTracker) leave() {
	b := c.blocks[len(c.blocks)-1]
	c.blocks = c.blocks[:len(c.blocks)-1]
	outer := &c.blocks[len(c.blocks)-1]
	if b.class {
		outer.real += b.complexity + b.fnSum // real complexity − 1: inner classes do not count
		return
	}
	cc := 1 + b.complexity // closures and classes are blocks of their own
	c.defs = append(c.defs, defComplexity{node: b.node, complexity: cc})
	outer.fnSum += cc
	outer.fnCount++
}

// enter opens the block of a def or class at n.
func (c *ccTracker) enter(n syntax.NodeID, class bool) {
	t := c.t
	body := fieldBody.Child(t, n)
	c.blocks = append(c.blocks, ccBlock{node: n, class: class})
	if body == syntax.NoNode {
		c.leave()
		c.off = t.Nodes[n].End
		return
	}
	c.blocks[len(c.blocks)-1].end = t.Nodes[body].End
	c.off = body // the name, parameters and bases are not visited
}

// visit handles named node n (not a comment) of the walk; the walk visits
// nodes in preorder and calls leaveTo(n) first.
func (c *ccTracker) visit(n syntax.NodeID, nd *syntax.Node) {
	if n < c.off {
		return
	}
	t := c.t
	if len(c.filters) > 0 && c.filters[len(c.filters)-1].parent == nd.Parent {
		switch f := c.filters[len(c.filters)-1]; f.class {
		case ckString: // only interpolations
			if nd.Kind() != "interpolation" {
				c.off = nd.End
				return
			}
		case ckAttribute: // only the object (the first child in that field)
			if nd.Field() != "object" || t.ChildByField(f.parent, "object") != n {
				c.off = nd.End
				return
			}
		case ckConcatenated:
			// a part (walkStringNoLine): not visited itself, only its
			// interpolation children
			c.filters = append(c.filters, ccFilter{parent: n, end: nd.End, class: ckString})
			return
		}
	}
	class := c.kinds.Of(nd) &^ ckNoLine
	switch class {
	case ckOther: // most nodes
	case ckDecorated:
		if d := fieldDefinition.Child(t, n); d != syntax.NoNode {
			c.off = d // the decorators are not visited
		} else {
			c.off = nd.End
		}
	case ckFunction:
		c.enter(n, false)
	case ckClass:
		c.enter(n, true)
	case ckAssert:
		c.blocks[len(c.blocks)-1].complexity++
		c.off = nd.End // nothing inside an assert counts
	case ckString, ckConcatenated, ckAttribute:
		c.filters = append(c.filters, ccFilter{parent: n, end: nd.End, class: class})
	default:
		c.blocks[len(c.blocks)-1].complexity += ccDecisions(t, n, class)
	}
}
