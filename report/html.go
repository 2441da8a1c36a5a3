package report

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"strings"
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
td.wrap{white-space:normal;min-width:14em;max-width:32em;text-align:left}
caption{font-weight:bold;text-align:left;padding:.4em 0;white-space:normal}
figure{margin:1em 0;overflow-x:auto}
svg.chart{display:block;max-width:none}
.notice{background:#fff3cd;border:1px solid #e0b000;padding:.6em 1em;font-weight:bold}
.note{color:#444;max-width:60em}
</style></head><body>
<h1>{{.Title}}</h1>
{{if .Notice}}<p class="notice" id="notice">{{.Notice}}</p>{{end}}
{{if .Lines}}<ul class="headline">{{range .Lines}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{range .Charts}}<figure>{{.}}</figure>{{end}}
{{range .Tables}}<table{{if .ID}} id="{{.ID}}"{{end}}><caption>{{.Title}}</caption>
<thead><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .HTMLRows}}<tr>{{range .}}<td{{if .Wrap}} class="wrap"{{end}}>{{if .Href}}<a href="{{.Href}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}</td>{{end}}</tr>{{end}}</tbody>
</table>{{range .Notes}}<p class="note">{{.}}</p>{{end}}{{end}}
{{if .Footer}}<footer class="note" id="provenance">{{.Footer}}</footer>{{end}}
</body></html>
`))

type htmlCell struct {
	Text, Href string
	Wrap       bool // long free text (a reason, a unit list): wraps
}

type htmlTable struct {
	Table
	HTMLRows [][]htmlCell
}

// WriteHTML writes p as a self-contained HTML page: the notice, the
// headline, the charts (inline SVG) and the tables (cells with a link in
// Table.Links become anchors).
func WriteHTML(w io.Writer, p Page) error {
	var charts []template.HTML
	for _, c := range p.Charts {
		charts = append(charts, template.HTML(c.SVG())) // built from numbers and escaped text only
	}
	var tables []htmlTable
	for _, t := range p.Tables {
		ht := htmlTable{Table: t}
		for i, r := range t.Rows {
			row := make([]htmlCell, len(r))
			for j, c := range r {
				row[j].Text = c
				row[j].Wrap = len([]rune(c)) > 40
				if i < len(t.Links) && j < len(t.Links[i]) {
					row[j].Href = t.Links[i][j]
				}
			}
			ht.HTMLRows = append(ht.HTMLRows, row)
		}
		tables = append(tables, ht)
	}
	return htmlPage.Execute(w, map[string]any{"Title": p.Title, "Notice": p.Notice, "Lines": p.Lines, "Charts": charts, "Tables": tables, "Footer": p.Footer})
}

// WritePageText writes p as plain text: the notice first, the headline,
// then the tables (charts are not drawn in text; their numbers are the
// tables').
func WritePageText(w io.Writer, p Page) error {
	if p.Notice != "" {
		fmt.Fprintf(w, "%s\n", p.Notice)
	}
	for _, l := range p.Lines {
		fmt.Fprintln(w, l)
	}
	if p.Notice != "" || len(p.Lines) > 0 {
		fmt.Fprintln(w)
	}
	if err := WriteText(w, p.Tables...); err != nil {
		return err
	}
	if p.Footer != "" {
		_, err := fmt.Fprintf(w, "\n%s\n", p.Footer)
		return err
	}
	return nil
}

// WritePageMarkdown writes p as Markdown: a heading, the notice in bold,
// the headline as a list and the tables.
func WritePageMarkdown(w io.Writer, p Page) error {
	fmt.Fprintf(w, "## %s\n\n", p.Title)
	if p.Notice != "" {
		fmt.Fprintf(w, "**%s**\n\n", p.Notice)
	}
	for _, l := range p.Lines {
		fmt.Fprintf(w, "- %s\n", l)
	}
	if len(p.Lines) > 0 {
		fmt.Fprintln(w)
	}
	if err := WriteMarkdown(w, p.Tables...); err != nil {
		return err
	}
	if p.Footer != "" {
		_, err := fmt.Fprintf(w, "\n<sub>%s</sub>\n", mdEscape(p.Footer))
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

// mdEscape escapes the characters that would break a Markdown table cell.
func mdEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
