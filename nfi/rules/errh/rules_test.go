package errh

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
