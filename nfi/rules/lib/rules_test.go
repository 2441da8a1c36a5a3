package lib

import (
	"strings"
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

// TestTable checks the embedded table and that every row's rule exists.
func TestTable(t *testing.T) {
	tb, err := parseTable(deprecatedTSV)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int{}
	for _, r := range All {
		ids[r.ID] = 0
	}
	for _, e := range tb.entries {
		if _, ok := ids[e.rule]; !ok {
			t.Errorf("row %s %s names unknown rule %s", e.mode, e.pattern, e.rule)
		}
		ids[e.rule]++
	}
	for id, n := range ids {
		if n == 0 && strings.HasPrefix(id, "LIB-P") || id == "LIB-R01" && n == 0 {
			t.Errorf("rule %s has no row in deprecated.tsv", id)
		}
	}
}

func TestParseTableErrors(t *testing.T) {
	header := "rule\tmode\tpattern\tcondition\tchange\tinstead\tsource\n"
	tests := []struct{ row, want string }{
		{"LIB-P01\tref\tcollections.Mapping\t-\tremoved\tx", "deprecated.tsv:2: 6 fields"},
		{"STY-P01\tref\ta.b\t-\tremoved\tx\ty", "not a LIB rule"},
		{"LIB-P01\tfuzzy\ta.b\t-\tremoved\tx\ty", "unknown mode"},
		{"LIB-P01\tref\t.a\t-\tremoved\tx\ty", "not a dotted name"},
		{"LIB-P01\tattr\ta.b\t-\tremoved\tx\ty", "not .name"},
		{"LIB-P01\tkwarg\ta.b(c)\t-\tremoved\tx\ty", "not name(keyword=)"},
		{"LIB-P01\tref\ta.b\twhen:x\tremoved\tx\ty", "bad condition"},
		{"LIB-P01\tref\ta.b\t-\t\tx\ty", "field 5 is empty"},
		{"LIB-P01\tref\ta.b\t-\tremoved\tx\ty\nLIB-P01\tref\ta.b\t-\tremoved\tx\ty", "deprecated.tsv:3: duplicate row"},
	}
	for _, tc := range tests {
		_, err := parseTable(header + tc.row + "\n")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parseTable(%q) = %v, want error containing %q", tc.row, err, tc.want)
		}
	}
}
