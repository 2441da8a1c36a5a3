// Package metrics computes the classic source-code measures over Python
// syntax trees, with the exact semantics of radon 6.0.1 so that `radon` can
// serve as the oracle on real code:
//
//   - cyclomatic complexity per block (functions, methods, classes, closures)
//     and its A-F rank (radon cc);
//   - raw line counts: LOC, LLOC, SLOC, comments, multi-line strings, blank
//     and single-comment lines (radon raw);
//   - Halstead operators, operands and volume (radon hal);
//   - the maintainability index and its A-C rank (radon mi);
//   - the nesting depth of compound statements inside each def (polynfi
//     catalog LOG-T02).
//
// Every function here is pure: it reads a syntax.Tree (or source bytes) and
// returns numbers. The package depends only on syntax; it knows nothing about
// rules, scores or output, and never prints.
//
// Source: radon 6.0.1 (radon/visitors.py, radon/raw.py, radon/metrics.py,
// radon/complexity.py), whose documented semantics this package reimplements
// over tree-sitter trees instead of CPython's ast and tokenize modules.
package metrics
