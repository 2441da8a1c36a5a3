package driver

import (
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/polynfi/polynfi/nfi"
)

// SARIFSink collects results and writes one SARIF 2.1.0 log at the end
// (SARIF is a single JSON document, so it cannot be streamed).
// Source: OASIS SARIF 2.1.0.
type SARIFSink struct {
	w   io.Writer
	log *sarif.Report
	run *sarif.Run
	idx map[string]int
}

// invalidFileRule is the SARIF rule ID for files that could not be scored.
const invalidFileRule = "polynfi/invalid-file"

// NewSARIFSink starts a SARIF 2.1.0 log of e's rules on w; File adds a
// scored file's results, Close writes the log.
func NewSARIFSink(w io.Writer, e *nfi.Engine) *SARIFSink {
	rep, _ := sarif.New(sarif.Version210)
	run := sarif.NewRunWithInformationURI("polynfi", "https://github.com/polynfi/polynfi")
	run.Tool.Driver.WithVersion(sarifVersion()).WithSemanticVersion(semver())
	run.Properties = sarif.Properties{"catalog": e.Catalog.Version, "suppressions": SuppressionMode(e)}
	s := &SARIFSink{w: w, log: rep, run: run, idx: map[string]int{}}
	for i, r := range e.Rules() {
		pb := sarif.NewPropertyBag()
		pb.Add("aspect", r.Aspect.Code())
		pb.Add("kind", r.Kind.String())
		if r.Limit != nil {
			pb.Add("threshold", r.Limit.Default)
		}
		rule := run.AddRule(r.ID).
			WithName(r.Name).
			WithShortDescription(sarif.NewMultiformatMessageString(r.Doc.Summary)).
			WithFullDescription(sarif.NewMultiformatMessageString(r.Doc.What)).
			WithHelp(sarif.NewMultiformatMessageString(r.Doc.Why + "\n\nSource: " + r.Doc.Source)).
			WithProperties(pb.Properties)
		_ = rule
		s.idx[r.ID] = i
	}
	// GitHub code scanning requires fullDescription and help of every rule
	// (the SARIF Multitool's GH2012 check).
	run.AddRule(invalidFileRule).
		WithName("invalid-file").
		WithShortDescription(sarif.NewMultiformatMessageString("file could not be scored (syntax error, binary, or not UTF-8)")).
		WithFullDescription(sarif.NewMultiformatMessageString("The file does not parse as Python, is binary, is not UTF-8 without a PEP 263 coding declaration it can be decoded with, or is too large; no rule can judge it, so it has no S_p.")).
		WithHelp(sarif.NewMultiformatMessageString("Fix the syntax error (or the encoding) at the reported position. In a comparison, a file that cannot be scored in either version makes I_p undefined (exit 1), so a change can never gain points by breaking a file."))
	s.idx[invalidFileRule] = len(e.Rules())
	return s
}

// File adds the results of a scored file (an invalid file is one result
// of rule polynfi/invalid-file).
func (s *SARIFSink) File(fs nfi.FileScore) error {
	for _, r := range s.results(fs, fs.Path) {
		s.run.AddResult(r)
	}
	return nil
}

// results returns fs's SARIF results, in rule order: one per diagnostic,
// or one invalidFileRule result when fs could not be scored. path is the
// file as it is on disk (see artifactURI).
func (s *SARIFSink) results(fs nfi.FileScore, path string) []*sarif.Result {
	at := func(region *sarif.Region) []*sarif.Location {
		return []*sarif.Location{sarif.NewLocationWithPhysicalLocation(
			sarif.NewPhysicalLocation().
				WithArtifactLocation(sarif.NewSimpleArtifactLocation(artifactURI(path))).
				WithRegion(region))}
	}
	if !fs.Valid {
		msg := fs.Status
		line, col := 1, 1
		if fs.Error != nil {
			msg += ": " + fs.Error.Message
			line, col = max(fs.Error.Line, 1), max(fs.Error.Column, 1)
		}
		return []*sarif.Result{sarif.NewRuleResult(invalidFileRule).
			WithRuleIndex(s.idx[invalidFileRule]).
			WithLevel("error").
			WithMessage(sarif.NewTextMessage(msg)).
			WithLocations(at(sarif.NewSimpleRegion(line, line).WithStartColumn(col)))}
	}
	var out []*sarif.Result
	for _, r := range fs.Rules {
		for _, d := range r.Diagnostics {
			region := sarif.NewSimpleRegion(d.Line, max(d.EndLine, d.Line)).WithStartColumn(d.Column)
			if d.EndColumn > 0 {
				region = region.WithEndColumn(d.EndColumn)
			}
			res := sarif.NewRuleResult(d.RuleID).
				WithRuleIndex(s.idx[d.RuleID]).
				WithLevel("warning").
				WithMessage(sarif.NewTextMessage(d.Message)).
				WithLocations(at(region))
			if d.Suppressed != "" {
				// Source: SARIF 2.1.0 §3.34.3: inSource for a comment in
				// the file, external for the settings' per-file-ignores.
				kind := "inSource"
				if d.Suppressed == nfi.SuppressedPerFile {
					kind = "external"
				}
				res.WithSuppression([]*sarif.Suppression{sarif.NewSuppression(kind).WithJustifcation(d.Suppressed)})
			}
			out = append(out, res)
		}
	}
	return out
}

// Close writes the SARIF log of the files given to File.
func (s *SARIFSink) Close() error {
	s.log.AddRun(s.run)
	return s.log.PrettyWrite(s.w)
}

// artifactURI is how SARIF names a file: a relative URI reference (slashes,
// percent-encoded) when the file is under the working directory, which
// code-scanning tools resolve against the checkout; otherwise a file:// URI.
// Source: SARIF 2.1.0 §3.4.3 (uri property), RFC 3986.
func artifactURI(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.ToSlash(path)
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return (&url.URL{Path: filepath.ToSlash(rel)}).EscapedPath()
		}
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}
