package testlog

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sync"
)

// junitCase is a <testcase> element of a JUnit XML report.
type junitCase struct {
	Name      string    `xml:"name,attr"`
	ClassName string    `xml:"classname,attr"`
	Failure   []xmlElem `xml:"failure"`
	Error     []xmlElem `xml:"error"`
	Skipped   []xmlElem `xml:"skipped"`
}

type xmlElem struct {
	Message string `xml:"message,attr"`
}

// ParseJUnitXML reads a JUnit XML report (a <testsuite> or <testsuites>
// root, suites nested to any depth, as written by Maven Surefire, Gradle,
// pytest --junitxml, jest-junit, mocha-junit-reporter) and returns one Result
// per <testcase>, in document order. The id is "classname.name" ("name" when
// classname is empty). A testcase with an <error> child is Error, with a
// <failure> child Failed, with a <skipped> child Skipped, otherwise Passed.
// Surefire's <flakyFailure>/<rerunFailure> children of a test that passed on
// a rerun do not make it fail.
//
// The error is non-nil when the XML is malformed; it names the line, and
// the results decoded before that point are still returned.
//
// Source: JUnit XML schema as written by Maven Surefire (surefire-test-report.xsd).
func ParseJUnitXML(r io.Reader) ([]Result, error) {
	d := xml.NewDecoder(r)
	d.Strict = false
	var out []Result
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, fmt.Errorf("parse junit xml: %w", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "testcase" {
			continue
		}
		var c junitCase
		if err := d.DecodeElement(&c, &se); err != nil {
			return out, fmt.Errorf("parse junit xml testcase %q: %w", c.Name, err)
		}
		out = append(out, Result{ID: junitID(c), Status: junitStatus(c)})
	}
}

func junitID(c junitCase) string {
	if c.ClassName == "" {
		return c.Name
	}
	return c.ClassName + "." + c.Name
}

func junitStatus(c junitCase) Status {
	switch {
	case len(c.Error) > 0:
		return Error
	case len(c.Failure) > 0:
		return Failed
	case len(c.Skipped) > 0:
		return Skipped
	}
	return Passed
}

// reXMLSuite matches one <testsuite ...>...</testsuite> report embedded in a
// log (a test command that cats its Surefire reports, as PolyBench's Java
// commands do).
var reXMLSuite = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)<testsuite[\s>].*?</testsuite>`) })

// parseEmbeddedJUnit parses every JUnit XML suite embedded in log. A suite
// that is not well-formed contributes the test cases decoded before the
// defect.
func parseEmbeddedJUnit(log []byte) []Result {
	var out []Result
	for _, m := range reXMLSuite().FindAll(log, -1) {
		rs, _ := ParseJUnitXML(bytes.NewReader(m))
		out = append(out, rs...)
	}
	return out
}
