package catalog

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/nfitest"
)

// TestCounts holds the catalog to the paper's Table 1 counts.
func TestCounts(t *testing.T) {
	c := Polynfi92()
	want := map[nfi.Aspect][3]int{
		nfi.Documentation:      {12, 4, 3},
		nfi.ErrorHandling:      {4, 6, 2},
		nfi.LibraryConstraints: {1, 19, 2},
		nfi.CodingStyle:        {7, 10, 8},
		nfi.LogicPatterns:      {0, 8, 6},
	}
	got := map[nfi.Aspect][3]int{}
	for _, r := range c.Rules {
		g := got[r.Aspect]
		g[r.Kind]++
		got[r.Aspect] = g
	}
	for a, w := range want {
		if got[a] != w {
			t.Errorf("%s: got required/prohibited/threshold %v, want %v", a.Code(), got[a], w)
		}
	}
	if len(c.Rules) != 92 {
		t.Errorf("got %d rules, want 92", len(c.Rules))
	}
	// Catalog order is the spec's: aspects DOC, ERR, LIB, STY, LOG; within an
	// aspect required, prohibited, threshold; then by number.
	for i := 1; i < len(c.Rules); i++ {
		a, b := c.Rules[i-1], c.Rules[i]
		ka := [3]int{int(a.Aspect), int(a.Kind), 0}
		kb := [3]int{int(b.Aspect), int(b.Kind), 0}
		fmt.Sscanf(a.ID[5:], "%d", &ka[2])
		fmt.Sscanf(b.ID[5:], "%d", &kb[2])
		if !(ka[0] < kb[0] || ka[0] == kb[0] && (ka[1] < kb[1] || ka[1] == kb[1] && ka[2] < kb[2])) {
			t.Errorf("rules out of catalog order: %s before %s", a.ID, b.ID)
		}
	}
	if _, err := nfi.NewEngine(c, nfi.Settings{}); err != nil {
		t.Fatal(err)
	}
}

var pkgDir = map[nfi.Aspect]string{
	nfi.Documentation: "doc", nfi.ErrorHandling: "errh", nfi.LibraryConstraints: "lib",
	nfi.CodingStyle: "style", nfi.LogicPatterns: "logic",
}

// TestDocsAndFixtures checks every rule's documented examples (Bad fails,
// Good passes) and that every rule has a fixture with at least one flagged line.
func TestDocsAndFixtures(t *testing.T) {
	for _, r := range Polynfi92().Rules {
		t.Run(r.ID, func(t *testing.T) {
			nfitest.CheckDoc(t, r)
			fx := filepath.Join("..", "rules", pkgDir[r.Aspect], "testdata", r.ID+".py")
			data, err := os.ReadFile(fx)
			if err != nil {
				t.Fatalf("fixture: %v", err)
			}
			if len(nfitest.Expectations(string(data))) == 0 {
				t.Errorf("%s has no flagged line", fx)
			}
		})
	}
}
