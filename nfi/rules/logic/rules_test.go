package logic

import (
	"os"
	"slices"
	"testing"

	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/nfi/metrics"
	"github.com/polynfi/polynfi/nfi/nfitest"
	"github.com/polynfi/polynfi/syntax"
)

func TestRules(t *testing.T) {
	for _, r := range All {
		t.Run(r.ID, func(t *testing.T) {
			nfitest.Run(t, r, "testdata/"+r.ID+".py")
			nfitest.CheckDoc(t, r)
		})
	}
}

func TestIDOrder(t *testing.T) {
	for i := 1; i < len(All); i++ {
		if All[i-1].ID >= All[i].ID {
			t.Errorf("All is not in ID order: %s before %s", All[i-1].ID, All[i].ID)
		}
	}
	if len(All) != 14 {
		t.Errorf("got %d LOG rules, want 14", len(All))
	}
}

// TestNestingState checks that LOG-T02's nestingState, shown the nodes of
// the rule's Kinds in preorder, gives every def metrics.NestingDepth's
// depth and node on a stdlib sample.
func TestNestingState(t *testing.T) {
	defs, deep := 0, 0
	for _, f := range corpus.StdlibSample(t, 80) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := syntax.ParseOnce(syntax.Python, src)
		if err != nil || tr.HasError() {
			continue
		}
		var st nestingState
		for i := range tr.Nodes {
			if slices.Contains(NestingDepth.Kinds, tr.Nodes[i].Kind()) {
				st.visit(tr, syntax.NodeID(i))
			}
		}
		var want []syntax.NodeID
		for i := range tr.Nodes {
			if tr.Nodes[i].Kind() == "function_definition" {
				want = append(want, syntax.NodeID(i))
			}
		}
		if len(st.defs) != len(want) {
			t.Fatalf("%s: %d defs, want %d", f, len(st.defs), len(want))
		}
		for k, d := range st.defs {
			depth, at := metrics.NestingDepth(tr, want[k])
			if d.def != want[k] || d.depth != depth || d.at != at {
				t.Errorf("%s:%d: depth %d at %d, want %d at %d", f, tr.Line(want[k]), d.depth, d.at, depth, at)
			}
			defs++
			if depth >= 3 {
				deep++
			}
		}
	}
	if defs < 1000 || deep < 50 {
		t.Errorf("only %d defs (%d of depth 3 or more) checked", defs, deep)
	}
}
