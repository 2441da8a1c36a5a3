package syntax

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

// The declarations below mirror tree_sitter/api.h of go-tree-sitter v0.25.0;
// the symbols are linked from that module's compiled C code.
typedef struct { uint32_t row; uint32_t column; } pn_point;
typedef struct { uint32_t context[4]; const void *id; const void *tree; } pn_node;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } pn_cursor;

extern pn_cursor ts_tree_cursor_new(pn_node node);
extern void ts_tree_cursor_delete(pn_cursor *self);
extern pn_node ts_tree_cursor_current_node(const pn_cursor *self);
extern uint16_t ts_tree_cursor_current_field_id(const pn_cursor *self);
extern bool ts_tree_cursor_goto_first_child(pn_cursor *self);
extern bool ts_tree_cursor_goto_next_sibling(pn_cursor *self);
extern bool ts_tree_cursor_goto_parent(pn_cursor *self);
extern uint16_t ts_node_symbol(pn_node self);
extern uint32_t ts_node_start_byte(pn_node self);
extern uint32_t ts_node_end_byte(pn_node self);
extern pn_point ts_node_start_point(pn_node self);
extern pn_point ts_node_end_point(pn_node self);
extern bool ts_node_is_named(pn_node self);
extern bool ts_node_is_missing(pn_node self);
extern bool ts_node_is_extra(pn_node self);
extern uint32_t ts_node_descendant_count(pn_node self);

typedef struct {
	uint32_t start_byte, end_byte;
	uint32_t start_row, start_col, end_row, end_col;
	int32_t parent, next_sibling, first_child, end;
	uint16_t symbol, field;
	uint8_t flags;
} pn_flat;

static uint32_t pn_count(pn_node *root) { return ts_node_descendant_count(*root); }

// pn_flatten writes the tree under root in preorder into out (capacity cap)
// and returns the number of nodes written. end is the preorder index one past
// the node's last descendant.
static int32_t pn_flatten(pn_node *root, pn_flat *out, int32_t cap, int32_t *stack) {
	pn_cursor c = ts_tree_cursor_new(*root);
	int32_t n = 0, depth = 0;
	for (;;) {
		if (n >= cap) break;
		pn_node node = ts_tree_cursor_current_node(&c);
		pn_flat *f = &out[n];
		f->symbol = ts_node_symbol(node);
		f->field = ts_tree_cursor_current_field_id(&c);
		f->start_byte = ts_node_start_byte(node);
		f->end_byte = ts_node_end_byte(node);
		pn_point sp = ts_node_start_point(node), ep = ts_node_end_point(node);
		f->start_row = sp.row; f->start_col = sp.column;
		f->end_row = ep.row; f->end_col = ep.column;
		uint8_t flags = 0;
		if (ts_node_is_named(node)) flags |= 1;
		if (ts_node_is_missing(node)) flags |= 2;
		if (ts_node_is_extra(node)) flags |= 4;
		f->flags = flags;
		f->parent = depth > 0 ? stack[depth - 1] : -1;
		f->first_child = -1;
		f->next_sibling = -1;
		f->end = n + 1;
		int32_t me = n;
		n++;
		if (ts_tree_cursor_goto_first_child(&c)) {
			out[me].first_child = n;
			stack[depth++] = me;
			continue;
		}
		// climb until a next sibling exists
		int32_t cur = me;
		for (;;) {
			if (ts_tree_cursor_goto_next_sibling(&c)) {
				out[cur].next_sibling = n;
				break;
			}
			if (depth == 0 || !ts_tree_cursor_goto_parent(&c)) {
				ts_tree_cursor_delete(&c);
				return n;
			}
			cur = stack[--depth];
			out[cur].end = n;
		}
	}
	ts_tree_cursor_delete(&c);
	return n;
}
*/
import "C"

import (
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// flatten copies the whole tree under root into Go-side arrays with two cgo
// calls, so that nothing afterwards crosses cgo per node.
func flatten(root *sitter.Node) []C.pn_flat {
	// sitter.Node's only field is its C TSNode value; pn_node has the same layout.
	rp := (*C.pn_node)(unsafe.Pointer(root))
	count := int(C.pn_count(rp))
	out := make([]C.pn_flat, count)
	if count == 0 {
		return out
	}
	stack := make([]C.int32_t, count+1)
	n := C.pn_flatten(rp, &out[0], C.int32_t(count), &stack[0])
	return out[:int(n)]
}
