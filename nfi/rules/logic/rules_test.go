package logic

import (
	"testing"

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
