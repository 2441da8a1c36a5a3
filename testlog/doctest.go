package testlog

import (
	"bytes"
	"fmt"
	"strings"
)

// doctest: the XML reporter of a doctest binary (-r=xml, with -s to list
// passing subcases), read by polynfi (Parse(Doctest, ...)) and by
// SWE-bench 5.0.2's parse_log_doctest. The console reporter names only
// failing tests and is not read.

// parseDoctest reads the first <doctest> XML report in the log. Each
// <TestCase> gives one result with its name as id: skipped="true" is
// Skipped, an <Exception crash="true"> Error (the test crashed), otherwise
// the test_case_success of its <OverallResultsAsserts> (Passed or Failed),
// Error when it has none (the binary died in it). Each <SubCase>, at any
// depth, also gives "<test case> > <subcase>" (SWE-bench's id), Passed when
// every expression under it succeeded and the test case did not crash. A
// report cut short is read up to its last complete test case.
//
// Source: doctest's XmlReporter (doctest.h, 2.4).
func parseDoctest(log []byte) []Result {
	i := bytes.Index(log, []byte("<doctest"))
	if i < 0 {
		return nil
	}
	doc := string(log[i:])
	if j := strings.Index(doc, "</doctest>"); j >= 0 {
		doc = doc[:j+len("</doctest>")]
	}
	root, err := parseXMLTree(doc)
	if err != nil {
		// A report cut short: close what is open, reading complete
		// test cases only.
		k := strings.LastIndex(doc, "</TestCase>")
		if k < 0 {
			return nil
		}
		if root, err = parseXMLTree(doc[:k+len("</TestCase>")] + "</TestSuite></doctest>"); err != nil {
			return nil
		}
	}
	var out []Result
	for _, tc := range root.findAll("TestCase") {
		name, _ := tc.get("name")
		crashed := false
		for _, e := range tc.findAll("Exception") {
			if c, _ := e.get("crash"); c == "true" {
				crashed = true
			}
		}
		st := Error
		if s, _ := tc.get("skipped"); s == "true" {
			st = Skipped
		} else if !crashed {
			for _, o := range tc.Children {
				if o.Name == "OverallResultsAsserts" {
					if s, _ := o.get("test_case_success"); s == "true" {
						st = Passed
					} else {
						st = Failed
					}
				}
			}
		}
		out = append(out, Result{ID: name, Status: st})
		for _, sc := range tc.findAll("SubCase") {
			sn, _ := sc.get("name")
			sst := Passed
			if crashed {
				sst = Error
			}
			for _, e := range sc.findAll("Expression") {
				if s, _ := e.get("success"); s != "true" && sst == Passed {
					sst = Failed
				}
			}
			out = append(out, Result{ID: name + " > " + sn, Status: sst})
		}
	}
	return out
}

// parseSWEBDoctest is SWE-bench's parse_log_doctest: the text from the
// first "<doctest" to the first "</doctest>" after it is parsed as XML
// (an error when it is not well-formed, as ElementTree raises; when the
// end tag is missing the text is log[start:9], as Python's slice then
// gives); every <SubCase> under every <TestCase> gives "<test case> >
// <subcase>" (a missing name reads "None"), PASSED when every <Expression>
// under it has success="true", else FAILED. Test cases without subcases,
// skipped test cases and exceptions are not read.
func parseSWEBDoctest(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	start := pyFind(log, "<doctest", 0)
	if start < 0 {
		return m, nil
	}
	end := pyFind(log, "</doctest>", start) + len("</doctest>")
	doc := pySlice(log, start, end)
	root, err := parseXMLTree(doc)
	if err != nil {
		return nil, fmt.Errorf("the doctest XML report does not parse (ElementTree raises ParseError): %v", err)
	}
	none := func(n *xmlNode, a string) string {
		if v, ok := n.get(a); ok {
			return v
		}
		return "None"
	}
	for _, tc := range root.findAll("TestCase") {
		tn := none(tc, "name")
		for _, sc := range tc.findAll("SubCase") {
			ok := true
			for _, e := range sc.findAll("Expression") {
				if s, _ := e.get("success"); s != "true" {
					ok = false
				}
			}
			if ok {
				m.set(tn+" > "+none(sc, "name"), Passed)
			} else {
				m.set(tn+" > "+none(sc, "name"), Failed)
			}
		}
	}
	return m, nil
}

// pyFind is Python's str.find(sub, start) as a byte offset, -1 when
// absent.
func pyFind(s, sub string, start int) int {
	if start < 0 {
		start = 0
	}
	i := strings.Index(s[start:], sub)
	if i < 0 {
		return -1
	}
	return start + i
}

// pySlice is s[start:end] with Python's clamping (an end before start
// gives ""). The only end that is not a find's offset is a failed find plus
// a length (9 for "</doctest>"): then the text is at most a few
// characters of "<doctest", which never parses, in bytes as in code points.
func pySlice(s string, start, end int) string {
	if end < start {
		return ""
	}
	if end > len(s) {
		end = len(s)
	}
	return s[start:end]
}

func init() {
	swebParsers["parse_log_doctest"] = parseSWEBDoctest
}
