package java

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// scoreSuppressed scores path with rules and suppressions on, and returns
// rule ID → the lines of its findings that count, and of those silenced.
func scoreSuppressed(t *testing.T, rules []*nfi.Rule, path string) (counted, silenced map[string][]int) {
	t.Helper()
	e, err := nfi.NewEngine(&nfi.Catalog{Version: "test", Rules: rules}, nfi.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	e.Suppressions = true
	p := syntax.NewParser()
	defer p.Close()
	fs := e.ScoreFile(p, path)
	if !fs.Valid {
		t.Fatal(fs.Error)
	}
	counted, silenced = map[string][]int{}, map[string][]int{}
	for _, rr := range fs.Rules {
		for _, d := range rr.Diagnostics {
			if d.Suppressed == "" {
				counted[rr.ID] = append(counted[rr.ID], d.Line)
			} else {
				silenced[rr.ID] = append(silenced[rr.ID], d.Line)
			}
		}
		if rr.Passed != (len(counted[rr.ID]) == 0) {
			t.Errorf("%s: passed %v with counted findings %v", rr.ID, rr.Passed, counted[rr.ID])
		}
	}
	return counted, silenced
}

// TestJavaSuppressions checks NOPMD, @SuppressWarnings("PMD"),
// ("PMD.Rule") and ("checkstyle:module") on testdata/suppressions.java:
// "PMD" does not silence MagicNumber, a Checkstyle check.
func TestJavaSuppressions(t *testing.T) {
	rules := []*nfi.Rule{SystemPrintln, EmptyCatchBlock, MagicNumber}
	counted, silenced := scoreSuppressed(t, rules, "testdata/suppressions.java")
	want := map[string][]int{"JAVA-LIB-P01": {4}, "JAVA-ERR-P01": {12}, "JAVA-STY-P11": {9, 18, 31}}
	wantSilenced := map[string][]int{"JAVA-LIB-P01": {3, 9, 18}, "JAVA-ERR-P01": {21}, "JAVA-STY-P11": {27}}
	for id := range want {
		if !equalInts(counted[id], want[id]) || !equalInts(silenced[id], wantSilenced[id]) {
			t.Errorf("%s: counted %v silenced %v, want counted %v silenced %v", id, counted[id], silenced[id], want[id], wantSilenced[id])
		}
	}
}

// TestJavaSuppressionsAsPMD holds the suppressions to PMD's: with its
// NOPMD marker and @SuppressWarnings honoured, PMD reports exactly the
// lines polynfi still counts for the PMD rules.
func TestJavaSuppressionsAsPMD(t *testing.T) {
	dir := oracleDir(t)
	path, err := filepath.Abs("testdata/suppressions.java")
	if err != nil {
		t.Fatal(err)
	}
	rules := []*nfi.Rule{SystemPrintln, EmptyCatchBlock}
	counted, _ := scoreSuppressed(t, rules, path)
	list := filepath.Join(t.TempDir(), "files.txt")
	writeFile(t, list, path+"\n")
	cmd := pmdCommand(dir, pmdRefs(rules), list, true)
	for i, a := range cmd.Args { // PMD's own marker this time
		if a == "POLYNFI-NEVER-SUPPRESS" {
			cmd.Args[i] = "NOPMD"
		}
	}
	out, _ := cmd.Output()
	for _, r := range rules {
		name := r.Oracle.PMD[0][strings.LastIndexByte(r.Oracle.PMD[0], '/')+1:]
		var theirs []int
		for _, chunk := range strings.Split(string(out), "\"beginline\": ")[1:] {
			line := 0
			for _, c := range chunk {
				if c < '0' || c > '9' {
					break
				}
				line = line*10 + int(c-'0')
			}
			if strings.Contains(strings.SplitN(chunk, "}", 2)[0], "\"rule\": \""+name+"\"") {
				theirs = append(theirs, line)
			}
		}
		if !equalInts(counted[r.ID], theirs) {
			t.Errorf("%s: polynfi counts lines %v, PMD reports %v", r.ID, counted[r.ID], theirs)
		}
	}
}

func equalInts(a, b []int) bool {
	sort.Ints(a)
	sort.Ints(b)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
