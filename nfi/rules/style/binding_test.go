package style

import (
	"fmt"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
	"github.com/polynfi/polynfi/syntax"
)

// bindingForms binds names in every way bindingRole knows, inside and
// outside defs, with upper-case and ambiguous names, including the rare
// forms whose identifier's parent is one of bindingExtraKinds.
const bindingForms = `import os.path as P
from collections import OrderedDict as l
global O


def f(I, *A, B=1, C: int = 2, **K):
    global G
    nonlocal_like = [X for X in A]
    V = W = 0
    (Y) = 1
    [Z1, *Z2] = A
    Q, (R, S) = 1, (2, 3)
    U: int = 3
    U += 1
    for T, l in K.items():
        pass
    with open(P) as H, open(P) as (M, *N):
        pass
    try:
        pass
    except OSError as E:
        pass
    if (L := len(A)) > 0:
        pass
    match A:
        case [Cap, *Rest] if Cap:
            pass
        case {"k": Val, **Others}:
            pass
        case Point(x=Px) as Whole:
            pass
        case str() | bytes() as O:
            pass
        case D.E:
            pass
        case Single:
            pass
    lambda Lx, *Ly: Lx
    class Inner:
        Cv = 1
    def I():
        pass
    return os


class l:
    def O(self):
        Local = 1
        return Local
`

// bindingSample returns the sources the binding checks run over: the
// forms above and an 80-file stdlib sample (files with syntax errors left
// out, as the engine leaves them).
func bindingSample(t *testing.T) map[string][]byte {
	t.Helper()
	srcs := map[string][]byte{"forms.py": []byte(bindingForms)}
	for _, f := range corpus.StdlibSample(t, 80) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs[f] = src
	}
	return srcs
}

// TestBindingCandidates checks the claim the rules on bound names rest on:
// every identifier to which bindingRole gives a role is a bindable
// identifier of pyast or an identifier child of a node of
// bindingExtraKinds, and never both.
func TestBindingCandidates(t *testing.T) {
	p := syntax.NewParser()
	defer p.Close()
	roles := 0
	for path, src := range bindingSample(t) {
		tree, err := p.Parse(syntax.Python, src)
		if err != nil {
			t.Fatal(err)
		}
		if tree.HasError() {
			continue
		}
		m := pyast.NewModule(path, tree)
		bindable := map[syntax.NodeID]bool{}
		for _, id := range m.BindableIdentifiers() {
			bindable[id] = true
		}
		for i := range tree.Nodes {
			id := syntax.NodeID(i)
			nd := &tree.Nodes[i]
			if !identifierKinds.Has(nd) {
				continue
			}
			extra := nd.Parent != syntax.NoNode && extraBindingKinds.Has(&tree.Nodes[nd.Parent])
			if extra && bindable[id] {
				t.Errorf("%s:%d: %s is both bindable and a child of %s", path, tree.Line(id), tree.Text(id), tree.Kind(nd.Parent))
			}
			if r, _ := bindingRole(tree, id); r != roleNone {
				roles++
				if !extra && !bindable[id] {
					t.Errorf("%s:%d: %s has role %d but is no binding candidate", path, tree.Line(id), tree.Text(id), r)
				}
			}
		}
		m.Release()
	}
	if roles < 1000 {
		t.Errorf("only %d identifiers with a role: sample too small", roles)
	}
}

// TestBindingRulesAsEveryIdentifier checks that the rules that look only
// at binding candidates give the results they give when they visit every
// identifier (the way they worked before): same diagnostics, same values.
// STY-T06 runs with a low limit, so that many defs are reported.
func TestBindingRulesAsEveryIdentifier(t *testing.T) {
	everyIdentifier := func(r *nfi.Rule) *nfi.Rule {
		c := *r
		c.Finish = nil
		switch r {
		case AmbiguousName:
			c.Kinds, c.Visit = []string{"identifier"}, checkAmbiguousName
		case VariableName:
			c.Kinds, c.Visit = []string{"identifier"}, checkVariableName
		case TooManyLocals:
			c.Kinds = []string{"function_definition", "class_definition", "lambda", "list_comprehension",
				"set_comprehension", "dictionary_comprehension", "generator_expression", "identifier",
				"dotted_name", "aliased_import"}
			c.Visit = func(p *nfi.Pass, n syntax.NodeID) {
				st, _ := p.State.(*localsState)
				if st == nil { // no bindable list: takeIdentifiers takes nothing
					st = &localsState{src: sourceString(p), kinds: localsKinds.Table(syntax.Python)}
					p.State = st
				}
				st.takeNode(p, n)
			}
			c.Finish = finishLocals
		}
		return &c
	}
	engine := func(r *nfi.Rule) *nfi.Engine {
		var settings nfi.Settings
		if r.ID == TooManyLocals.ID {
			settings.Limits = map[string]float64{r.ID: 3}
		}
		e, err := nfi.NewEngine(&nfi.Catalog{Version: "test", Rules: []*nfi.Rule{r}}, settings)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	srcs := bindingSample(t)
	p := syntax.NewParser()
	defer p.Close()
	for _, r := range []*nfi.Rule{AmbiguousName, VariableName, TooManyLocals} {
		got, want := engine(r), engine(everyIdentifier(r))
		reported := 0
		for path, src := range srcs {
			gs, ws := got.Score(p, path, src), want.Score(p, path, src)
			if gs.Status != ws.Status {
				t.Fatalf("%s on %s: status %s, want %s", r.ID, path, gs.Status, ws.Status)
			}
			if !gs.Valid {
				continue
			}
			g, w := gs.Rules[0], ws.Rules[0]
			if d := cmp.Diff(w, g); d != "" {
				t.Errorf("%s on %s differs (-every identifier +candidates):\n%s", r.ID, path, d)
			}
			reported += len(g.Diagnostics)
		}
		if reported == 0 {
			t.Errorf("%s reported nothing: the comparison shows little", r.ID)
		}
	}
}

// TestNameSet checks nameSet against a map through adds that cross from
// the list to the map and back through reset, with repeated names.
func TestNameSet(t *testing.T) {
	var s nameSet
	for round, n := range []int{5, 100, 3, 40, 0, 33, 32} {
		s.reset()
		want := map[string]bool{}
		for i := range 3 * n {
			name := fmt.Sprintf("v%d", (i*7)%(n+1))
			s.add(name)
			want[name] = true
			if s.len() != len(want) {
				t.Fatalf("round %d: len %d after %d adds, want %d", round, s.len(), i+1, len(want))
			}
		}
		got := map[string]bool{}
		s.each(func(x string) {
			if got[x] {
				t.Errorf("round %d: each gave %s twice", round, x)
			}
			got[x] = true
		})
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("round %d: names differ (-want +got):\n%s", round, d)
		}
		for i := range n + 5 {
			name := fmt.Sprintf("v%d", i)
			if s.has(name) != want[name] {
				t.Errorf("round %d: has(%s) = %v", round, name, !want[name])
			}
		}
	}
}
