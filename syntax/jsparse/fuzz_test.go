package jsparse_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/polynfi/polynfi/syntax"
	"github.com/polynfi/polynfi/syntax/jsparse"
)

// deepSeeds nest constructs past jsparse's depth limit and hold nested
// brackets that speculative parsing (arrow parameters, destructuring
// patterns) must not try exponentially often.
func deepSeeds() []string {
	r := strings.Repeat
	return []string{
		r("(", 3000) + "a" + r(")", 3000),
		r("(", 40) + "a" + r(")", 40),
		"x = " + r("[", 40) + r("]", 40) + " = y",
		"x = " + r("[a = ", 40) + "1" + r("]", 40),
		"x = " + r("{a: ", 40) + "1" + r("}", 40),
		"(" + r("(a = ", 40) + "1" + r(")", 40) + ")",
		r("for (x in y) ", 40) + ";",
		r("if (a) ", 2000) + "b",
		"x = " + r("a => ", 2000) + "1",
		"x = " + r("-", 5000) + "1",
		"x = 1" + r(" + 1", 20000),
		r("{", 2000) + r("}", 2000),
	}
}

// FuzzParse: on any input jsparse either declines (a *SyntaxError) or
// returns tree-sitter's tree, node for node, and only for input
// tree-sitter parses without error. The seeds (the snippets and deep
// nestings) run as a unit test; go test -fuzz=FuzzParse explores further.
func FuzzParse(f *testing.F) {
	for _, s := range accepted {
		f.Add([]byte(s))
	}
	for _, s := range declined {
		f.Add([]byte(s))
	}
	for _, s := range rejected {
		f.Add([]byte(s))
	}
	for _, s := range deepSeeds() {
		f.Add([]byte(s))
	}
	p := syntax.NewParser()
	f.Cleanup(p.Close)
	p.SetBudget(500*time.Millisecond, 2*time.Microsecond)
	f.Fuzz(func(t *testing.T, src []byte) {
		mine, err := jsparse.Parse(src)
		if err != nil {
			var se *jsparse.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		ts, err := p.Parse(syntax.JavaScript, src)
		var be *syntax.BudgetError
		if errors.As(err, &be) {
			t.Skip("tree-sitter over budget")
		}
		if err != nil {
			t.Fatal(err)
		}
		if ts.HasError() {
			t.Fatalf("jsparse accepts %q, tree-sitter finds an error", src)
		}
		if d := compareTrees(ts, mine); d != "" {
			t.Fatalf("%q: %s", src, d)
		}
	})
}
