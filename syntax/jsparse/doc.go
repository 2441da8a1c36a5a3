// Package jsparse is a Go parser for JavaScript whose trees are
// tree-sitter-javascript v0.23.1's: a hand-written lexer and
// recursive-descent parser that returns, for a file it accepts, the tree
// tree-sitter builds for it (same node kinds, named and anonymous tokens,
// field names, comments as extras, byte spans). package syntax converts it
// in place into a syntax.Tree (ParseJavaScriptGo, Parser.ParseJavaScript),
// as it does for syntax/pyparse's Python trees, and nfi's engine scores
// JavaScript files with it first. It exists because tree-sitter's parse
// alone cost more CPU than oxlint's whole run (issue #27); jsparse parses
// the accepted corpus some 5 times faster than tree-sitter plus
// flattening (BenchmarkParse: 37 against 6.7 MB per CPU second).
//
// Being exact on what it accepts matters more than coverage: Parse
// declines with an error whenever it is not sure to build tree-sitter's
// tree, and the caller parses the file with tree-sitter instead. The
// error is a *SyntaxError, either a syntax error or one wrapping
// ErrUnsupported.
//
// Covered: the statements of ES2024 (blocks, declarations, if, for,
// for-in/of and for await, while, do, try, switch, labels, with, jumps,
// debugger), expressions with tree-sitter's precedences (?? as low as the
// ternary, left-associative update expressions, arrow functions as
// primary expressions, flat sequence expressions), functions, generators,
// async functions, arrow functions, classes (fields, private names,
// accessors, static blocks), destructuring patterns in declarations,
// parameters, assignments and for-in/of heads, template strings, regular
// expressions (read where an operand is expected), optional chains,
// new.target and import.meta, dynamic import, import and export statements
// with attributes, the hash-bang line, and comments placed as tree-sitter
// places extras. Automatic semicolons are inserted where
// tree-sitter-javascript's external scanner inserts them, including its
// placement after a trailing line comment (which a statement then takes
// in) and, by experiment, after blocks and class declarations.
//
// Declined (ErrUnsupported, or a syntax error where tree-sitter would
// read the text another way): JSX, decorators, HTML comments, Unicode
// escapes in identifiers, Unicode white space outside strings and
// comments, NUL bytes, a block statement that also reads as an object
// literal ("{a: 0}", a GLR ambiguity tree-sitter resolves by tree
// comparison), "export default" of an anonymous function or class,
// "static get" or a member modifier before a line break, "yield" or "++"
// before a line break where tree-sitter's choice depends on its parse
// state, a regular expression starting with white space and a slash,
// "new" with an optional chain or tagged template in its callee, a suffix
// after an arrow function's block body, nesting deeper than 1,000 levels,
// and files of 2 GiB or more. TypeScript is not parsed.
//
// Checked by TestDifferential (every .js, .mjs and .cjs file of the npm
// corpus the jsts oracle tests use: where jsparse accepts a file, its tree
// equals tree-sitter's node for node), the snippet tests, FuzzParse
// (accepting implies tree-sitter's tree, on any input) and, in package
// syntax, TestParseJavaScriptGoNodes (the converted Node arrays equal
// Parse's).
package jsparse
