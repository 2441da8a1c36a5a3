// Package treenames is what the parsers of polynfi share about their
// trees: a Table numbering node kinds or fields by name (syntax/pyparse
// and syntax/jsparse give tree-sitter's names their own numbers) and
// LineStarts, the byte offsets of a source's lines (syntax and both Go
// parsers).
package treenames

import (
	"bytes"
	"encoding/binary"
	"iter"
	"math/bits"
)

// Table numbers names in the order they are added: the first is 0, the
// next 1, and so on. Adding is not safe for concurrent use: the parsers add
// their names at package initialization and only read after.
type Table[ID ~uint16] struct {
	names []string
	ids   map[string]ID
}

// New returns a table holding first, numbered from 0 in order.
func New[ID ~uint16](first ...string) *Table[ID] {
	t := &Table[ID]{ids: make(map[string]ID, 256)}
	for _, n := range first {
		t.Of(n)
	}
	return t
}

// Of returns name's number, adding name first if the table lacks it. It
// panics past 65,536 names (ID is 16 bits).
func (t *Table[ID]) Of(name string) ID {
	if id, ok := t.ids[name]; ok {
		return id
	}
	if len(t.names) > int(^ID(0)) {
		panic("treenames: more than 65536 names")
	}
	id := ID(len(t.names))
	t.names = append(t.names, name)
	t.ids[name] = id
	return id
}

// Lookup returns name's number and whether the table holds it.
func (t *Table[ID]) Lookup(name string) (ID, bool) {
	id, ok := t.ids[name]
	return id, ok
}

// Name returns the name numbered id; it panics if there is none.
func (t *Table[ID]) Name(id ID) string { return t.names[id] }

// Len is the number of names (every number is below it).
func (t *Table[ID]) Len() int { return len(t.names) }

// All yields each name with its number, in no particular order.
func (t *Table[ID]) All() iter.Seq2[string, ID] {
	return func(yield func(string, ID) bool) {
		for n, id := range t.ids {
			if !yield(n, id) {
				return
			}
		}
	}
}

// LineStarts returns the byte offsets where src's lines start: [0] is 0,
// then one past each "\n" (a final "\n" starts an empty last line).
//
// The line breaks are found eight bytes at a time (a word's "\n" bytes
// marked exactly, without the borrow of the x-0x01… test, then taken by
// their lowest set bit): a bytes.IndexByte call per line of some 40
// bytes cost more in call overhead than in scanning (1.3% of
// site-packages' CPU).
func LineStarts(src []byte) []uint32 {
	n := bytes.Count(src, []byte{'\n'})
	ls := make([]uint32, n+1)
	const low7 = 0x7f7f7f7f7f7f7f7f
	j, i := 1, 0
	for ; i+8 <= len(src) && j <= n; i += 8 {
		x := binary.LittleEndian.Uint64(src[i:]) ^ 0x0a0a0a0a0a0a0a0a // "\n" bytes now 0
		// the high bit of each byte of x that is 0: (b&0x7f)+0x7f carries
		// into the high bit unless b&0x7f is 0, and never out of the byte
		m := ^(((x & low7) + low7) | x | low7)
		for ; m != 0; m &= m - 1 {
			ls[j] = uint32(i + bits.TrailingZeros64(m)>>3 + 1)
			j++
		}
	}
	for ; i < len(src) && j <= n; i++ {
		if src[i] == '\n' {
			ls[j] = uint32(i + 1)
			j++
		}
	}
	return ls
}
