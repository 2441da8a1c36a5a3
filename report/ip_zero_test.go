package report

import (
	"slices"
	"testing"
)

// TestInstancesTableIpZero: a unit scored with I_p 0 in every aspect
// shows 0 in the per-instance table, not the dash of a unit that was not
// scored (issue #25, item 6: "I_p of 0 shows 0").
func TestInstancesTableIpZero(t *testing.T) {
	r := &Harness{}
	r.Polynfi.UnitResults = []UnitResult{
		{ID: "zero", Outcome: "resolved", NFI: []AspectMean{{Aspect: "DOC", N: 1, Mean: 0}, {Aspect: "ERR", N: 1, Mean: 0}}},
		{ID: "mixed", Outcome: "resolved", NFI: []AspectMean{{Aspect: "DOC", N: 1, Mean: 0.1}, {Aspect: "ERR", N: 1, Mean: 0}}},
		{ID: "unscored", Outcome: "resolved"},
	}
	tab := InstancesTable(r)
	col := slices.IndexFunc(tab.Header, func(h string) bool { return h == "I_p (pp)" || h == "I_p" || len(h) >= 3 && h[:3] == "I_p" })
	if col < 0 {
		t.Fatalf("no I_p column in %q", tab.Header)
	}
	got := map[string]string{}
	for _, row := range tab.Rows {
		got[row[0]] = row[col]
	}
	if got["zero"] != "0 (every aspect)" || got["mixed"] != "DOC +10.0" || got["unscored"] != Dash {
		t.Errorf("I_p cells: %q", got)
	}
}
