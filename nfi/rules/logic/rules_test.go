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
	for _, s := range sampleTrees(t) {
		f, tr := s.path, s.tree
		var st nestingState
		dispatch(tr, NestingDepth.Kinds, st.visit)
		want := defsOf(tr)
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

// TestBranchState checks that LOG-T03's defCounts, shown the nodes of the
// rule's Kinds in preorder, gives every def the branch count of a walk of
// its body (walkBranches) on a stdlib sample.
func TestBranchState(t *testing.T) {
	defs, many := 0, 0
	for _, s := range sampleTrees(t) {
		f, tr := s.path, s.tree
		st := newDefCounts(branchScopes)
		dispatch(tr, TooManyBranches.Kinds, st.visit)
		want := defsOf(tr)
		if len(st.defs) != len(want) {
			t.Fatalf("%s: %d defs, want %d", f, len(st.defs), len(want))
		}
		for k, d := range st.defs {
			n := walkBranches(tr, tr.ChildByField(want[k], "body"))
			if d.def != want[k] || d.count != n {
				t.Errorf("%s:%d: %d branches, want %d", f, tr.Line(want[k]), d.count, n)
			}
			defs++
			if n >= 5 {
				many++
			}
		}
	}
	if defs < 1000 || many < 50 {
		t.Errorf("only %d defs (%d with 5 branches or more) checked", defs, many)
	}
}

// walkBranches counts branches in the statements of a block by a walk (the
// count LOG-T03 made before it used the engine's dispatch): the reference
// of TestBranchState.
func walkBranches(t *syntax.Tree, block syntax.NodeID) int {
	total := 0
	if block == syntax.NoNode {
		return 0
	}
	for s := t.Nodes[block].FirstChild; s != syntax.NoNode; s = t.Nodes[s].NextSibling {
		if nd := &t.Nodes[s]; !nd.Named || nd.Extra {
			continue // not a statement
		}
		switch t.Kind(s) {
		case "if_statement":
			total += 1 + walkBranches(t, t.ChildByField(s, "consequence"))
			for c := t.Nodes[s].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
				switch t.Kind(c) {
				case "elif_clause":
					total += 1 + walkBranches(t, t.ChildByField(c, "consequence"))
				case "else_clause":
					total += 1 + walkBranches(t, t.ChildByField(c, "body"))
				}
			}
		case "for_statement", "while_statement":
			total += 1 + walkBranches(t, t.ChildByField(s, "body"))
			if e := t.ChildByField(s, "alternative"); e != syntax.NoNode {
				total += 1 + walkBranches(t, t.ChildByField(e, "body"))
			}
		case "try_statement":
			total += walkBranches(t, t.ChildByField(s, "body"))
			for c := t.Nodes[s].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
				switch t.Kind(c) {
				case "except_clause", "except_group_clause", "else_clause", "finally_clause":
					total += 1 + walkBranches(t, walkClauseBody(t, c))
				}
			}
		case "match_statement":
			if body := t.ChildByField(s, "body"); body != syntax.NoNode {
				for c := t.Nodes[body].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
					if t.Kind(c) == "case_clause" {
						total += 1 + walkBranches(t, t.ChildByField(c, "consequence"))
					}
				}
			}
		case "with_statement":
			total += walkBranches(t, t.ChildByField(s, "body"))
		}
	}
	return total
}

// walkClauseBody returns the block of an except/else/finally clause.
func walkClauseBody(t *syntax.Tree, c syntax.NodeID) syntax.NodeID {
	if b := t.ChildByField(c, "body"); b != syntax.NoNode {
		return b
	}
	return t.FirstChildOfKind(c, "block")
}

type sampleTree struct {
	path string
	tree *syntax.Tree
}

// sampleTrees parses an 80-file standard-library sample and returns its
// trees free of syntax errors.
func sampleTrees(t *testing.T) []sampleTree {
	t.Helper()
	var out []sampleTree
	for _, f := range corpus.StdlibSample(t, 80) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := syntax.ParseOnce(syntax.Python, src)
		if err == nil && !tr.HasError() {
			out = append(out, sampleTree{f, tr})
		}
	}
	return out
}

// dispatch shows visit every node of tr whose kind is in kinds, in
// preorder, as the engine's dispatch does.
func dispatch(tr *syntax.Tree, kinds []string, visit func(*syntax.Tree, syntax.NodeID)) {
	for i := range tr.Nodes {
		if slices.Contains(kinds, tr.Nodes[i].Kind()) {
			visit(tr, syntax.NodeID(i))
		}
	}
}

// defsOf returns tr's function definitions in preorder.
func defsOf(tr *syntax.Tree) []syntax.NodeID {
	var defs []syntax.NodeID
	for i := range tr.Nodes {
		if tr.Nodes[i].Kind() == "function_definition" {
			defs = append(defs, syntax.NodeID(i))
		}
	}
	return defs
}
