package java

import (
	"strconv"
	"testing"

	"github.com/polynfi/polynfi/nfi/nfitest"
	"github.com/polynfi/polynfi/syntax"
)

// fixture returns the rule's fixture, testdata/ID.java.
func fixture(id string) string { return "testdata/" + id + ".java" }

func TestRules(t *testing.T) {
	for _, r := range All {
		t.Run(r.ID, func(t *testing.T) {
			if err := r.Validate(); err != nil {
				t.Fatal(err)
			}
			nfitest.Run(t, r, fixture(r.ID))
			nfitest.CheckDoc(t, r)
		})
	}
}

// TestCatalogOrder holds All to catalog order and the Version's count.
func TestCatalogOrder(t *testing.T) {
	order := map[string]int{"DOC": 0, "ERR": 1, "LIB": 2, "STY": 3, "LOG": 4}
	kind := map[byte]int{'R': 0, 'P': 1, 'T': 2}
	key := func(id string) [3]int {
		n, _ := strconv.Atoi(id[10:])
		return [3]int{order[id[5:8]], kind[id[9]], n}
	}
	seen := map[string]bool{}
	for i, r := range All {
		if seen[r.ID] || seen[r.Name] {
			t.Errorf("%s %s: duplicate", r.ID, r.Name)
		}
		seen[r.ID], seen[r.Name] = true, true
		if i == 0 {
			continue
		}
		a, b := key(All[i-1].ID), key(r.ID)
		if !(a[0] < b[0] || a[0] == b[0] && (a[1] < b[1] || a[1] == b[1] && a[2] < b[2])) {
			t.Errorf("out of catalog order: %s before %s", All[i-1].ID, r.ID)
		}
	}
	if Version != "polynfi-java-"+strconv.Itoa(len(All)) {
		t.Errorf("Version %s, but %d rules", Version, len(All))
	}
	if len(All) < 40 {
		t.Errorf("%d rules, the issue asks for 40 or more", len(All))
	}
}

// TestKindsKnown checks that every node type a rule visits exists in the
// Java grammar.
func TestKindsKnown(t *testing.T) {
	known := map[string]bool{}
	for _, n := range syntax.KindNames(syntax.Java) {
		known[n] = true
	}
	for _, r := range All {
		for _, k := range r.Kinds {
			if !known[k] {
				t.Errorf("%s: node type %q is not in the Java grammar", r.ID, k)
			}
		}
	}
}
