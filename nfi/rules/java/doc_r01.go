package java

import (
	"bytes"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// Checkstyle's scopes, from narrowest to widest (Scope.java).
const (
	scopeAnonInner = iota
	scopePrivate
	scopePackage
	scopeProtected
	scopePublic
)

// declaredScope is Checkstyle's ScopeUtil.getScope of a declaration: its
// access modifier, or the default of where it is declared (interface and
// annotation members are public; enum constructors private).
func declaredScope(t *syntax.Tree, n syntax.NodeID) int {
	switch {
	case hasModifier(t, n, "public"):
		return scopePublic
	case hasModifier(t, n, "protected"):
		return scopeProtected
	case hasModifier(t, n, "private"):
		return scopePrivate
	}
	p := t.Parent(n)
	if p != syntax.NoNode && t.Kind(p) == "enum_body_declarations" {
		if t.Kind(n) == "constructor_declaration" {
			return scopePrivate
		}
		return scopePackage
	}
	if inInterface(t, n) {
		return scopePublic
	}
	return scopePackage
}

// surroundingScope is Checkstyle's ScopeUtil.getSurroundingScope: the
// narrowest scope of the type declarations around n, anonymous inner
// within a `new` expression. scopePublic when n is at the top level.
func surroundingScope(t *syntax.Tree, n syntax.NodeID) int {
	s := scopePublic
	for a := t.Parent(n); a != syntax.NoNode; a = t.Parent(a) {
		k := t.Kind(a)
		if k == "object_creation_expression" {
			return scopeAnonInner
		}
		if isTypeDecl(k) {
			s = min(s, declaredScope(t, a))
		}
	}
	return s
}

// javadocEnds returns the 1-based lines on which a Javadoc comment (/**,
// not /**/) ends, computed once per file in p.State.
func javadocEnds(p *nfi.Pass) map[int]bool {
	if m, ok := p.State.(map[int]bool); ok {
		return m
	}
	t := p.Tree
	m := map[int]bool{}
	if bytes.Contains(t.Source, []byte("/**")) {
		for i := range t.Nodes {
			n := syntax.NodeID(i)
			if t.Kind(n) != "block_comment" {
				continue
			}
			b := t.Text(n)
			if bytes.HasPrefix(b, []byte("/**")) && !bytes.Equal(b, []byte("/**/")) {
				er, _ := t.EndPoint(n)
				m[int(er)+1] = true
			}
		}
	}
	p.State = m
	return m
}

// hasJavadoc is Checkstyle's FileContents.getJavadocBefore: going up from
// the line before the declaration's first line over blank lines and `//`
// comment lines, the line reached must be where a Javadoc comment ends.
func hasJavadoc(p *nfi.Pass, n syntax.NodeID) bool {
	t := p.Tree
	ends := javadocEnds(p)
	if len(ends) == 0 {
		return false
	}
	lines := t.LineStarts()
	src := t.Source
	line := t.Line(n) - 1 // 1-based line before the declaration
	for line >= 1 {
		start := lines[line-1]
		end := uint32(len(src))
		if line < len(lines) {
			end = lines[line]
		}
		text := bytes.TrimSpace(src[start:end])
		if len(text) == 0 || bytes.HasPrefix(text, []byte("//")) {
			line--
			continue
		}
		break
	}
	return ends[line]
}

// writtenAnnotation reports whether declaration n has an annotation
// spelled exactly name (Checkstyle's skipAnnotations compares the written
// name: @javax.annotation.Generated is not @Generated).
func writtenAnnotation(t *syntax.Tree, n syntax.NodeID, name string) bool {
	m := modifiers(t, n)
	if m == syntax.NoNode {
		return false
	}
	for c := t.Node(m).FirstChild; c != syntax.NoNode; c = t.Node(c).NextSibling {
		if k := t.Kind(c); (k == "annotation" || k == "marker_annotation") && string(t.Text(t.ChildByField(c, "name"))) == name {
			return true
		}
	}
	return false
}

// MissingJavadocType reports public types without a Javadoc comment.
//
// Source: Checkstyle MissingJavadocType (scope public, skipAnnotations
// Generated).
var MissingJavadocType = &nfi.Rule{
	ID: "JAVA-DOC-R01", Name: "missing-javadoc-type", Aspect: nfi.Documentation, Kind: nfi.Required, Languages: java,
	Doc: nfi.Doc{
		Summary: "public type without Javadoc",
		What: "A class, interface, enum, record or annotation type that is public, in public types only, without a " +
			"Javadoc comment (`/** ... */`) ending on the line before it (blank and `//` lines between allowed).",
		Why:    "A public type is API: its users read its Javadoc, not its code.",
		Bad:    "public class Parser {\n}\n",
		Good:   "/** Parses configuration files. */\npublic class Parser {\n}\n",
		Exempt: "Types annotated @Generated (so spelled; a qualified name is not exempt); non-public and anonymous types.",
		Source: "Checkstyle MissingJavadocType",
		Oracle: "Checkstyle 12.3.1 MissingJavadocType with its defaults.",
	},
	Oracle: nfi.Oracle{Checkstyle: []string{"MissingJavadocType"}, Exact: true},
	Kinds:  typeDeclKinds,
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if declaredScope(t, n) != scopePublic || surroundingScope(t, n) != scopePublic || writtenAnnotation(t, n, "Generated") {
			return
		}
		if !hasJavadoc(p, n) {
			p.Reportf(n, "missing a Javadoc comment")
		}
	},
}
