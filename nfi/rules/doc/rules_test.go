package doc

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/polynfi/polynfi/nfi/nfitest"
)

func TestRules(t *testing.T) {
	for _, r := range All {
		t.Run(r.ID, func(t *testing.T) {
			nfitest.Run(t, r, "testdata/"+r.ID+".py")
			nfitest.CheckDoc(t, r)
		})
	}
}

func TestCatalogOrder(t *testing.T) {
	var want []string
	for _, k := range []struct {
		letter byte
		n      int
	}{{'R', 12}, {'P', 4}, {'T', 3}} {
		for i := 1; i <= k.n; i++ {
			want = append(want, fmt.Sprintf("DOC-%c%02d", k.letter, i))
		}
	}
	var got []string
	for _, r := range All {
		got = append(got, r.ID)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("All is not the 19 DOC rules in catalog order, R P T (-want +got):\n%s", diff)
	}
}
