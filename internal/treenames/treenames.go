// Package treenames is what the parsers of polynfi share about their
// trees: a Table numbering node kinds or fields by name (syntax/pyparse
// and syntax/jsparse give tree-sitter's names their own numbers) and
// LineStarts, the byte offsets of a source's lines (syntax and both Go
// parsers).
package treenames

import (
	"bytes"
	"iter"
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
func LineStarts(src []byte) []uint32 {
	ls := make([]uint32, 1, 1+bytes.Count(src, []byte{'\n'}))
	for i := 0; ; {
		k := bytes.IndexByte(src[i:], '\n')
		if k < 0 {
			return ls
		}
		i += k + 1
		ls = append(ls, uint32(i))
	}
}
