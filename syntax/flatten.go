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
extern bool ts_node_has_error(pn_node self);
extern void *ts_parser_new(void);
extern void ts_parser_delete(void *self);
extern bool ts_parser_set_language(void *self, const void *language);
extern void *ts_parser_parse_string(void *self, const void *old_tree, const char *string, uint32_t length);
extern void ts_tree_delete(void *self);
extern pn_node ts_tree_root_node(const void *self);
extern const void *ts_parser_language(const void *self);
typedef struct { void *payload; uint32_t current_byte_offset; bool has_error; } pn_parse_state;
typedef struct { void *payload; bool (*progress_callback)(pn_parse_state *state); } pn_parse_options;
typedef struct {
	void *payload;
	const char *(*read)(void *payload, uint32_t byte_index, pn_point position, uint32_t *bytes_read);
	int encoding; // TSInputEncodingUTF8 == 0
	void *decode;
} pn_input;
extern void *ts_parser_parse_with_options(void *self, const void *old_tree, pn_input input, pn_parse_options options);
extern void ts_set_allocator(void *(*m)(size_t), void *(*c)(size_t, size_t), void *(*r)(void *, size_t), void (*f)(void *));

// pn_native_allocator gives tree-sitter back its default (libc) allocator.
// go-tree-sitter installs Go callbacks instead, which cost a cgo callback
// per allocation and per free; the memory comes from libc malloc either
// way, so switching is safe at any time.
static void pn_native_allocator(void) { ts_set_allocator(NULL, NULL, NULL, NULL); }

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

typedef struct { const char *src; uint32_t len; } pn_string;

static const char *pn_read(void *payload, uint32_t byte, pn_point position, uint32_t *bytes_read) {
	(void)position;
	pn_string *s = payload;
	if (byte >= s->len) { *bytes_read = 0; return ""; }
	*bytes_read = s->len - byte;
	return s->src + byte;
}

// pn_stop_on_error cancels a parse once every parse version has hit a
// syntax error (tree-sitter checks it every 100 parse operations).
static bool pn_stop_on_error(pn_parse_state *state) { return state->has_error; }

// pn_parse_flat parses src and flattens the tree into *buf (grown with
// realloc, capacity *cap, along with *stack) and frees the C tree. It
// returns the number of nodes, -1 when tree-sitter returns no tree, or -2
// when stop_on_error is set and the parse was abandoned at a syntax error.
// *has_error receives ts_node_has_error of the root.
// A cancelled parse leaves *parser replaced by a fresh one: tree-sitter
// would resume the cancelled parse on the next call, and ts_parser_reset
// does not clear a cancellation during tree balancing.
static int32_t pn_parse_flat(void **parser, const char *src, uint32_t len, bool stop_on_error,
                             pn_flat **buf, int32_t *cap, int32_t **stack, bool *has_error) {
	void *tree;
	if (stop_on_error) {
		pn_string s = { src, len };
		pn_input in = { &s, pn_read, 0, NULL };
		pn_parse_options opts = { NULL, pn_stop_on_error };
		tree = ts_parser_parse_with_options(*parser, NULL, in, opts);
		if (!tree) {
			const void *lang = ts_parser_language(*parser);
			ts_parser_delete(*parser);
			*parser = ts_parser_new();
			ts_parser_set_language(*parser, lang);
			return -2;
		}
	} else {
		tree = ts_parser_parse_string(*parser, NULL, src, len);
	}
	if (!tree) return -1;
	pn_node root = ts_tree_root_node(tree);
	*has_error = ts_node_has_error(root);
	int32_t count = (int32_t)ts_node_descendant_count(root);
	if (count + 1 > *cap) {
		int32_t c = count + 1 + count / 4;
		pn_flat *nb = realloc(*buf, (size_t)c * sizeof(pn_flat));
		int32_t *ns = realloc(*stack, (size_t)c * sizeof(int32_t));
		if (nb) *buf = nb;
		if (ns) *stack = ns;
		if (!nb || !ns) { ts_tree_delete(tree); return -1; }
		*cap = c;
	}
	int32_t n = pn_flatten(&root, *buf, count, *stack);
	ts_tree_delete(tree);
	return n;
}

// pn_parse_only parses src and frees the tree: the cost of parsing alone.
// It returns 0 (no tree), 1 (tree without errors) or 2 (tree with errors).
static int pn_parse_only(void *parser, const char *src, uint32_t len) {
	void *tree = ts_parser_parse_string(parser, NULL, src, len);
	if (!tree) return 0;
	int r = ts_node_has_error(ts_tree_root_node(tree)) ? 2 : 1;
	ts_tree_delete(tree);
	return r;
}
*/
import "C"

import "unsafe"

func init() { C.pn_native_allocator() }

// cParser is one C TSParser with the reusable buffers of its flattening.
type cParser struct {
	p     unsafe.Pointer // TSParser*
	buf   *C.pn_flat
	stack *C.int32_t
	cap   C.int32_t
}

func newCParser(lang unsafe.Pointer) (*cParser, bool) {
	p := C.ts_parser_new()
	if !C.ts_parser_set_language(p, lang) {
		C.ts_parser_delete(p)
		return nil, false
	}
	return &cParser{p: p}, true
}

func (c *cParser) close() {
	C.ts_parser_delete(c.p)
	C.free(unsafe.Pointer(c.buf))
	C.free(unsafe.Pointer(c.stack))
	*c = cParser{}
}

// srcPtr returns a C view of src for the duration of a call (src holds no
// Go pointers, so passing it is allowed); nil for empty src, which
// tree-sitter reads as zero bytes.
func srcPtr(src []byte) *C.char {
	if len(src) == 0 {
		return nil
	}
	return (*C.char)(unsafe.Pointer(&src[0]))
}

// parseFlat parses src and returns the flattened nodes in the parser's C
// buffer (valid until the next call). ok is false when tree-sitter returns
// no tree; with stopOnError, also when the parse was abandoned at a syntax
// error (stopped is then true).
func (c *cParser) parseFlat(src []byte, stopOnError bool) (flat []C.pn_flat, ok, stopped bool) {
	var he C.bool
	n := C.pn_parse_flat(&c.p, srcPtr(src), C.uint32_t(len(src)), C.bool(stopOnError), &c.buf, &c.cap, &c.stack, &he)
	switch {
	case n == -2:
		return nil, false, true
	case n < 0:
		return nil, false, false
	case n == 0:
		return nil, true, false
	}
	return unsafe.Slice(c.buf, int(n)), true, false
}

// trim frees the flattening buffers after an unusually large file, so that
// one huge file does not pin them for the Parser's life.
func (c *cParser) trim() {
	if c.cap > maxSpareNodes {
		C.free(unsafe.Pointer(c.buf))
		C.free(unsafe.Pointer(c.stack))
		c.buf, c.stack, c.cap = nil, nil, 0
	}
}

// parseOnly parses src and discards the tree.
func (c *cParser) parseOnly(src []byte) (hasError, ok bool) {
	switch C.pn_parse_only(c.p, srcPtr(src), C.uint32_t(len(src))) {
	case 0:
		return false, false
	case 2:
		return true, true
	}
	return false, true
}
