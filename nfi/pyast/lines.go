package pyast

import (
	"encoding/binary"
	"math/bits"
	"runtime"
	"slices"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"

	"github.com/polynfi/polynfi/syntax"
)

// Token is one token of the file in the sense of Python's tokenizer, derived
// from the tree's leaves: an anonymous leaf (operator, keyword, bracket), a
// named leaf (identifier, number, comment) or a whole string literal (each
// `string` node is one token, interpolations included, as tokenize does
// before Python 3.12). Line continuations are not tokens.
//
// A Token takes 16 bytes: its byte span and end row are its node's (Span,
// and the tree's EndPoint), not copies; a large file has millions.
type Token struct {
	// Node is the leaf or string node.
	Node syntax.NodeID
	// Row is the 0-based row of the first byte.
	Row uint32
	// Depth is the bracket depth before the token: the number of (, [ and {
	// opened and not yet closed.
	Depth int32
	// Comment is true for a `#` comment.
	Comment bool
	// Newline is true when an unescaped line break (Python's NL or NEWLINE,
	// not a backslash continuation) lies between the previous non-comment
	// token and this one.
	Newline bool
}

// Kind returns the token's node kind: the operator or keyword text for an
// anonymous token ("+", "and", "("), the node type otherwise ("identifier",
// "string", "comment").
func (tk *Token) Kind(t *syntax.Tree) string { return t.Nodes[tk.Node].Kind() }

// Span returns the token's byte offsets, half-open (its node's).
func (tk *Token) Span(t *syntax.Tree) (start, end uint32) {
	n := &t.Nodes[tk.Node]
	return n.StartByte, n.EndByte
}

// Named reports a named node (identifier, number, string, comment).
func (tk *Token) Named(t *syntax.Tree) bool { return t.Nodes[tk.Node].Named }

// Line flags, see Line.
const (
	// InString: the line starts inside a string literal that began on an
	// earlier line (a continuation line of a multi-line string).
	InString uint8 = 1 << iota
	// Blank: the line has only spaces, tabs and form feeds (or nothing) and
	// is not inside a string.
	Blank
	// CommentOnly: the first token on the line is a comment.
	CommentOnly
	// Continuation: the line continues a logical line begun on an earlier
	// line (it starts inside open brackets or after a backslash), and is not
	// inside a string. Blank lines inside brackets are continuations too.
	Continuation
	// LogicalStart: a statement (a logical line) begins on this line: its
	// first token is not a comment and starts outside brackets.
	LogicalStart
	// AfterColon: for a LogicalStart or CommentOnly line outside brackets,
	// the previous non-comment token is `:`, so Python expects an indented
	// block here.
	AfterColon
	// Code: part of a leaf of the tree that is neither empty nor a comment
	// lies on the line, a line continuation included; a string counts by
	// its parts (its quotes, contents and replacement fields), so a blank
	// line inside a multi-line replacement field has no code. Lines inside
	// a multi-line string's contents have code.
	Code
)

// Line holds the facts of one physical line. Lines end at "\n"; a "\r"
// before it is not part of the line.
type Line struct {
	// Start and End are the byte offsets of the line's text, half-open,
	// without the line break.
	Start, End uint32
	// Indent is the length in bytes of the leading run of spaces, tabs and
	// form feeds.
	Indent uint32
	// Comment is the byte offset of the comment token on the line (a line
	// holds at most one), or -1.
	Comment int32
	// Flags is a set of InString, Blank, CommentOnly, Continuation,
	// LogicalStart and AfterColon.
	Flags uint8
}

// Has reports whether all of flags are set.
func (l *Line) Has(flags uint8) bool { return l.Flags&flags == flags }

// Lines is the physical-line table of a file, computed in one scan of the
// tokens and the source.
type Lines struct {
	// List has one entry per physical line (0-based rows, as Tree.LineStarts).
	List []Line
	// Tokens is the token stream in source order.
	Tokens []Token
	// IndentChar is the first character of the first indented logical
	// line (' ' or '\t'), or 0 when no line is indented. Source: Ruff Stylist::indentation, pycodestyle indent_char.
	IndentChar byte
}

// Text returns line i's text without its line break.
func (ls *Lines) Text(t *syntax.Tree, i int) []byte {
	l := &ls.List[i]
	return t.Source[l.Start:l.End]
}

// Lines returns the file's physical-line facts and token stream, built once
// per file.
func (m *Module) Lines() *Lines {
	if m.lines == nil {
		m.build()
	}
	return m.lines
}

// build makes the line table and the node index of the file in one pass
// over its nodes: every walk over the whole node slice streams all of its
// memory, and every rule run needs both.
func (m *Module) build() {
	ix := &nodeIndex{}
	m.lines = buildLines(m.Tree, ix)
	m.nodeIndex = ix
}

// Tokens returns the file's token stream (see Token), built once per file.
func (m *Module) Tokens() []Token { return m.Lines().Tokens }

// buildLines makes the line table of tree t and fills ix with its node
// lists (see nodeIndex) on the way.
func buildLines(t *syntax.Tree, ix *nodeIndex) *Lines {
	src := t.Source
	starts := t.LineStarts()
	ls := &Lines{List: lineStore.get(len(starts))[:len(starts)]}
	for i, s := range starts {
		end := uint32(len(src))
		if i+1 < len(starts) {
			end = starts[i+1] - 1
		}
		if end > s && src[end-1] == '\r' {
			end--
		}
		// indentation: spaces eight at a time (the first byte that is not
		// one by the lowest set bit), then one byte at a time
		ind := s
		for ind+8 <= end {
			if x := binary.LittleEndian.Uint64(src[ind:]) ^ 0x2020202020202020; x != 0 {
				ind += uint32(bits.TrailingZeros64(x) >> 3)
				break
			}
			ind += 8
		}
		for ind < end && (src[ind] == ' ' || src[ind] == '\t' || src[ind] == '\f') {
			ind++
		}
		// field by field, as the tokens below
		l := &ls.List[i]
		l.Start, l.End, l.Indent, l.Comment, l.Flags = s, end, ind-s, -1, 0
	}
	// Tokens are leaves, some 57% of the nodes in the standard library (at
	// most 69% per file); a file of little more than comments may have
	// more, and then the stream grows. Sizing the stream for every node
	// would clear and pool mostly unused memory (the storage is pooled, see
	// Module.Release).
	ls.Tokens = tokenStore.get(len(t.Nodes)*3/4 + 64)
	var (
		depth     int32
		prevEnd   uint32 // end of the previous token (of any kind)
		prevRow   = -1   // end row of the previous token
		newline   bool   // unescaped newline since the previous non-comment token
		lastCode  syntax.NodeID
		havePrevT bool
	)
	lastCode = syntax.NoNode
	nodes := t.Nodes
	rc := t.NewRowCursor()
	// About one node in three is an identifier or an attribute.
	ix.lists[listRef] = refStore.get(len(nodes) / 3)
	// and about one in twenty-four a bindable identifier.
	ix.lists[listBindable] = bindableStore.get(len(nodes) / 16)
	for i := 0; i < len(nodes); {
		n := &nodes[i]
		class, lists := classOther, uint8(0)
		if k := int(n.KindID); k < len(tokenClasses) {
			class, lists = tokenClasses[k], indexLists[k]
		}
		if lists != 0 {
			ix.addNode(nodes, i, lists)
		}
		isString := class == classString
		if !isString && n.FirstChild != syntax.NoNode {
			i++
			continue
		}
		next := i + 1
		row, endRow := rc.Row(n.StartByte), rc.RowAfter(n.EndByte)
		if isString {
			next = int(n.End)
			ls.markString(nodes, i, next, ix, &rc)
		} else if n.StartByte != n.EndByte && class != classComment {
			ls.markRows(row, endRow)
		}
		if n.StartByte == n.EndByte || class == classLineContinuation || n.StartByte < prevEnd {
			i = next
			continue
		}
		// The gap since the previous token holds only whitespace, line
		// breaks and backslash continuations.
		escapedLast := false
		// Every line break of the gap comes before the start of the
		// token's row: the bytes from there on are its indentation (or,
		// on the previous token's row, spaces), not looked at.
		gapEnd := n.StartByte
		if int(row) < len(starts) {
			gapEnd = min(gapEnd, max(prevEnd, starts[row]))
		}
		for j := prevEnd; j < gapEnd; j++ {
			if src[j] != '\n' {
				continue
			}
			k := j
			if k > prevEnd && src[k-1] == '\r' {
				k--
			}
			escaped := k > prevEnd && src[k-1] == '\\'
			if !escaped {
				newline = true
			}
			escapedLast = escaped
		}
		comment := class == classComment
		// The token is written in place (see the end of the loop): a
		// Token composed as a value and copied was read back in 16-byte
		// words over its narrower field stores, a store-forwarding stall.
		tokNewline := newline && havePrevT
		tokDepth := depth
		// Rows between the previous token and this one have no token.
		for r := prevRow + 1; r < int(row) && r < len(ls.List); r++ {
			l := &ls.List[r]
			if l.Indent == l.End-l.Start {
				l.Flags |= Blank
			}
			if depth > 0 {
				l.Flags |= Continuation
			}
		}
		if int(row) > prevRow && int(row) < len(ls.List) {
			l := &ls.List[row]
			cont := depth > 0 || escapedLast
			switch {
			case comment:
				l.Flags |= CommentOnly
			case !cont:
				l.Flags |= LogicalStart
			}
			if cont {
				l.Flags |= Continuation
			} else if lastCode != syntax.NoNode && tokenClassOf(&nodes[lastCode]) == classColon {
				l.Flags |= AfterColon
			}
			if !cont && !comment && l.Indent > 0 && ls.IndentChar == 0 {
				c := src[l.Start]
				if c == ' ' || c == '\t' {
					ls.IndentChar = c
				}
			}
		}
		if comment && int(row) < len(ls.List) {
			ls.List[row].Comment = int32(n.StartByte)
		}
		for r := row + 1; r <= endRow && int(r) < len(ls.List); r++ {
			ls.List[r].Flags |= InString
		}
		if !comment {
			switch class {
			case classOpen:
				depth++
			case classClose:
				if depth > 0 {
					depth--
				}
			}
			lastCode = syntax.NodeID(i)
			newline = false
			havePrevT = true
		}
		nt := len(ls.Tokens)
		if nt == cap(ls.Tokens) {
			ls.Tokens = slices.Grow(ls.Tokens, 1)
		}
		ls.Tokens = ls.Tokens[:nt+1]
		tk := &ls.Tokens[nt]
		tk.Node, tk.Row, tk.Depth = syntax.NodeID(i), row, tokDepth
		tk.Comment, tk.Newline = comment, tokNewline
		prevEnd, prevRow = n.EndByte, int(endRow)
		i = next
	}
	for r := prevRow + 1; r < len(ls.List); r++ {
		l := &ls.List[r]
		if l.Indent == l.End-l.Start {
			l.Flags |= Blank
		}
	}
	return ls
}

// markString sets Code on the lines of the non-empty, non-comment leaves
// of the string node from, whose subtree is nodes[from:end], and adds the
// nodes after from (interpolated names, say) to ix. rc finds the rows.
func (ls *Lines) markString(nodes []syntax.Node, from, end int, ix *nodeIndex, rc *syntax.RowCursor) {
	for j := from; j < end; j++ {
		n := &nodes[j]
		if j > from {
			if k := int(n.KindID); k < len(indexLists) && indexLists[k] != 0 {
				ix.addNode(nodes, j, indexLists[k])
			}
		}
		if n.FirstChild == syntax.NoNode && n.StartByte != n.EndByte && tokenClassOf(n) != classComment {
			ls.markRows(rc.Row(n.StartByte), rc.RowAfter(n.EndByte))
		}
	}
}

// markRows sets Code on the lines from row to endRow (a node's span).
func (ls *Lines) markRows(row, endRow uint32) {
	for r := row; r <= endRow && int(r) < len(ls.List); r++ {
		ls.List[r].Flags |= Code
	}
}

// Token classes of node kinds that buildLines treats specially.
const (
	classOther uint8 = iota
	classString
	classLineContinuation
	classComment
	classOpen  // ( [ {
	classClose // ) ] }
	classColon
)

// tokenClasses maps a Python KindID to its token class.
var tokenClasses = (&syntax.KindClasses{Names: map[string]uint8{
	"string":            classString,
	"line_continuation": classLineContinuation,
	"comment":           classComment,
	"(":                 classOpen, "[": classOpen, "{": classOpen,
	")": classClose, "]": classClose, "}": classClose,
	":": classColon,
}}).Table(syntax.Python)

func tokenClassOf(n *syntax.Node) uint8 { return tokenClasses.Of(n) }

// A freeList keeps the storage of released modules (see Module.Release)
// for later modules: up to one slice per core (the engine scores a file per
// core at a time) of at most maxSmall elements, and one of at most maxBig
// for the few large files, which would otherwise allocate (and clear) most
// of the memory. Unlike a sync.Pool it is not emptied by garbage
// collections, which come every few dozen files while scoring.
type freeList[T any] struct {
	small, big       chan []T
	maxSmall, maxBig int
}

func newFreeList[T any](maxSmall, maxBig int) *freeList[T] {
	return &freeList[T]{small: make(chan []T, runtime.GOMAXPROCS(0)), big: make(chan []T, 1),
		maxSmall: maxSmall, maxBig: maxBig}
}

// get returns an empty slice with room for n elements. A request larger
// than maxBig leaves the lists alone (its slice could not be kept, and
// taking the large slot's slice only to drop it would cost the next large
// file its storage). A new slice has an eighth to spare, but no more than
// the limit of the list it came from, so that it returns there.
func (f *freeList[T]) get(n int) []T {
	if n > f.maxBig {
		return make([]T, 0, n+n/8)
	}
	free, limit := f.small, f.maxSmall
	if n > f.maxSmall {
		free, limit = f.big, f.maxBig
	}
	select {
	case s := <-free:
		if cap(s) >= n {
			return s[:0]
		}
		// A slice too small is dropped: the larger one made here takes
		// its place when released.
	default:
	}
	return make([]T, 0, min(n+n/8, limit))
}

// put keeps s for a later get, unless it is too large or the list is full.
func (f *freeList[T]) put(s []T) {
	free := f.small
	switch c := cap(s); {
	case c == 0 || c > f.maxBig:
		return
	case c > f.maxSmall:
		free = f.big
	}
	select {
	case free <- s[:0]:
	default:
	}
}

// The storage of token streams (up to 32K tokens, 0.5 MB, per core
// and one of 64K), line tables, reference lists and bindable lists.
var (
	tokenStore    = newFreeList[Token](1<<15, 1<<16)
	lineStore     = newFreeList[Line](1<<13, 1<<15)
	refStore      = newFreeList[syntax.NodeID](1<<14, 1<<16)
	bindableStore = newFreeList[syntax.NodeID](1<<11, 1<<13)
)

// widthCond measures display widths without locale influence: East Asian
// ambiguous characters are narrow, as in Rust's unicode-width.
var widthCond = &runewidth.Condition{EastAsianWidth: false, StrictEmojiNeutral: true}

// DisplayWidth returns the display width of s as Ruff measures line length:
// each character adds its Unicode display width (East Asian wide and
// fullwidth 2, combining and control characters 0, others 1), and a tab
// advances the column to the next multiple of tabSize, counting columns in
// characters. The result is in terminal cells.
//
// Source: Ruff crates/ruff_linter/src/line_width.rs (LineWidthBuilder);
// widths from Unicode UAX #11 via github.com/mattn/go-runewidth.
func DisplayWidth(s []byte, tabSize int) int {
	// Printable ASCII is one cell a byte: skip the leading run of it,
	// eight bytes at a time while it lasts.
	i := 0
	for i+8 <= len(s) && printableASCII8(binary.LittleEndian.Uint64(s[i:])) {
		i += 8
	}
	for i < len(s) && s[i] >= 0x20 && s[i] < 0x7f {
		i++
	}
	width, column := i, i
	for i < len(s) {
		c := s[i]
		if c < 0x80 {
			i++
			switch {
			case c == '\t':
				adv := tabSize - column%tabSize
				width += adv
				column += adv
			case c == '\n' || c == '\r':
				width, column = 0, 0
			case c < 0x20 || c == 0x7f:
				column++
			default:
				width++
				column++
			}
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		i += size
		width += widthCond.RuneWidth(r)
		column++
	}
	return width
}

// printableASCII8 reports whether the eight bytes of w are all printable
// ASCII (0x20 to 0x7e). With every byte in range, no term below borrows,
// carries or has a high bit set. Otherwise the lowest byte out of range
// (no borrow or carry reaches it from the bytes below, which are in range)
// sets its high bit in w-0x20… when below 0x20, in w+0x01… when 0x7f, and
// in w when 0x80 or more.
func printableASCII8(w uint64) bool {
	const lo, one, high = 0x2020202020202020, 0x0101010101010101, 0x8080808080808080
	return ((w-lo)|(w+one)|w)&high == 0
}
