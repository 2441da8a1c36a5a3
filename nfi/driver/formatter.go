package driver

import (
	"io"

	"github.com/polynfi/polynfi/nfi"
)

// Formatter writes a scored comparison in one output format. A
// Comparison is written by as many formatters as wanted, one after
// another (e.g. SARIF for code scanning and GitHub annotations from one
// run): none changes it. Every write error is returned.
type Formatter interface {
	Write(w io.Writer, c *Comparison) error
}

// DiffFormats are the format names NewFormatter takes, the first the
// default.
var DiffFormats = []string{"text", "json", "sarif", "github", "gitlab", "junit", "markdown"}

// NewFormatter returns the formatter of a format of DiffFormats for a
// comparison scored by eng; maxShown caps the findings listed per file by
// the text and markdown formats (0: all). With statistics it is the
// format's statistics (StatisticsFormatter) instead. An unknown format is
// a usage error.
func NewFormatter(format string, eng *nfi.Engine, maxShown int, statistics bool) (Formatter, error) {
	if statistics {
		return StatisticsFormatter{Engine: eng, Format: format}, nil
	}
	switch format {
	case "text", "":
		return TextFormatter{Engine: eng, MaxShown: maxShown}, nil
	case "json":
		return JSONFormatter{}, nil
	case "sarif":
		return SARIFFormatter{Engine: eng}, nil
	case "github":
		return GitHubFormatter{}, nil
	case "gitlab":
		return GitLabFormatter{}, nil
	case "junit":
		return JUnitFormatter{Engine: eng}, nil
	case "markdown":
		return MarkdownFormatter{Engine: eng, MaxShown: maxShown}, nil
	}
	return nil, usagef("format %q: want one of %v", format, DiffFormats)
}

// TextFormatter writes the text report of `polynfi diff`: the table of
// S_p before and after and I_p per aspect, then the findings, at most
// MaxShown per file (0: all), then the provenance line.
type TextFormatter struct {
	Engine   *nfi.Engine
	MaxShown int
}

func (f TextFormatter) Write(w io.Writer, c *Comparison) error {
	return writeDiffText(w, f.Engine, c, f.MaxShown)
}

// JSONFormatter writes Comparison.Out as indented JSON (DiffOutput).
type JSONFormatter struct{}

func (JSONFormatter) Write(w io.Writer, c *Comparison) error { return writeJSON(w, c.Out) }

// SARIFFormatter writes a SARIF 2.1.0 log of the after version's
// findings, each with its baselineState (BaselineNew and so on).
type SARIFFormatter struct{ Engine *nfi.Engine }

func (f SARIFFormatter) Write(w io.Writer, c *Comparison) error {
	return writeDiffSARIF(w, f.Engine, c)
}

// GitHubFormatter writes GitHub Actions workflow commands (see WriteGitHub).
type GitHubFormatter struct{}

func (GitHubFormatter) Write(w io.Writer, c *Comparison) error {
	var g ghAnnotations
	g.fileView(c)
	g.findings(c.Findings(), c.Out.Invalid, true, c.Out.Gates)
	return g.write(w, DiffNotice(c))
}

// GitLabFormatter writes a GitLab Code Quality report (see WriteGitLab).
type GitLabFormatter struct{}

func (GitLabFormatter) Write(w io.Writer, c *Comparison) error {
	return WriteGitLab(w, c.Findings(), c.Out.Invalid, c.afterPath)
}

// JUnitFormatter writes a JUnit XML report (see WriteJUnit).
type JUnitFormatter struct{ Engine *nfi.Engine }

func (f JUnitFormatter) Write(w io.Writer, c *Comparison) error {
	return WriteJUnit(w, f.Engine, c.Out.After, c)
}

// MarkdownFormatter writes the Markdown report (a pull-request comment),
// at most MaxShown findings per file (0: all).
type MarkdownFormatter struct {
	Engine   *nfi.Engine
	MaxShown int
}

func (f MarkdownFormatter) Write(w io.Writer, c *Comparison) error {
	return writeDiffMarkdown(w, f.Engine, c, f.MaxShown)
}

// StatisticsFormatter writes the number of findings per rule in Format
// (see WriteStatistics) instead of the findings.
type StatisticsFormatter struct {
	Engine *nfi.Engine
	Format string
}

func (f StatisticsFormatter) Write(w io.Writer, c *Comparison) error {
	return WriteStatistics(w, f.Format, f.Engine, c.Findings(), true)
}
