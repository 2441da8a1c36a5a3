package testlog

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// validStatus reports whether s is one of the six statuses.
func validStatus(s Status) bool {
	switch s {
	case Passed, Failed, Skipped, Error, XFail, XPass:
		return true
	}
	return false
}

// fuzzParser seeds f with every recorded log and checks that parsing any
// input neither panics nor yields a result without a valid status, and that
// parsing is deterministic.
func fuzzParser(f *testing.F, fw Framework) {
	logs, err := filepath.Glob(filepath.Join("testdata", "logs", "*"))
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range logs {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, log []byte) {
		rs, err := Parse(fw, log)
		if err != nil && fw != JUnit {
			t.Fatalf("Parse(%s) error %v; only JUnit may fail", fw, err)
		}
		for _, r := range rs {
			if !validStatus(r.Status) {
				t.Fatalf("Parse(%s) gave status %q for %q", fw, r.Status, r.ID)
			}
		}
		again, _ := Parse(fw, log)
		if !bytes.Equal(formatResults(rs), formatResults(again)) {
			t.Fatalf("Parse(%s) is not deterministic", fw)
		}
		Detect(log)
	})
}

func FuzzPytest(f *testing.F)   { fuzzParser(f, Pytest) }
func FuzzUnittest(f *testing.F) { fuzzParser(f, Unittest) }
func FuzzJest(f *testing.F)     { fuzzParser(f, Jest) }
func FuzzMocha(f *testing.F)    { fuzzParser(f, Mocha) }
func FuzzTAP(f *testing.F)      { fuzzParser(f, TAP) }
func FuzzSurefire(f *testing.F) { fuzzParser(f, Surefire) }
func FuzzJUnitXML(f *testing.F) { fuzzParser(f, JUnit) }
func FuzzGoTest(f *testing.F)   { fuzzParser(f, GoTest) }
