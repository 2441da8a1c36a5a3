package driver

// The output formats of `polynfi score` (moved from internal/cli, #25
// item 7c): the streamed sinks (text, json, sarif), the collected ones
// (github, gitlab, junit, markdown, --statistics) and the run's summary.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/nfi"
)

// NewScoreSink is the sink of format for a score run writing to w: a
// collecting sink (into *collected) when the format needs every file
// first (statistics, github, gitlab, junit, markdown: WriteCollected
// writes them), else json, sarif or text (quiet: scores only; cmp, with
// --diff-base, adds the comparison after the summary).
func NewScoreSink(w io.Writer, format string, statistics, quiet bool, eng *nfi.Engine, cmp *Comparison, collected *[]nfi.FileScore) (sink ScoreSink, collect bool) {
	collect = statistics || format == "github" || format == "gitlab" || format == "junit" || format == "markdown"
	switch {
	case collect:
		return &collectSink{files: collected}, true
	case format == "json":
		return newJSONScoreSink(w, eng), false
	case format == "sarif":
		return sarifScoreSink{NewSARIFSink(w, eng)}, false
	}
	return &textScoreSink{w: bufio.NewWriter(w), quiet: quiet, cmp: cmp, provenance: ProvenanceLine(eng)}, false
}

// WriteCollected writes the files a collecting sink kept in format:
// --statistics' counts per rule, GitHub annotations, GitLab Code Quality,
// JUnit XML or the Markdown summary (version is polynfi's, in its
// footer). With cmp (--diff-base) the findings are the comparison's.
func WriteCollected(w io.Writer, format string, statistics bool, eng *nfi.Engine, cmp *Comparison, collected []nfi.FileScore, sum ScoreSummary, version string) error {
	fs := FileFindings(collected)
	if cmp != nil {
		fs = cmp.Findings()
	}
	if statistics {
		return WriteStatistics(w, format, eng, fs, false)
	}
	var invalid []nfi.InvalidFile
	for _, f := range collected {
		if !f.Valid {
			invalid = append(invalid, nfi.InvalidFile{Path: f.Path, Version: nfi.VersionAfter, Status: f.Status, Error: f.Error})
		}
	}
	switch format {
	case "github":
		return WriteGitHub(w, fs, invalid, false, sum.Gates, ScoreNotice(sum))
	case "gitlab":
		return WriteGitLab(w, fs, invalid, nil)
	case "junit":
		return WriteJUnit(w, eng, collected, nil)
	}
	return writeScoreMarkdown(w, eng, collected, sum, version)
}

// collectSink keeps the files for writers that need them all.
type collectSink struct{ files *[]nfi.FileScore }

func (c *collectSink) File(fs nfi.FileScore) error { *c.files = append(*c.files, fs); return nil }
func (c *collectSink) Close(ScoreSummary) error    { return nil }

// ScoreNotice is the one-line summary of a score run.
func ScoreNotice(sum ScoreSummary) string {
	return fmt.Sprintf("%s: %d valid, %d invalid; mean S_p:%s", plural(sum.Files, "file"), sum.Valid, sum.Invalid, formatScores(sum.MeanScores))
}

// writeScoreMarkdown writes a score run as Markdown: mean S_p, files,
// findings per rule.
func writeScoreMarkdown(w io.Writer, eng *nfi.Engine, files []nfi.FileScore, sum ScoreSummary, version string) error {
	fmt.Fprintf(w, "## polynfi: non-functional quality\n\n%s: %d valid, %d invalid.\n\n", plural(sum.Files, "file"), sum.Valid, sum.Invalid)
	fmt.Fprintln(w, "| Aspect | mean S_p |")
	fmt.Fprintln(w, "|---|---:|")
	for _, a := range nfi.Aspects {
		if v, ok := sum.MeanScores.Get(a); ok {
			fmt.Fprintf(w, "| %s (%s) | %.3f |\n", a.Code(), a, v)
		}
	}
	fmt.Fprintln(w, "\n| File | DOC | ERR | LIB | STY | LOG | findings |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|")
	for _, f := range files {
		if !f.Valid {
			fmt.Fprintf(w, "| `%s` | invalid (%s) | | | | | |\n", textesc.MarkdownCode(f.Path), f.Status)
			continue
		}
		fmt.Fprintf(w, "| `%s` |", textesc.MarkdownCode(f.Path))
		for _, a := range nfi.Aspects {
			if v, ok := f.Scores.Get(a); ok {
				fmt.Fprintf(w, " %.2f |", v)
			} else {
				fmt.Fprint(w, " – |")
			}
		}
		n := 0
		for _, d := range Diagnostics(&f) {
			if d.Suppressed == "" {
				n++
			}
		}
		fmt.Fprintf(w, " %d |\n", n)
	}
	for _, g := range sum.Gates {
		fmt.Fprintf(w, "\n- gate failed: %s", textesc.Markdown(g))
	}
	fmt.Fprintf(w, "\n<sub>polynfi %s · catalog %s · suppressions %s</sub>\n", textesc.Markdown(version), eng.Catalog.Version, SuppressionMode(eng))
	return nil
}

// ScoreSummary aggregates a score run: files by status, the mean S_p
// per aspect over the valid files (SWE-NFI Eq. 1 averaged), bytes and
// MB/s.
type ScoreSummary struct {
	Files       int            `json:"files"`
	Valid       int            `json:"valid"`
	Invalid     int            `json:"invalid"`
	ByStatus    map[string]int `json:"by_status"`
	MeanScores  nfi.Scores     `json:"mean_scores"`
	Bytes       int64          `json:"bytes"`
	Seconds     float64        `json:"seconds"`
	MBPerSecond float64        `json:"mb_per_second"`
	// Suppressed counts the findings suppressions silenced.
	Suppressed int `json:"suppressed"`
	// Suppressions is "honoured" or "ignored" (--ignore-noqa).
	Suppressions string `json:"suppressions"`
	// Gates lists the gates that tripped.
	Gates []string `json:"gates_failed,omitempty"`

	sums [5]float64
	ns   [5]int
}

// Add counts fs.
func (s *ScoreSummary) Add(fs nfi.FileScore) {
	s.Files++
	s.Bytes += int64(fs.Bytes)
	if s.ByStatus == nil {
		s.ByStatus = map[string]int{}
	}
	s.ByStatus[fs.Status]++
	s.Suppressed += fs.Suppressed
	if !fs.Valid {
		s.Invalid++
		return
	}
	s.Valid++
	for i, a := range nfi.Aspects {
		if v, ok := fs.Scores.Get(a); ok {
			s.sums[i] += v
			s.ns[i]++
		}
	}
}

// Finish computes the means and the throughput of a run that took d.
func (s *ScoreSummary) Finish(_ *nfi.Engine, d time.Duration) {
	m := map[nfi.Aspect]float64{}
	for i, a := range nfi.Aspects {
		if s.ns[i] > 0 {
			m[a] = s.sums[i] / float64(s.ns[i])
		}
	}
	s.MeanScores = nfi.NewScores(m)
	s.Seconds = d.Seconds()
	if s.Seconds > 0 {
		s.MBPerSecond = float64(s.Bytes) / 1e6 / s.Seconds
	}
}

// ScoreSink receives the files of a score run as they are scored, then
// the run's summary.
type ScoreSink interface {
	File(nfi.FileScore) error
	Close(ScoreSummary) error
}

type textScoreSink struct {
	w     *bufio.Writer
	quiet bool
	// cmp is the comparison of --diff-base (nil without): its I_p and
	// finding counts follow the summary.
	cmp *Comparison
	// provenance is the last line (ProvenanceLine).
	provenance string
}

func formatScores(s nfi.Scores) string {
	out := ""
	for _, a := range nfi.Aspects {
		if v, ok := s.Get(a); ok {
			out += fmt.Sprintf("  %s %.3f", a.Code(), v)
		}
	}
	return out
}

func (t *textScoreSink) File(fs nfi.FileScore) error {
	if !fs.Valid {
		fmt.Fprintf(t.w, "%s: invalid (%s", textesc.Terminal(fs.Path), fs.Status)
		switch {
		case fs.Error != nil && fs.Error.Line > 0:
			fmt.Fprintf(t.w, " at %d:%d: %s", fs.Error.Line, fs.Error.Column, textesc.Terminal(fs.Error.Message))
		case fs.Error != nil:
			fmt.Fprintf(t.w, ": %s", textesc.Terminal(fs.Error.Message))
		}
		fmt.Fprintln(t.w, ")")
		return nil
	}
	fmt.Fprintf(t.w, "%s:%s\n", textesc.Terminal(fs.Path), formatScores(fs.Scores))
	if !t.quiet {
		for _, r := range fs.Rules {
			for _, d := range r.Diagnostics {
				if d.Suppressed == "" {
					fmt.Fprintf(t.w, "  %s:%d:%d: %s %s\n", textesc.Terminal(fs.Path), d.Line, d.Column, d.RuleID, textesc.Terminal(d.Message))
				}
			}
		}
		WriteUnused(t.w, []nfi.FileScore{fs})
	}
	return nil
}

func (t *textScoreSink) Close(s ScoreSummary) error {
	mean := formatScores(s.MeanScores)
	if s.Valid == 0 {
		mean = " none (no valid file)"
	}
	fmt.Fprintf(t.w, "\n%s: %d valid, %d invalid; mean S_p:%s\n", plural(s.Files, "file"), s.Valid, s.Invalid, mean)
	if s.Suppressed > 0 {
		fmt.Fprintf(t.w, "suppressions honoured: %s silenced (--ignore-noqa scores as SWE-NFI)\n", plural(s.Suppressed, "finding"))
	}
	if t.cmp != nil {
		fmt.Fprintf(t.w, "compared with %s at %s: %s\n", t.cmp.Labels[0], ShortID(t.cmp.Out.Git.MergeBase), DiffNotice(t.cmp))
		if t.cmp.Out.SettingsFromBase != "" {
			fmt.Fprintf(t.w, "settings: this change edits them; both versions scored with the before version's (%s)\n", t.cmp.Out.SettingsFromBase)
		}
		WriteFileView(t.w, t.cmp.Out)
	}
	for _, g := range s.Gates {
		fmt.Fprintf(t.w, "gate failed: %s\n", textesc.Terminal(g))
	}
	fmt.Fprintln(t.w, t.provenance)
	return t.w.Flush()
}

// jsonBufferSize is the json sink's write buffer: a file's record is some
// 4.5 kB (the 92 rule results), so bufio's default 4 kB made a write(2)
// per file, 1.7 per file in all on site-packages; 64 kB holds a dozen.
const jsonBufferSize = 64 << 10

// jsonScoreSink streams {"catalog":..., "files":[...], "summary":...}.
type jsonScoreSink struct {
	w     *bufio.Writer
	first bool
	// rec holds each file record (appendFileScore: marshalPlain's
	// encoding), reused from file to file; buf and enc encode the records
	// appendFileScore leaves to encoding/json.
	rec []byte
	// heads caches the rule results' openings (see ruleHeads).
	heads ruleHeads
	buf   bytes.Buffer
	enc   *json.Encoder
}

func newJSONScoreSink(w io.Writer, e *nfi.Engine) *jsonScoreSink {
	s := &jsonScoreSink{w: bufio.NewWriterSize(w, jsonBufferSize), first: true}
	hdr, _ := marshalPlain(SummarizeSettings(e))
	// open the object with the settings summary's fields, then the files array
	fmt.Fprintf(s.w, "{\"run\": %s,\n\"files\": [\n", hdr)
	return s
}

// marshalPlain is json.Marshal without HTML escaping ("<" stays "<").
func marshalPlain(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

func (s *jsonScoreSink) File(fs nfi.FileScore) error {
	if !finiteScore(&fs) {
		// a value encoding/json refuses: its error, as before
		if s.enc == nil {
			s.enc = json.NewEncoder(&s.buf)
			s.enc.SetEscapeHTML(false)
		}
		s.buf.Reset()
		if err := s.enc.Encode(fs); err != nil {
			return err
		}
	}
	if !s.first {
		s.w.WriteString(",\n")
	}
	s.first = false
	if s.buf.Len() > 0 { // encoded above
		s.w.Write(bytes.TrimRight(s.buf.Bytes(), "\n"))
		s.buf.Reset()
		return nil
	}
	b, _ := appendFileScoreHeads(s.rec[:0], &fs, func(b []byte) []byte {
		s.w.Write(b)
		return b[:0]
	}, &s.heads)
	s.w.Write(b)
	s.rec = b[:0]
	return nil
}

func (s *jsonScoreSink) Close(sum ScoreSummary) error {
	b, err := marshalPlain(sum)
	if err != nil {
		return err
	}
	fmt.Fprintf(s.w, "\n],\n\"summary\": %s}\n", b)
	return s.w.Flush()
}

// sarifScoreSink writes score's SARIF log.
type sarifScoreSink struct{ s *SARIFSink }

func (s sarifScoreSink) File(fs nfi.FileScore) error { return s.s.File(fs) }
func (s sarifScoreSink) Close(ScoreSummary) error    { return s.s.Close() }
