// Package syntax owns parsing: it is the only importer of go-tree-sitter and
// its grammars. It parses a file once and exposes a Go-side, flattened tree
// (Tree) whose nodes are plain values in a slice, so that rules and metrics
// walk it without crossing cgo per node.
//
// Grammars: the official tree-sitter modules for Python, Java, JavaScript
// and TypeScript; Go, Rust, C, C++, PHP and Ruby from
// github.com/smacker/go-tree-sitter's grammar packages, the only ones the
// module proxy serves. Those bring smacker's own copy of the tree-sitter
// runtime, whose C symbols clash with go-tree-sitter v0.25's: the binary
// links with -Wl,--allow-multiple-definition and v0.25's definitions are
// the ones kept (why, and the tests that check it: grammars.go).
//
// The package must not know about rules, scores or patches.
package syntax

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/polynfi/polynfi/internal/treenames"
	sitter "github.com/tree-sitter/go-tree-sitter"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"

	"github.com/polynfi/polynfi/syntax/pyparse"
)

// Language is a grammar that syntax can parse.
type Language int

// The supported grammars. Source: tree-sitter-python v0.23.6,
// tree-sitter-java v0.23.5, tree-sitter-javascript v0.23.1,
// tree-sitter-typescript v0.23.2 (typescript and tsx); Go to Ruby: the
// grammars of github.com/smacker/go-tree-sitter
// v0.0.0-20240827094217-dd81d9e9be82 (tree-sitter-go, -rust, -c, -cpp,
// -php (the "php" grammar: HTML text around <?php blocks), -ruby, all of
// language ABI 14; see grammars.go).
//
// Python to TSX are the languages polynfi scores (LanguageForPath); Go to
// Ruby are parsed for localization only (GrammarForPath). C is CLang, as
// "C" is cgo's name in this package.
const (
	Python Language = iota + 1
	Java
	JavaScript
	TypeScript
	TSX
	Go
	Rust
	CLang
	CPP
	PHP
	Ruby
)

// LastLanguage is the highest Language, for tables indexed by Language.
const LastLanguage = Ruby

var languageNames = map[Language]string{
	Python: "python", Java: "java", JavaScript: "javascript", TypeScript: "typescript", TSX: "tsx",
	Go: "go", Rust: "rust", CLang: "c", CPP: "cpp", PHP: "php", Ruby: "ruby",
}

// String returns the lower-case grammar name ("python", "tsx", ...).
func (l Language) String() string {
	if s, ok := languageNames[l]; ok {
		return s
	}
	return fmt.Sprintf("Language(%d)", int(l))
}

// Languages lists every supported grammar, Python to Ruby.
func Languages() []Language {
	return []Language{Python, Java, JavaScript, TypeScript, TSX, Go, Rust, CLang, CPP, PHP, Ruby}
}

// LanguageForPath picks the grammar of a language polynfi scores by file
// extension: .py .pyi → Python; .java → Java; .js .jsx .cjs .mjs →
// JavaScript; .ts .mts .cts → TypeScript; .tsx → TSX. ok is false for any
// other extension (GrammarForPath also knows the languages parsed for
// localization only).
func LanguageForPath(path string) (lang Language, ok bool) {
	return languageForExt(strings.ToLower(filepath.Ext(path)))
}

// GrammarForPath picks any grammar syntax parses by file extension: those
// of LanguageForPath, and .go → Go; .rs → Rust; .c .h → C; .cc .cpp .cxx
// .c++ .hh .hpp .hxx .h++ .ipp .tpp → CPP; .php .phtml → PHP; .rb .rake
// .gemspec → Ruby. A .h header is C (as GitHub's linguist defaults it):
// tree-sitter-cpp parses C too, but a C header read as C++ misreads
// identifiers such as "class" or "new". ok is false for any other extension.
func GrammarForPath(path string) (lang Language, ok bool) {
	ext := strings.ToLower(filepath.Ext(path))
	if l, ok := languageForExt(ext); ok {
		return l, true
	}
	switch ext {
	case ".go":
		return Go, true
	case ".rs":
		return Rust, true
	case ".c", ".h":
		return CLang, true
	case ".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++", ".ipp", ".tpp":
		return CPP, true
	case ".php", ".phtml":
		return PHP, true
	case ".rb", ".rake", ".gemspec":
		return Ruby, true
	}
	return 0, false
}

func languageForExt(ext string) (lang Language, ok bool) {
	switch ext {
	case ".py", ".pyi":
		return Python, true
	case ".java":
		return Java, true
	case ".js", ".jsx", ".cjs", ".mjs":
		return JavaScript, true
	case ".ts", ".mts", ".cts":
		return TypeScript, true
	case ".tsx":
		return TSX, true
	}
	return 0, false
}

// grammar holds one language's C handle and its name tables for
// flattening (its kind names are in kindsByLang, its field names in
// fieldNames).
type grammar struct {
	lang  *sitter.Language
	ptr   unsafe.Pointer // the TSLanguage*
	names unsafe.Pointer // *C.pn_names: kinds and fields for flattening (C memory, never freed)
}

var (
	grammarsOnce sync.Once
	grammars     map[Language]*grammar
	// fieldNames is every grammar's field names, by Node.FieldID; [0] is "".
	fieldNames = []string{""}
	// fieldIDs inverts fieldNames.
	fieldIDs = map[string]uint16{"": 0}
	// kindsByLang is every grammar's node-type names, by Language and
	// Node.KindID (Node.Kind); its length, a power of two above
	// LastLanguage, lets Kind index it without a bounds check.
	kindsByLang [16][]string
)

func loadGrammars() {
	grammars = map[Language]*grammar{}
	ptrs := map[Language]unsafe.Pointer{
		Python:     tspython.Language(),
		Java:       tsjava.Language(),
		JavaScript: tsjs.Language(),
		TypeScript: tsts.LanguageTypescript(),
		TSX:        tsts.LanguageTSX(),
	}
	for l, p := range extraGrammars() {
		ptrs[l] = p
	}
	fieldID := func(name string) uint16 {
		id, ok := fieldIDs[name]
		if !ok {
			id = uint16(len(fieldNames))
			fieldIDs[name] = id
			fieldNames = append(fieldNames, name)
		}
		return id
	}
	for _, l := range Languages() {
		p := ptrs[l]
		g := &grammar{lang: sitter.NewLanguage(p), ptr: p}
		g.names, kindsByLang[l] = names(p, l, fieldID)
		grammars[l] = g
	}
}

func grammarFor(l Language) (*grammar, error) {
	grammarsOnce.Do(loadGrammars)
	g, ok := grammars[l]
	if !ok {
		return nil, fmt.Errorf("unknown language %v", l)
	}
	return g, nil
}

// KindNames returns the grammar's node-type names indexed by symbol
// (Node.KindID). Several symbols may share one name (aliases). The slice is
// shared: do not modify it.
func KindNames(l Language) []string {
	if _, err := grammarFor(l); err != nil {
		return nil
	}
	return kindsByLang[l]
}

// Parser parses source text into Trees. A Parser holds one tree-sitter parser
// per language, created on first use. It is not safe for concurrent use: use
// one Parser per goroutine, and Close it when done.
type Parser struct {
	parsers map[Language]*cParser
	spare   []Node // node storage of a released Tree, reused by the next Parse
	// pyScratch is ParsePython's scratch storage (tokens, node arena)
	pyScratch *pyparse.Scratch
	// budgetBase and budgetPerByte are SetBudget's; zero: the defaults.
	budgetBase, budgetPerByte time.Duration
}

// SetBudget sets the CPU time a tree-sitter parse of n bytes may take,
// base + perByte·n (see BudgetError); zero values restore the defaults
// (budgetBase 2 s, budgetPerByte 10 µs). Fuzz targets, whose inputs must
// finish in seconds, set smaller ones.
func (p *Parser) SetBudget(base, perByte time.Duration) {
	p.budgetBase, p.budgetPerByte = base, perByte
}

// parseBudget is the CPU time budget for n source bytes.
func (p *Parser) parseBudget(n int) time.Duration {
	base, per := budgetBase, budgetPerByte
	if p.budgetBase > 0 {
		base = p.budgetBase
	}
	if p.budgetPerByte > 0 {
		per = p.budgetPerByte
	}
	return base + time.Duration(n)*per
}

// maxSpareNodes bounds the node storage a Parser keeps for reuse: 262,144
// nodes, 16.8 MB, files up to some 1 MB of Python, so that a huge file does
// not pin its nodes for the Parser's life. A Parser keeps only as much as
// the largest file it has parsed needs (up to some 100,000 nodes, 6.4 MB,
// in the standard library). A smaller bound (32,768) made every file over
// some 150 KB allocate and clear fresh storage, which cost 7% of the
// parse time over a standard-library sample.
const maxSpareNodes = 1 << 18

// NewParser returns a Parser with no grammar loaded yet.
func NewParser() *Parser { return &Parser{parsers: map[Language]*cParser{}} }

// Close frees the C parsers. The Parser must not be used afterwards; Trees
// it returned stay valid (they hold no C memory).
func (p *Parser) Close() {
	for _, sp := range p.parsers {
		sp.close()
	}
	p.parsers = nil
}

// parser returns the C parser for lang, creating it on first use.
func (p *Parser) parser(lang Language) (*grammar, *cParser, error) {
	g, err := grammarFor(lang)
	if err != nil {
		return nil, nil, err
	}
	sp, ok := p.parsers[lang]
	if !ok {
		if sp, ok = newCParser(g.ptr); !ok {
			return nil, nil, fmt.Errorf("load %v grammar: incompatible tree-sitter ABI version", lang)
		}
		p.parsers[lang] = sp
	}
	return g, sp, nil
}

// Parse parses src as lang and returns the flattened tree. The C tree is
// freed before Parse returns. src is kept (not copied) as Tree.Source.
// An error is returned only for an unknown language or a parser failure;
// a syntax error is not an error (see Tree.HasError).
func (p *Parser) Parse(lang Language, src []byte) (*Tree, error) {
	return p.parse(lang, src, false)
}

// ParseUntilError is Parse for callers that only use error-free trees: it
// abandons the parse once tree-sitter has met a syntax error in every parse
// version, without running its error recovery to the end, and returns a nil
// Tree then. That saves most of the time on text that is not code. A
// returned Tree may still have an error (see Tree.HasError): tree-sitter
// checks for cancellation only every 100 parse operations, and may recover
// before that.
func (p *Parser) ParseUntilError(lang Language, src []byte) (*Tree, error) {
	return p.parse(lang, src, true)
}

func (p *Parser) parse(lang Language, src []byte, stopOnError bool) (*Tree, error) {
	g, sp, err := p.parser(lang)
	if err != nil {
		return nil, err
	}
	ctree, count, stopped, offset := sp.parse(src, stopOnError, p.parseBudget(len(src)))
	switch stopped {
	case stopSyntaxError:
		return nil, nil
	case stopBudget:
		return nil, &BudgetError{Lang: lang, Bytes: len(src), Offset: offset, CPU: p.parseBudget(len(src))}
	}
	if ctree == nil {
		return nil, fmt.Errorf("tree-sitter returned no tree for %d bytes of %v", len(src), lang)
	}
	var nodes []Node
	if cap(p.spare) >= count {
		nodes, p.spare = p.spare[:count], nil
	} else {
		// some slack, so that the storage can be reused for most later files
		nodes = make([]Node, count, count+count/2)
	}
	// C writes every field of every node: the storage may be a released
	// Tree's.
	n, firstError := sp.flatten(ctree, g.names, nodes)
	if n != count {
		return nil, fmt.Errorf("tree-sitter tree of %d nodes flattened to %d nodes (%d bytes of %v)", count, n, len(src), lang)
	}
	t := &Tree{Lang: lang, Source: src, Nodes: nodes[:n], lineStarts: treenames.LineStarts(src), owner: p,
		hasError: firstError != NoNode, firstError: firstError}
	sp.trim()
	return t, nil
}

// Tree-sitter's error recovery can take time quadratic in the nesting
// depth: each recovery step re-summarizes the whole parse stack, so 50,000
// nested "Array<" after a syntax error take 36 s in the Java grammar.
// Parse therefore gives tree-sitter a budget of CPU time, budgetBase plus
// budgetPerByte per source byte (10 µs per byte: at least 100 KB/s, while
// tree-sitter parses code at several MB/s), and reports a BudgetError when
// it is spent. It is measured as the parsing thread's CPU time, so a busy
// machine does not cut parses short.
const (
	budgetBase    = 2 * time.Second
	budgetPerByte = 10 * time.Microsecond
)

// BudgetError is Parse's error when tree-sitter spent its CPU time budget
// (CPU: by default budgetBase + budgetPerByte·Bytes; see SetBudget) before finishing: the text nests
// far beyond code, typically after a syntax error. Offset is the byte
// (0-based) the parse had reached.
type BudgetError struct {
	Lang   Language
	Bytes  int
	Offset int
	CPU    time.Duration
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("tree-sitter's %v parser gave up after %v of CPU time at byte %d of %d (nesting too deep to parse)",
		e.Lang, e.CPU, e.Offset, e.Bytes)
}

// Release hands the tree's node storage back to the Parser that made it,
// to be reused by its next Parse; it saves allocating and clearing the
// largest part of a tree per file. The tree (its Nodes and anything
// holding them) must not be used afterwards, and its Nodes must not have
// been modified (see Node). Call it from the goroutine
// that uses the Parser; releasing a tree twice, or one not made by a
// Parser, does nothing.
func (t *Tree) Release() {
	p := t.owner
	if p == nil {
		return
	}
	t.owner = nil
	if cap(t.Nodes) <= maxSpareNodes && cap(t.Nodes) > cap(p.spare) {
		p.spare = t.Nodes[:0]
	}
	t.Nodes = nil
}

// ParseRaw parses src with tree-sitter and discards the tree without
// flattening it. It exists as the baseline of benchmarks ("tree-sitter
// parsing alone") and reports whether the tree has an error.
func (p *Parser) ParseRaw(lang Language, src []byte) (hasError bool, err error) {
	_, sp, err := p.parser(lang)
	if err != nil {
		return false, err
	}
	hasError, ok := sp.parseOnly(src)
	if !ok {
		return false, fmt.Errorf("tree-sitter returned no tree for %d bytes of %v", len(src), lang)
	}
	return hasError, nil
}

// ParseOnce parses src with a throwaway Parser. Prefer a long-lived Parser
// per goroutine in loops.
func ParseOnce(lang Language, src []byte) (*Tree, error) {
	p := NewParser()
	defer p.Close()
	return p.Parse(lang, src)
}
