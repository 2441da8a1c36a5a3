package report

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/polynfi/polynfi/internal/textesc"
)

// Table is a rendered table: a title, a header, string cells and notes.
type Table struct {
	// ID names the table in HTML (charts refer to its cells by it).
	ID     string     `json:"id,omitempty"`
	Title  string     `json:"title"`
	Header []string   `json:"header"`
	Rows   [][]string `json:"rows"`
	Notes  []string   `json:"notes,omitempty"`
	// Links, when set, hold a relative link per cell ("" for none):
	// Markdown writes [text](link), HTML an anchor, text the text only.
	Links [][]string `json:"-"`
}

// Dash is what an undefined cell shows (never 0).
const Dash = "–"

// NA is what a cell shows when the quantity does not apply: an aspect no
// rule of the catalog scores for a language (never 0).
const NA = "n/a"

// pp formats an improvement fraction as percentage points, one decimal, signed.
func pp(c Cell) string {
	if !c.OK {
		return Dash
	}
	v := 100 * c.Value
	if math0(v) {
		v = 0
	}
	return fmt.Sprintf("%+.1f", v)
}

func math0(v float64) bool { return v > -0.05 && v < 0.05 }

func num(c Cell, prec int) string {
	if !c.OK {
		return Dash
	}
	return fmt.Sprintf("%.*f", prec, c.Value)
}

// WriteText writes tables as aligned plain text.
func WriteText(w io.Writer, tables ...Table) error {
	for ti, t := range tables {
		if ti > 0 {
			fmt.Fprintln(w)
		}
		t = termTable(t)
		fmt.Fprintln(w, t.Title)
		widths := make([]int, len(t.Header))
		for i, h := range t.Header {
			widths[i] = utf8.RuneCountInString(h)
		}
		for ri, r := range t.Rows {
			for i, c := range linkedCells(t, ri, r) {
				if i < len(widths) {
					widths[i] = max(widths[i], utf8.RuneCountInString(c))
				}
			}
		}
		line := func(cells []string) {
			var b strings.Builder
			for i, c := range cells {
				pad := widths[i] - utf8.RuneCountInString(c)
				if i == 0 {
					b.WriteString(c + strings.Repeat(" ", pad))
				} else {
					b.WriteString("  " + strings.Repeat(" ", pad) + c)
				}
			}
			fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
		}
		line(t.Header)
		sep := make([]string, len(widths))
		for i, wd := range widths {
			sep[i] = strings.Repeat("-", wd)
		}
		line(sep)
		for i, r := range t.Rows {
			line(linkedCells(t, i, r))
		}
		for _, n := range t.Notes {
			fmt.Fprintln(w, n)
		}
	}
	return nil
}

// WriteMarkdown writes tables as GitHub-flavoured Markdown, each under a
// level-3 heading.
func WriteMarkdown(w io.Writer, tables ...Table) error {
	return writeMarkdownTables(w, 3, tables...)
}

func writeMarkdownTables(w io.Writer, level int, tables ...Table) error {
	for ti, t := range tables {
		if ti > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s %s\n\n", strings.Repeat("#", min(level, 6)), textesc.Markdown(t.Title))
		header := make([]string, len(t.Header))
		for i, h := range t.Header {
			header[i] = textesc.Markdown(h)
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(header, " | "))
		aligns := make([]string, len(t.Header))
		for i := range aligns {
			aligns[i] = "---:"
		}
		aligns[0] = "---"
		fmt.Fprintf(w, "|%s|\n", strings.Join(aligns, "|"))
		for i, r := range t.Rows {
			cells := make([]string, len(r))
			for j, c := range r {
				cells[j] = textesc.Markdown(c)
				if i < len(t.Links) && j < len(t.Links[i]) && t.Links[i][j] != "" {
					cells[j] = "[" + cells[j] + "](" + mdLinkDest(t.Links[i][j]) + ")"
				}
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
		}
		if len(t.Notes) > 0 {
			fmt.Fprintln(w)
			for _, n := range t.Notes {
				fmt.Fprintln(w, textesc.Markdown(n))
			}
		}
	}
	return nil
}

// termTable returns t with its title, header, cells, links and notes
// made safe for a terminal (textesc.Terminal): a cell cannot end its
// line or send an escape sequence.
func termTable(t Table) Table {
	t.Title = textesc.Terminal(t.Title)
	t.Header = termAll(t.Header)
	t.Notes = termAll(t.Notes)
	rows := make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		rows[i] = termAll(r)
	}
	t.Rows = rows
	if t.Links != nil {
		links := make([][]string, len(t.Links))
		for i, r := range t.Links {
			links[i] = termAll(r)
		}
		t.Links = links
	}
	return t
}

// mdLinkDest returns a relative link for a Markdown link destination:
// every byte but ASCII letters, digits and "-._~/" percent-encoded, so
// the link cannot end early (")", a space, a newline) or name a scheme
// ("javascript:" becomes the relative path "javascript%3A").
func mdLinkDest(l string) string {
	var b strings.Builder
	for i := 0; i < len(l); i++ {
		c := l[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~/", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// linkedCells returns row i of t with every linked cell replaced by its
// link (plain text shows where a file is, not the link's label).
func linkedCells(t Table, i int, r []string) []string {
	if i >= len(t.Links) {
		return r
	}
	out := append([]string(nil), r...)
	for j, l := range t.Links[i] {
		if l != "" && j < len(out) {
			out[j] = l
		}
	}
	return out
}
