module github.com/polynfi/polynfi

go 1.26.8

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/tree-sitter/go-tree-sitter v0.25.0
	github.com/tree-sitter/tree-sitter-java v0.23.5
	github.com/tree-sitter/tree-sitter-javascript v0.23.1
	github.com/tree-sitter/tree-sitter-python v0.23.6
	github.com/tree-sitter/tree-sitter-typescript v0.23.2
)

require github.com/mattn/go-pointer v0.0.1 // indirect
