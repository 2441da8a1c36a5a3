package syntax

import (
	"math/rand"
	"testing"
	"unsafe"

	"github.com/polynfi/polynfi/internal/treenames"
)

// TestNodeSize: a node takes 32 bytes (its rows and columns are derived,
// not stored); a large file's peak memory is mostly its node array.
func TestNodeSize(t *testing.T) {
	if s := unsafe.Sizeof(Node{}); s != 32 {
		t.Errorf("syntax.Node takes %d bytes, want 32", s)
	}
}

// TestRowsAndPoints checks Tree.Row, Point and RowCursor against their
// definition (the row is the number of "\n" before the offset, the column
// the bytes since the last one), at every offset of sources with empty
// lines, CRLF, a final line without and with a line break, and an empty
// source, in increasing and in random order.
func TestRowsAndPoints(t *testing.T) {
	for _, src := range []string{"", "\n", "a", "a\n", "ab\n\ncd\r\nef", "x = 1\n\n\n# c\ny = (\n  2)\n"} {
		tr := &Tree{Source: []byte(src), lineStarts: treenames.LineStarts([]byte(src))}
		want := func(b int) (uint32, uint32) {
			row, col := 0, 0
			for i := 0; i < b && i < len(src); i++ {
				if src[i] == '\n' {
					row, col = row+1, 0
				} else {
					col++
				}
			}
			return uint32(row), uint32(col + max(0, b-len(src)))
		}
		rc := tr.NewRowCursor()
		order := rand.New(rand.NewSource(1)).Perm(len(src) + 2)
		for pass, offsets := range [][]int{nil, order} {
			if pass == 0 {
				for b := 0; b <= len(src)+1; b++ {
					offsets = append(offsets, b)
				}
			}
			for _, b := range offsets {
				wr, wc := want(b)
				if r, c := tr.Point(uint32(b)); r != wr || c != wc {
					t.Errorf("%q: Point(%d) = %d:%d, want %d:%d", src, b, r, c, wr, wc)
				}
				if r := rc.Row(uint32(b)); r != wr {
					t.Errorf("%q: RowCursor.Row(%d) = %d, want %d", src, b, r, wr)
				}
				if r := rc.RowAfter(uint32(b)); r != wr {
					t.Errorf("%q: RowCursor.RowAfter(%d) = %d, want %d", src, b, r, wr)
				}
			}
		}
	}
}

// TestSpanFrom checks Tree.SpanFrom against StartPoint and EndPoint for
// spans over every pair of offsets of sources with empty lines, CRLF and a
// final line without a break, from hints before, at, after and far past
// the answer's row, and negative.
func TestSpanFrom(t *testing.T) {
	for _, src := range []string{"", "\n", "a", "ab\n\ncd\r\nef", "x = 1\n\n\n# c\ny = (\n  2)\n" + "z\n\n\nw = 3\n"} {
		var nodes []Node
		for s := 0; s <= len(src); s++ {
			for e := s; e <= len(src); e++ {
				nodes = append(nodes, Node{StartByte: uint32(s), EndByte: uint32(e)})
			}
		}
		tr := &Tree{Source: []byte(src), Nodes: nodes, lineStarts: treenames.LineStarts([]byte(src))}
		for id := range nodes {
			wsr, wsc := tr.StartPoint(NodeID(id))
			wer, wec := tr.EndPoint(NodeID(id))
			for _, hint := range []int{-3, 0, int(wsr) - 1, int(wsr), int(wsr) + 1, int(wsr) + 5, 1 << 20} {
				sr, sc, er, ec := tr.SpanFrom(NodeID(id), hint)
				if sr != wsr || sc != wsc || er != wer || ec != wec {
					t.Errorf("%q: SpanFrom(%d-%d, hint %d) = %d:%d-%d:%d, want %d:%d-%d:%d", src,
						nodes[id].StartByte, nodes[id].EndByte, hint, sr, sc, er, ec, wsr, wsc, wer, wec)
				}
			}
		}
	}
}
