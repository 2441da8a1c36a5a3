package style

import (
	"sort"
	"testing"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/nfitest"
)

func TestRules(t *testing.T) {
	for _, r := range All {
		t.Run(r.ID, func(t *testing.T) {
			if err := r.Validate(); err != nil {
				t.Fatal(err)
			}
			nfitest.Run(t, r, "testdata/"+r.ID+".py")
			nfitest.CheckDoc(t, r)
		})
	}
}

func TestCatalogOrder(t *testing.T) {
	if len(All) != 25 {
		t.Fatalf("got %d STY rules, want 25", len(All))
	}
	ids := make([]string, len(All))
	for i, r := range All {
		ids[i] = r.ID
		if r.Aspect != nfi.CodingStyle {
			t.Errorf("%s: aspect %v, want Coding Style", r.ID, r.Aspect)
		}
	}
	if !sort.SliceIsSorted(ids, func(i, j int) bool { return idLess(ids[i], ids[j]) }) {
		t.Errorf("rules are not in ID order: %v", ids)
	}
}

// idLess orders IDs as the catalog does: R before P before T, then number.
func idLess(a, b string) bool {
	rank := map[byte]int{'R': 0, 'P': 1, 'T': 2}
	if a[4] != b[4] {
		return rank[a[4]] < rank[b[4]]
	}
	return a < b
}
