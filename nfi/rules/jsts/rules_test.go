package jsts

import (
	"os"
	"testing"

	"github.com/polynfi/polynfi/nfi/nfitest"
	"github.com/polynfi/polynfi/syntax"
)

// fixture returns the rule's fixture: testdata/ID.ts for a TypeScript-only
// rule, testdata/ID.js otherwise.
func fixture(id string) string {
	if _, err := os.Stat("testdata/" + id + ".ts"); err == nil {
		return "testdata/" + id + ".ts"
	}
	return "testdata/" + id + ".js"
}

func TestRules(t *testing.T) {
	for _, r := range All {
		t.Run(r.ID, func(t *testing.T) {
			nfitest.Run(t, r, fixture(r.ID))
			nfitest.CheckDoc(t, r)
		})
	}
}

// TestCatalogOrder holds All to catalog order and the Version's count.
func TestCatalogOrder(t *testing.T) {
	order := map[string]int{"DOC": 0, "ERR": 1, "LIB": 2, "STY": 3, "LOG": 4}
	kind := map[byte]int{'R': 0, 'P': 1, 'T': 2}
	key := func(id string) [3]string {
		return [3]string{string(rune('0' + order[id[3:6]])), string(rune('0' + kind[id[7]])), id[8:]}
	}
	for i := 1; i < len(All); i++ {
		a, b := key(All[i-1].ID), key(All[i].ID)
		if !(a[0] < b[0] || a[0] == b[0] && (a[1] < b[1] || a[1] == b[1] && a[2] < b[2])) {
			t.Errorf("out of catalog order: %s before %s", All[i-1].ID, All[i].ID)
		}
	}
	if Version != "polynfi-js-"+itoa(len(All)) {
		t.Errorf("Version %s, but %d rules", Version, len(All))
	}
}

func itoa(n int) string {
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

// TestKindsKnown checks that every node type a rule visits exists in at
// least one of its grammars (the engine skips a type one of them lacks).
func TestKindsKnown(t *testing.T) {
	for _, r := range All {
		for _, k := range r.Kinds {
			found := false
			for _, l := range r.Langs() {
				for _, n := range syntax.KindNames(l) {
					if n == k {
						found = true
					}
				}
			}
			if !found {
				t.Errorf("%s: node type %q is in none of %v", r.ID, k, r.Langs())
			}
		}
	}
}
