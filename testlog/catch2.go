package testlog

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
)

// Catch2: the XML reporter of a Catch2 binary (-r xml), read by polynfi
// (Parse(Catch2, ...)); Catch2's JUnit reporter is read as JUnit XML. Also
// Multi-SWE-bench 1.1.2's reader for catchorg/Catch2 itself, which reads
// CTest's result lines and CMake's configure checks. SWE-bench 5.0.2 has
// no Catch2 repository.

// parseCatch2 reads the first Catch2 XML report in the log (<Catch>
// root): each <TestCase> gives one result with its name as id, Passed or
// Failed by its <OverallResult success>, XFail when it succeeded with a
// failed expression or an exception under it ([!mayfail], [!shouldfail]),
// Error when it has no OverallResult (the binary died in it; a report cut
// short is read up to its last complete test case).
//
// Source: Catch2 XmlReporter (catch_reporter_xml.cpp, 2.13).
func parseCatch2(log []byte) []Result {
	i := bytes.Index(log, []byte("<Catch "))
	if i < 0 {
		return nil
	}
	doc := string(log[i:])
	if j := strings.Index(doc, "</Catch>"); j >= 0 {
		doc = doc[:j+len("</Catch>")]
	}
	root, err := parseXMLTree(doc)
	var cut *xmlNode
	if err != nil {
		// Cut short: the test cases that closed, then the one open.
		k := strings.LastIndex(doc, "</TestCase>")
		if k >= 0 {
			root, _ = parseXMLTree(doc[:k+len("</TestCase>")] + "</Group></Catch>")
		}
		if m := reCatch2Open().FindAllStringSubmatch(doc[max(k, 0):], -1); len(m) > 0 {
			cut = &xmlNode{Name: "TestCase", Attr: map[string]string{"name": xmlUnescape(m[len(m)-1][1])}}
		}
	}
	var out []Result
	if root != nil {
		for _, tc := range root.findAll("TestCase") {
			out = append(out, catch2Case(tc))
		}
	}
	if cut != nil {
		out = append(out, Result{ID: cut.Attr["name"], Status: Error})
	}
	return out
}

var reCatch2Open = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<TestCase name="([^"]*)"`) })

func xmlUnescape(s string) string {
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'", "&amp;", "&").Replace(s)
}

func catch2Case(tc *xmlNode) Result {
	name, _ := tc.get("name")
	st := Error
	for _, o := range tc.Children {
		if o.Name != "OverallResult" {
			continue
		}
		if s, _ := o.get("success"); s == "true" {
			st = Passed
			for _, e := range tc.findAll("Expression") {
				if s, _ := e.get("success"); s == "false" {
					st = XFail
				}
			}
			if len(tc.findAll("Exception")) > 0 {
				st = XFail
			}
		} else {
			st = Failed
		}
	}
	return Result{ID: name, Status: st}
}

var (
	reMSWECatch2Pass = sync.OnceValue(func() []*regexp.Regexp {
		return []*regexp.Regexp{
			MustCompilePython(`(?i)^-- Performing Test (.+) - Success$`),
			MustCompilePython(`(?i)^\d+/\d+ Test\s+#\d+: (.+) \.+\s+ Passed\s+.+$`),
		}
	})
	reMSWECatch2Fail = sync.OnceValue(func() []*regexp.Regexp {
		return []*regexp.Regexp{
			MustCompilePython(`(?i)^-- Performing Test (.+) - Failed$`),
			MustCompilePython(`(?i)^\d+/\d+ Test\s+#\d+: (.+) \.+\*\*\*Failed\s+.+$`),
		}
	})
	reMSWECatch2Skip = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`(?i)^-- Performing Test (.+) - skipped$`) })
)

// msweCatch2 is Multi-SWE-bench's parse_log for catchorg/Catch2: each line
// stripped and lower-cased (ids are lower case); CTest's "N/M Test #K:
// name ....   Passed ..." and "...***Failed ..." lines, and CMake's
// configure checks "-- Performing Test HAVE_X - Success|Failed|skipped",
// which are read as tests. Crashed and timed-out tests are not read.
func msweCatch2(log string) *msweSets {
	s := newMSWESets()
	for _, line := range pySplitLines(log) {
		if !containsAny(line, "#", "--") {
			continue
		}
		line = pyLower(pyStrip(line))
		if line == "" {
			continue
		}
		for _, re := range reMSWECatch2Pass() {
			if g := re.FindStringSubmatch(line); g != nil {
				s.passed.add(g[1])
			}
		}
		for _, re := range reMSWECatch2Fail() {
			if g := re.FindStringSubmatch(line); g != nil {
				s.failed.add(g[1])
			}
		}
		if g := reMSWECatch2Skip().FindStringSubmatch(line); g != nil {
			s.skipped.add(g[1])
		}
	}
	return s
}

func init() {
	registerMSWE("catch2_ctest", msweCatch2, "catchorg/Catch2")
}
