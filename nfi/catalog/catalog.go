// Package catalog assembles versioned rule catalogs from the rule packages.
// polynfi-92 is the default: the 92 rules of shared/spec/nfi-rules.md.
package catalog

import (
	"fmt"
	"slices"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/rules/doc"
	"github.com/polynfi/polynfi/nfi/rules/errh"
	"github.com/polynfi/polynfi/nfi/rules/java"
	"github.com/polynfi/polynfi/nfi/rules/jsts"
	"github.com/polynfi/polynfi/nfi/rules/lib"
	"github.com/polynfi/polynfi/nfi/rules/logic"
	"github.com/polynfi/polynfi/nfi/rules/style"
)

// Default is the name of the default catalog.
const Default = "polynfi-92"

// Polynfi92 returns the polynfi-92 catalog: DOC 19, ERR 12, LIB 22, STY 25,
// LOG 14 rules, in ID order. Source: shared/spec/nfi-rules.md (a
// reconstruction of SWE-NFI's 92 rules with the paper's per-aspect counts, Table 1).
func Polynfi92() *nfi.Catalog {
	rules := slices.Concat(doc.All, errh.All, lib.All, style.All, logic.All)
	return &nfi.Catalog{Version: Default, Rules: rules}
}

// JavaScriptTypeScript returns the JavaScript and TypeScript catalog alone
// (package nfi/rules/jsts).
func JavaScriptTypeScript() *nfi.Catalog {
	return &nfi.Catalog{Version: jsts.Version, Rules: slices.Clone(jsts.All)}
}

// Java returns the Java catalog alone (package nfi/rules/java).
func Java() *nfi.Catalog {
	return &nfi.Catalog{Version: java.Version, Rules: slices.Clone(java.All)}
}

// Get returns a catalog by name. The default catalog judges every
// language: the polynfi-92 rules judge Python files, the jsts rules
// (JavaScriptTypeScript) JavaScript and TypeScript files and the java
// rules (Java) Java files, each file by the rules of its language only, so
// that a Python file's S_p is polynfi-92's.
func Get(name string) (*nfi.Catalog, error) {
	switch name {
	case "", Default:
		c := Polynfi92()
		c.Rules = slices.Concat(c.Rules, jsts.All, java.All)
		return c, nil
	case jsts.Version:
		return JavaScriptTypeScript(), nil
	case java.Version:
		return Java(), nil
	}
	return nil, fmt.Errorf("unknown rule catalog %q (known: %s, %s, %s)", name, Default, jsts.Version, java.Version)
}
