// Package pyast holds Python helpers over syntax trees that rules share:
// docstrings, definitions and their visibility, import aliases and qualified
// names, comments and physical-line facts. Each analysis is computed at most
// once per file through Module's memo.
//
// pyast depends only on syntax; it knows nothing about rules or scores.
package pyast

import (
	"path/filepath"

	"github.com/polynfi/polynfi/syntax"
)

// Module is one Python file under analysis: its tree, its path and memoized
// analyses. A Module is not safe for concurrent use (the engine scores one
// file per goroutine).
type Module struct {
	Tree *syntax.Tree
	// Path is the file's path as given by the user; it decides module
	// visibility (a private module or package directory).
	Path string
	memo map[string]any
	// The analyses of this package, built on first use; kept in fields
	// rather than memo because rules ask for them once per node.
	lines    *Lines
	names    *Names
	imports  *Imports
	defs     *Defs
	comments *[]Comment
	// nodeIndex lists the nodes the analyses above scan (index.go).
	nodeIndex *nodeIndex
	// the last answer of rootBindsLocal (0, the module node, for none:
	// a root is an identifier)
	lastRoot      syntax.NodeID
	lastRootBinds bool
}

// NewModule wraps a parsed Python tree.
func NewModule(path string, tree *syntax.Tree) *Module {
	return &Module{Tree: tree, Path: filepath.ToSlash(path)}
}

// Release hands the module's token stream, line table and reference and
// bindable lists back for reuse by a later module's Lines; the module and
// everything built from it must not be used afterwards. The engine calls it when it has
// scored the file.
func (m *Module) Release() {
	if m.lines != nil {
		tokenStore.put(m.lines.Tokens)
		lineStore.put(m.lines.List)
		m.lines = nil
	}
	if m.nodeIndex != nil {
		refStore.put(m.nodeIndex.lists[listRef])
		bindableStore.put(m.nodeIndex.lists[listBindable])
	}
	m.memo, m.names, m.defs, m.comments, m.nodeIndex = nil, nil, nil, nil, nil
}

// Memo returns the value stored under key, building it with build on first
// use. Analyses in this package use it so that each runs once per file;
// rules may use it for their own per-file caches (prefix keys with the rule ID).
func Memo[T any](m *Module, key string, build func() T) T {
	if v, ok := m.memo[key]; ok {
		return v.(T)
	}
	if m.memo == nil {
		m.memo = map[string]any{}
	}
	v := build()
	m.memo[key] = v
	return v
}
