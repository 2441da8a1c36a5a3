package syntax

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

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
extern uint32_t ts_node_child_count(pn_node self);
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

extern const char *ts_language_symbol_name(const void *self, uint16_t symbol);
extern const char *ts_language_field_name_for_id(const void *self, uint16_t id);
extern uint32_t ts_language_symbol_count(const void *self);
extern uint32_t ts_language_field_count(const void *self);
extern int ts_language_symbol_type(const void *self, uint16_t symbol); // TSSymbolTypeRegular == 0

// pn_str has the memory layout of a Go string.
typedef struct { const char *ptr; intptr_t len; } pn_str;

// pn_gonode has the memory layout of syntax.Node (checked at compile time on
// the Go side): pn_flatten writes the Go tree's nodes in place. It holds no
// pointers, so Go memory of this type may be passed to C as it is.
typedef struct {
	uint32_t start_byte, end_byte;
	int32_t parent, first_child, next_sibling, end;
	uint16_t kind_id, field_id;
	bool named, missing, extra;
	uint8_t lang;
} pn_gonode;

enum {
	pn_off_start_byte = offsetof(pn_gonode, start_byte),
	pn_off_end_byte = offsetof(pn_gonode, end_byte),
	pn_off_parent = offsetof(pn_gonode, parent),
	pn_off_first_child = offsetof(pn_gonode, first_child),
	pn_off_next_sibling = offsetof(pn_gonode, next_sibling),
	pn_off_end = offsetof(pn_gonode, end),
	pn_off_kind_id = offsetof(pn_gonode, kind_id),
	pn_off_field_id = offsetof(pn_gonode, field_id),
	pn_off_named = offsetof(pn_gonode, named),
	pn_off_missing = offsetof(pn_gonode, missing),
	pn_off_extra = offsetof(pn_gonode, extra),
	pn_off_lang = offsetof(pn_gonode, lang),
};

// pn_names is a grammar's node-type and field names as Go strings over the
// grammar's static C strings: kinds[symbol], fields[field id] (fields[0] is
// ""); named[symbol], whether a visible node of that (public) symbol is
// named; and, set from Go, field_ids[field id], the field's number in
// syntax's table of all grammars' field names, and lang, the grammar's
// syntax.Language.
typedef struct {
	pn_str *kinds, *fields;
	bool *named;
	uint16_t *field_ids;
	uint32_t kind_count, field_count;
	uint8_t lang;
} pn_names;

static void pn_set_field_id(pn_names *n, uint32_t i, uint16_t id) { n->field_ids[i] = id; }
static void pn_set_lang(pn_names *n, uint8_t lang) { n->lang = lang; }

static pn_str pn_cstr(const char *s) {
	pn_str r = { s ? s : "", 0 };
	if (s) r.len = (intptr_t)strlen(s);
	return r;
}

// pn_names_new builds a grammar's name tables; they live as long as the
// process, like the grammar itself.
static pn_names *pn_names_new(const void *lang) {
	pn_names *n = calloc(1, sizeof(pn_names));
	if (!n) return NULL;
	n->kind_count = ts_language_symbol_count(lang);
	n->field_count = ts_language_field_count(lang) + 1;
	n->kinds = calloc(n->kind_count, sizeof(pn_str));
	n->fields = calloc(n->field_count, sizeof(pn_str));
	n->field_ids = calloc(n->field_count, sizeof(uint16_t));
	n->named = calloc(n->kind_count, sizeof(bool));
	if (!n->kinds || !n->fields || !n->field_ids || !n->named) {
		free(n->kinds); free(n->fields); free(n->field_ids); free(n->named); free(n);
		return NULL;
	}
	for (uint32_t i = 0; i < n->kind_count; i++) {
		n->kinds[i] = pn_cstr(ts_language_symbol_name(lang, (uint16_t)i));
		n->named[i] = ts_language_symbol_type(lang, (uint16_t)i) == 0;
	}
	n->fields[0] = pn_cstr("");
	for (uint32_t i = 1; i < n->field_count; i++) n->fields[i] = pn_cstr(ts_language_field_name_for_id(lang, (uint16_t)i));
	return n;
}

// pn_fill writes node's own fields into f (not its links) and, in a tree
// with errors, notes it in *first_error when it is the first ERROR or
// MISSING node. A tree without errors (ts_node_has_error of its root is
// false, which counts MISSING nodes) has no MISSING node to look for.
//
// It saves a call per field where the answer is at hand:
//   - the start byte is node.context[0], which is all that
//     ts_node_start_byte returns (tree-sitter's node.c;
//     TestFlattenMatchesNodeAPI and TestFlattenStdlib check it against
//     that call); rows and columns are not stored (Tree.StartPoint derives
//     them from the byte offsets);
//   - ts_node_is_named is the named flag of the node's alias symbol or, for
//     a node without alias, of its own symbol, and the public symbol
//     (ts_node_symbol) shares its name and type with both, so a table by
//     public symbol answers it; ERROR (0xFFFF, outside the table) still
//     asks.
static inline void pn_fill(pn_gonode *f, pn_node node, uint16_t fid, const pn_names *names, int32_t n,
                           bool errors, int32_t *first_error) {
	uint16_t sym = ts_node_symbol(node);
	f->kind_id = sym;
	f->lang = names->lang;
	f->field_id = fid > 0 && fid < names->field_count ? names->field_ids[fid] : 0;
	f->start_byte = node.context[0];
	f->end_byte = ts_node_end_byte(node);
	f->named = sym < names->kind_count ? names->named[sym] : ts_node_is_named(node);
	f->missing = errors && ts_node_is_missing(node);
	f->extra = ts_node_is_extra(node);
	if (errors && *first_error < 0 && (sym == 0xFFFF || f->missing)) *first_error = n;
}

// pn_flatten writes the tree under root in preorder into out (capacity cap;
// stack needs 2*cap entries) and returns the number of nodes written. end
// is the preorder index one past the node's last descendant. *first_error
// receives the first ERROR or MISSING node in preorder, or -1.
//
// With counted, it uses each node's number of children (ts_node_child_count,
// kept by tree-sitter in the node) and so never asks the cursor for the
// next sibling of a last child: a failing ts_tree_cursor_goto_next_sibling
// searches the hidden nodes above it before giving up. Without, it asks the
// cursor after every node (the plain walk, pn_flatten_tree's fallback).
// stack holds, per open ancestor, its index and how many of its children
// are still to come (INT32_MAX: unknown).
static int32_t pn_flatten(pn_node root, const pn_names *names, pn_gonode *out, int32_t cap, int32_t *stack,
                          int32_t *first_error, bool counted) {
	pn_cursor c = ts_tree_cursor_new(root);
	int32_t n = 0, depth = 0;
	bool errors = ts_node_has_error(root);
	*first_error = -1;
	while (n < cap) {
		pn_node node = ts_tree_cursor_current_node(&c);
		pn_gonode *f = &out[n];
		pn_fill(f, node, ts_tree_cursor_current_field_id(&c), names, n, errors, first_error);
		f->parent = depth > 0 ? stack[2 * depth - 2] : -1;
		f->first_child = -1;
		f->next_sibling = -1;
		f->end = n + 1;
		int32_t me = n;
		n++;
		int32_t kids = counted ? (int32_t)ts_node_child_count(node) : INT32_MAX;
		if (kids > 0 && ts_tree_cursor_goto_first_child(&c)) {
			out[me].first_child = n;
			stack[2 * depth] = me;
			stack[2 * depth + 1] = kids == INT32_MAX ? INT32_MAX : kids - 1;
			depth++;
			continue;
		}
		// climb until an ancestor has children still to come
		int32_t cur = me;
		for (;;) {
			if (depth == 0) goto done;
			if (stack[2 * depth - 1] > 0 && ts_tree_cursor_goto_next_sibling(&c)) {
				if (stack[2 * depth - 1] != INT32_MAX) stack[2 * depth - 1]--;
				out[cur].next_sibling = n;
				break;
			}
			if (!ts_tree_cursor_goto_parent(&c)) goto done;
			depth--;
			cur = stack[2 * depth];
			out[cur].end = n;
		}
	}
done:
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

// pn_budget is the payload of pn_progress: the thread CPU time (ns) after
// which to give up (0: never), whether to stop at a syntax error, why the
// parse was stopped (1: syntax error, 2: time spent), the byte offset it
// had reached then, and the number of progress callbacks so far.
typedef struct { int64_t deadline; bool stop_on_error; int32_t why; uint32_t offset; int64_t calls; } pn_budget;

static int64_t pn_thread_cpu_ns(void) {
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

// pn_progress cancels a parse once every parse version has hit a syntax
// error (with stop_on_error), or once the thread's CPU time passes the
// deadline. Tree-sitter calls it every 100 parse operations; the clock is
// read every 16th call (it is a system call).
static bool pn_progress(pn_parse_state *state) {
	pn_budget *b = state->payload;
	b->calls++;
	if (b->stop_on_error && state->has_error) { b->why = 1; b->offset = state->current_byte_offset; return true; }
	if (b->deadline > 0 && (b->calls & 15) == 0 && pn_thread_cpu_ns() > b->deadline) {
		b->why = 2; b->offset = state->current_byte_offset; return true;
	}
	return false;
}

// pn_parse parses src and returns the tree and its node count in *count;
// NULL when tree-sitter returns none, or when the parse was abandoned:
// *why is then 1 (stop_on_error was set and every parse version hit a
// syntax error) or 2 (the parse used more than max_cpu_ns of the thread's
// CPU time; 0: no limit), and *offset the byte the parse had reached.
// *calls is the number of progress callbacks (about one per 100
// operations).
// A cancelled parse leaves *parser replaced by a fresh one: tree-sitter
// would resume the cancelled parse on the next call, and ts_parser_reset
// does not clear a cancellation during tree balancing.
static void *pn_parse(void **parser, const char *src, uint32_t len, bool stop_on_error, int64_t max_cpu_ns,
                      int32_t *count, int32_t *why, uint32_t *offset, int64_t *calls) {
	pn_string s = { src, len };
	pn_input in = { &s, pn_read, 0, NULL };
	pn_budget b = { max_cpu_ns > 0 ? pn_thread_cpu_ns() + max_cpu_ns : 0, stop_on_error, 0, 0, 0 };
	pn_parse_options opts = { &b, pn_progress };
	void *tree = ts_parser_parse_with_options(*parser, NULL, in, opts);
	*why = b.why;
	*offset = b.offset;
	*calls = b.calls;
	if (!tree && b.why != 0) {
		const void *lang = ts_parser_language(*parser);
		ts_parser_delete(*parser);
		*parser = ts_parser_new();
		ts_parser_set_language(*parser, lang);
		return NULL;
	}
	if (tree) *count = (int32_t)ts_node_descendant_count(ts_tree_root_node(tree));
	*why = 0;
	return tree;
}

// pn_flatten_tree flattens tree into out (capacity cap, with 2*cap stack
// entries), frees the tree and returns the number of nodes written.
// walk selects the plain walk (for tests); *fell_back is set when the
// counted walk came short and the plain walk redid the work.
static int32_t pn_flatten_tree(void *tree, const pn_names *names, pn_gonode *out, int32_t cap, int32_t *stack,
                               int32_t *first_error, bool walk, bool *fell_back) {
	pn_node root = ts_tree_root_node(tree);
	int32_t n = walk ? -1 : pn_flatten(root, names, out, cap, stack, first_error, true);
	*fell_back = !walk && n != cap;
	if (n != cap) n = pn_flatten(root, names, out, cap, stack, first_error, false);
	ts_tree_delete(tree);
	return n;
}

static void pn_tree_delete(void *tree) { ts_tree_delete(tree); }

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

import (
	"sync/atomic"
	"time"
	"unsafe"
)

func init() { C.pn_native_allocator() }

// The C struct pn_gonode must have Node's memory layout: these constants do
// not compile (negative array length) when the size or any field's offset
// differs.
var (
	_ [unsafe.Sizeof(Node{}) - uintptr(C.sizeof_pn_gonode)]byte
	_ [uintptr(C.sizeof_pn_gonode) - unsafe.Sizeof(Node{})]byte
	_ [unsafe.Offsetof(Node{}.StartByte) - uintptr(C.pn_off_start_byte)]byte
	_ [uintptr(C.pn_off_start_byte) - unsafe.Offsetof(Node{}.StartByte)]byte
	_ [unsafe.Offsetof(Node{}.EndByte) - uintptr(C.pn_off_end_byte)]byte
	_ [uintptr(C.pn_off_end_byte) - unsafe.Offsetof(Node{}.EndByte)]byte
	_ [unsafe.Offsetof(Node{}.Parent) - uintptr(C.pn_off_parent)]byte
	_ [uintptr(C.pn_off_parent) - unsafe.Offsetof(Node{}.Parent)]byte
	_ [unsafe.Offsetof(Node{}.FirstChild) - uintptr(C.pn_off_first_child)]byte
	_ [uintptr(C.pn_off_first_child) - unsafe.Offsetof(Node{}.FirstChild)]byte
	_ [unsafe.Offsetof(Node{}.NextSibling) - uintptr(C.pn_off_next_sibling)]byte
	_ [uintptr(C.pn_off_next_sibling) - unsafe.Offsetof(Node{}.NextSibling)]byte
	_ [unsafe.Offsetof(Node{}.End) - uintptr(C.pn_off_end)]byte
	_ [uintptr(C.pn_off_end) - unsafe.Offsetof(Node{}.End)]byte
	_ [unsafe.Offsetof(Node{}.KindID) - uintptr(C.pn_off_kind_id)]byte
	_ [uintptr(C.pn_off_kind_id) - unsafe.Offsetof(Node{}.KindID)]byte
	_ [unsafe.Offsetof(Node{}.FieldID) - uintptr(C.pn_off_field_id)]byte
	_ [uintptr(C.pn_off_field_id) - unsafe.Offsetof(Node{}.FieldID)]byte
	_ [unsafe.Offsetof(Node{}.Named) - uintptr(C.pn_off_named)]byte
	_ [uintptr(C.pn_off_named) - unsafe.Offsetof(Node{}.Named)]byte
	_ [unsafe.Offsetof(Node{}.Missing) - uintptr(C.pn_off_missing)]byte
	_ [uintptr(C.pn_off_missing) - unsafe.Offsetof(Node{}.Missing)]byte
	_ [unsafe.Offsetof(Node{}.Extra) - uintptr(C.pn_off_extra)]byte
	_ [uintptr(C.pn_off_extra) - unsafe.Offsetof(Node{}.Extra)]byte
	_ [unsafe.Offsetof(Node{}.lang) - uintptr(C.pn_off_lang)]byte
	_ [uintptr(C.pn_off_lang) - unsafe.Offsetof(Node{}.lang)]byte
)

// names builds the name tables of the grammar lang (a TSLanguage*) for
// flattening, and returns them with the node-type names by symbol as Go
// strings over the grammar's static C strings. fieldID gives a field
// name's number in the table of all grammars' field names (Node.FieldID).
func names(lang unsafe.Pointer, l Language, fieldID func(string) uint16) (tables unsafe.Pointer, kinds []string) {
	t := C.pn_names_new(lang)
	if t == nil {
		panic("syntax: out of memory building grammar name tables")
	}
	C.pn_set_lang(t, C.uint8_t(l))
	str := func(s C.pn_str) string { return unsafe.String((*byte)(unsafe.Pointer(s.ptr)), int(s.len)) }
	for _, s := range unsafe.Slice(t.kinds, int(t.kind_count)) {
		kinds = append(kinds, str(s))
	}
	for i, s := range unsafe.Slice(t.fields, int(t.field_count)) {
		C.pn_set_field_id(t, C.uint32_t(i), C.uint16_t(fieldID(str(s))))
	}
	return unsafe.Pointer(t), kinds
}

// cParser is one C TSParser with the reusable stack of its flattening.
type cParser struct {
	p     unsafe.Pointer // TSParser*
	stack []int32
	calls int64 // progress callbacks of the last parse (tests read it)
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

// parse parses src and returns the C tree and its number of nodes. tree is
// nil when tree-sitter returns no tree, or when the parse was abandoned:
// stopped is then stopSyntaxError (stopOnError was set) or stopBudget
// (more than maxCalls progress callbacks; maxCalls < 0: no limit), and
// offset the byte the parse had reached. The caller hands a non-nil tree
// to flatten, which frees it.
func (c *cParser) parse(src []byte, stopOnError bool, maxCPU time.Duration) (tree unsafe.Pointer, count int, stopped stopReason, offset int) {
	var n, why C.int32_t
	var off C.uint32_t
	var calls C.int64_t
	tree = C.pn_parse(&c.p, srcPtr(src), C.uint32_t(len(src)), C.bool(stopOnError), C.int64_t(maxCPU), &n, &why, &off, &calls)
	c.calls = int64(calls)
	return tree, int(n), stopReason(why), int(off)
}

// stopReason says why pn_parse abandoned a parse.
type stopReason int

const (
	stopNone        stopReason = iota
	stopSyntaxError            // every parse version hit a syntax error
	stopBudget                 // the CPU time budget was spent
)

// flattenByWalk makes flatten use the plain walk, the fallback (tests set it).
var flattenByWalk = false

// flattenFallbacks counts the trees that pn_flatten came short on (tests
// expect none).
var flattenFallbacks atomic.Int64

// flatten writes tree's nodes into nodes (which must have room for the
// count parse returned), with kinds and fields from tables (see names),
// frees the tree, and returns the number of nodes written and the first
// ERROR or MISSING node in preorder (NoNode if none). A Node holds no Go
// pointers, so cgo lets C write into nodes for the duration of the call.
func (c *cParser) flatten(tree, tables unsafe.Pointer, nodes []Node) (n int, firstError NodeID) {
	if len(nodes) == 0 {
		C.pn_tree_delete(tree)
		return 0, NoNode
	}
	if cap(c.stack) < 2*len(nodes) {
		c.stack = make([]int32, 2*len(nodes)+len(nodes)/2)
	}
	var fe C.int32_t
	var fellBack C.bool
	n = int(C.pn_flatten_tree(tree, (*C.pn_names)(tables), (*C.pn_gonode)(unsafe.Pointer(&nodes[0])),
		C.int32_t(len(nodes)), (*C.int32_t)(unsafe.Pointer(&c.stack[0])), &fe, C.bool(flattenByWalk), &fellBack))
	if fellBack {
		flattenFallbacks.Add(1)
	}
	return n, NodeID(fe)
}

// trim drops the flattening stack after an unusually large file, so that
// one huge file does not pin it for the Parser's life.
func (c *cParser) trim() {
	if cap(c.stack) > 5*maxSpareNodes/2 {
		c.stack = nil
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
