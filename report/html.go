package report

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"path"
	"path/filepath"
	"strings"

	"github.com/polynfi/polynfi/internal/textesc"
)

// Page is one rendered report: a title, an optional notice (an
// interrupted run), the headline lines, the charts and the tables.
// WriteText, WriteMarkdown and WriteHTML render the same Page, so every
// format says the same things.
type Page struct {
	Title  string
	Notice string
	Lines  []string
	Charts []BarChart
	Tables []Table
	// Footer says what produced the page (Provenance), "" for none.
	Footer string
	// Sections are sub-pages rendered after the tables, each under its
	// own heading: one per model of a run holding several, one per run
	// of a report over several run directories. Their table and chart ids
	// must be unique on the page (WithIDPrefix).
	Sections []Page
}

// WithIDPrefix returns p with prefix put before every table and chart id
// of p and of its sections, and before the table every bar refers to, so
// that pages can be sections of one HTML page without two tables of the
// same id.
func (p Page) WithIDPrefix(prefix string) Page {
	out := p
	out.Tables = make([]Table, len(p.Tables))
	for i, t := range p.Tables {
		if t.ID != "" {
			t.ID = prefix + t.ID
		}
		out.Tables[i] = t
	}
	out.Charts = make([]BarChart, len(p.Charts))
	for i, c := range p.Charts {
		if c.ID != "" {
			c.ID = prefix + c.ID
		}
		series := make([]BarSeries, len(c.Series))
		for j, s := range c.Series {
			bars := make([]Bar, len(s.Bars))
			for k, b := range s.Bars {
				if b.Ref.Table != "" {
					b.Ref.Table = prefix + b.Ref.Table
				}
				if b.CIRef.Table != "" {
					b.CIRef.Table = prefix + b.CIRef.Table
				}
				bars[k] = b
			}
			s.Bars = bars
			series[j] = s
		}
		c.Series = series
		out.Charts[i] = c
	}
	out.Sections = make([]Page, len(p.Sections))
	for i, sec := range p.Sections {
		out.Sections[i] = sec.WithIDPrefix(prefix)
	}
	return out
}

// WithLinkBase returns p with every relative table link of p and of its
// sections put under base (a page made relative to a run directory,
// shown in a document that is not in it).
func (p Page) WithLinkBase(base string) Page {
	out := p
	out.Tables = make([]Table, len(p.Tables))
	for i, t := range p.Tables {
		if t.Links != nil {
			links := make([][]string, len(t.Links))
			for r, row := range t.Links {
				links[r] = make([]string, len(row))
				for c, l := range row {
					if l != "" && !strings.HasPrefix(l, "/") && !strings.Contains(l, "://") {
						l = path.Join(filepath.ToSlash(base), l)
					}
					links[r][c] = l
				}
			}
			t.Links = links
		}
		out.Tables[i] = t
	}
	out.Sections = make([]Page, len(p.Sections))
	for i, sec := range p.Sections {
		out.Sections[i] = sec.WithLinkBase(base)
	}
	return out
}

// Sections returns the pages as sections of one page titled title: the
// ids of section i are prefixed "s<i>-" (WithIDPrefix).
func Sections(title string, lines []string, pages ...Page) Page {
	p := Page{Title: title, Lines: lines}
	for i, sec := range pages {
		p.Sections = append(p.Sections, sec.WithIDPrefix(fmt.Sprintf("s%d-", i+1)))
	}
	return p
}

// Provenance is a page's footer: the polynfi version that rendered it and
// the versions that evaluated the run, when known and different
// ("polynfi v1.2 (evaluated with polynfi v1.1, v1.2)").
func Provenance(rendered string, evaluated []string) string {
	if rendered == "" {
		return ""
	}
	s := "polynfi " + rendered
	if len(evaluated) > 0 && !(len(evaluated) == 1 && evaluated[0] == rendered) {
		s += " (evaluated with polynfi " + strings.Join(evaluated, ", ") + ")"
	}
	return s
}

var htmlPage = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}}</title>
<style>
body{font-family:system-ui,sans-serif;margin:2em;max-width:80em;color:#111}
table{border-collapse:collapse;margin:1em 0}
th,td{border:1px solid #ccc;padding:.3em .6em;text-align:right;white-space:nowrap}
th:first-child,td:first-child{text-align:left}
td.wrap{white-space:normal;overflow-wrap:anywhere;min-width:9em;max-width:28em;text-align:left}
td.id{white-space:normal;overflow-wrap:anywhere;min-width:8em;text-align:left}
th{white-space:normal}
table.drill td{white-space:normal;text-align:left}
table.drill td,table.drill th{padding:.25em .4em}
caption{font-weight:bold;text-align:left;padding:.4em 0;white-space:normal}
figure{margin:1em 0;overflow-x:auto}
svg.chart{display:block;max-width:none}
.notice{background:#fff3cd;border:1px solid #e0b000;padding:.6em 1em;font-weight:bold}
.note{color:#444;max-width:60em}
ul.headline li{overflow-wrap:anywhere}
section{border-top:2px solid #888;margin-top:2em}
</style></head><body>
{{template "section" .}}
</body></html>
{{define "section"}}{{if eq .Level 1}}<h1>{{.Title}}</h1>{{else if eq .Level 2}}<h2>{{.Title}}</h2>{{else}}<h3>{{.Title}}</h3>{{end}}
{{if .Notice}}<p class="notice"{{if eq .Level 1}} id="notice"{{end}}>{{.Notice}}</p>{{end}}
{{if .Lines}}<ul class="headline">{{range .Lines}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{range .Charts}}<figure>{{.SVG}}{{if .Note}}<figcaption class="note">{{.Note}}</figcaption>{{end}}</figure>{{end}}
{{range .Tables}}<table{{if .ID}} id="{{.ID}}"{{end}}{{if .Links}} class="drill"{{end}}><caption>{{.Title}}</caption>
<thead><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .HTMLRows}}<tr>{{range .}}<td{{if .Wrap}} class="wrap"{{else if .ID}} class="id"{{end}}>{{if .Href}}<a href="{{.Href}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}</td>{{end}}</tr>{{end}}</tbody>
</table>{{range .Notes}}<p class="note">{{.}}</p>{{end}}{{end}}
{{range .Sections}}<section>{{template "section" .}}</section>{{end}}
{{if .Footer}}<footer class="note"{{if eq .Level 1}} id="provenance"{{end}}>{{.Footer}}</footer>{{end}}
{{end}}`))

type htmlCell struct {
	Text, Href string
	Wrap       bool // long free text (a reason, a unit list): wraps
	// ID is a long first cell (an instance id): it may break anywhere
	// when the table would be wider than the page.
	ID bool
}

// htmlChart is a chart's SVG and its footnote (BarChart.Note).
type htmlChart struct {
	SVG  template.HTML
	Note string
}

type htmlTable struct {
	Table
	HTMLRows [][]htmlCell
}

// htmlSection is a Page made ready for the template: its heading level
// (1 for the page, 2 and 3 for sections), charts as SVG, table cells.
type htmlSection struct {
	Level    int
	Title    string
	Notice   string
	Lines    []string
	Charts   []htmlChart
	Tables   []htmlTable
	Sections []htmlSection
	Footer   string
}

func htmlSectionOf(p Page, level int) htmlSection {
	s := htmlSection{Level: min(level, 3), Title: p.Title, Notice: p.Notice, Lines: p.Lines, Footer: p.Footer}
	for _, c := range p.Charts {
		s.Charts = append(s.Charts, htmlChart{SVG: template.HTML(c.SVG()), Note: c.Note}) // built from numbers and escaped text only
	}
	for _, t := range p.Tables {
		ht := htmlTable{Table: t}
		for i, r := range t.Rows {
			row := make([]htmlCell, len(r))
			for j, c := range r {
				row[j].Text = c
				row[j].Wrap = len([]rune(c)) > 40
				row[j].ID = j == 0 && len([]rune(c)) > 20
				if i < len(t.Links) && j < len(t.Links[i]) {
					row[j].Href = t.Links[i][j]
				}
			}
			ht.HTMLRows = append(ht.HTMLRows, row)
		}
		s.Tables = append(s.Tables, ht)
	}
	for _, sec := range p.Sections {
		s.Sections = append(s.Sections, htmlSectionOf(sec, level+1))
	}
	return s
}

// WriteHTML writes p as a self-contained HTML page: the notice, the
// headline, the charts (inline SVG) and the tables (cells with a link in
// Table.Links become anchors), then each section under its own heading.
func WriteHTML(w io.Writer, p Page) error {
	return htmlPage.Execute(w, htmlSectionOf(termPage(p), 1))
}

// termPage returns p with every text of p and of its sections, tables
// and charts made one line without control characters
// (textesc.Terminal): html/template escapes markup, this keeps an escape
// sequence or a line break out of the page's source as well.
func termPage(p Page) Page {
	t := textesc.Terminal
	out := p
	out.Title, out.Notice, out.Footer = t(p.Title), t(p.Notice), t(p.Footer)
	out.Lines = make([]string, len(p.Lines))
	for i, l := range p.Lines {
		out.Lines[i] = t(l)
	}
	out.Tables = make([]Table, len(p.Tables))
	for i, tb := range p.Tables {
		out.Tables[i] = termTable(tb)
	}
	out.Charts = make([]BarChart, len(p.Charts))
	for i, c := range p.Charts {
		c.Title, c.Unit, c.Note = t(c.Title), t(c.Unit), t(c.Note)
		c.Groups = termAll(c.Groups)
		c.GroupNotes = termAll(c.GroupNotes)
		series := make([]BarSeries, len(c.Series))
		for j, sr := range c.Series {
			sr.Name = t(sr.Name)
			bars := make([]Bar, len(sr.Bars))
			for k, b := range sr.Bars {
				b.Text, b.CIText = t(b.Text), t(b.CIText)
				bars[k] = b
			}
			sr.Bars = bars
			series[j] = sr
		}
		c.Series = series
		out.Charts[i] = c
	}
	out.Sections = make([]Page, len(p.Sections))
	for i, sec := range p.Sections {
		out.Sections[i] = termPage(sec)
	}
	return out
}

// termAll returns ss with textesc.Terminal applied to each.
func termAll(ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = textesc.Terminal(s)
	}
	return out
}

// WritePageText writes p as plain text: the notice first, the headline,
// then the tables (charts are not drawn in text; their numbers are the
// tables'), then each section under a "=== title ===" line.
func WritePageText(w io.Writer, p Page) error {
	return writePageText(w, p, 0)
}

func writePageText(w io.Writer, p Page, depth int) error {
	if depth > 0 {
		fmt.Fprintf(w, "%s %s %s\n\n", strings.Repeat("=", 4-min(depth, 2)), textesc.Terminal(p.Title), strings.Repeat("=", 4-min(depth, 2)))
	}
	if p.Notice != "" {
		fmt.Fprintf(w, "%s\n", textesc.Terminal(p.Notice))
	}
	for _, l := range p.Lines {
		fmt.Fprintln(w, textesc.Terminal(l))
	}
	if p.Notice != "" || len(p.Lines) > 0 {
		fmt.Fprintln(w)
	}
	if err := WriteText(w, p.Tables...); err != nil {
		return err
	}
	for i, sec := range p.Sections {
		if i > 0 || len(p.Tables) > 0 {
			fmt.Fprintln(w)
		}
		if err := writePageText(w, sec, depth+1); err != nil {
			return err
		}
	}
	if p.Footer != "" {
		_, err := fmt.Fprintf(w, "\n%s\n", textesc.Terminal(p.Footer))
		return err
	}
	return nil
}

// WritePageMarkdown writes p as Markdown: a heading, the notice in bold,
// the headline as a list (lines indented by two spaces as sub-items) and
// the tables, then each section under a heading one level down.
func WritePageMarkdown(w io.Writer, p Page) error {
	return writePageMarkdown(w, p, 2)
}

func writePageMarkdown(w io.Writer, p Page, level int) error {
	fmt.Fprintf(w, "%s %s\n\n", strings.Repeat("#", level), textesc.Markdown(p.Title))
	if p.Notice != "" {
		fmt.Fprintf(w, "**%s**\n\n", textesc.Markdown(p.Notice))
	}
	for _, l := range p.Lines {
		if strings.HasPrefix(l, "  ") {
			fmt.Fprintf(w, "  - %s\n", textesc.Markdown(strings.TrimSpace(l)))
		} else {
			fmt.Fprintf(w, "- %s\n", textesc.Markdown(l))
		}
	}
	if len(p.Lines) > 0 {
		fmt.Fprintln(w)
	}
	if err := writeMarkdownTables(w, level+1, p.Tables...); err != nil {
		return err
	}
	for i, sec := range p.Sections {
		if i > 0 || len(p.Tables) > 0 {
			fmt.Fprintln(w)
		}
		if err := writePageMarkdown(w, sec, min(level+1, 5)); err != nil {
			return err
		}
	}
	if p.Footer != "" {
		_, err := fmt.Fprintf(w, "\n<sub>%s</sub>\n", textesc.Markdown(p.Footer))
		return err
	}
	return nil
}

// niceStep rounds a raw axis step up to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if raw <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}
