package report

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
)

// BarChart is a grouped bar chart drawn from the cells of a report's
// tables: every bar names the table cell it shows (Ref) and carries that
// cell's text, so that a chart cannot say what its table does not.
// Bars with OK false are absent (drawn as "–" at the baseline, never as a
// zero-height bar); CI, when OK, is drawn as an error bar.
type BarChart struct {
	ID     string
	Title  string
	Unit   string   // the value axis' unit, shown after the title
	Groups []string // one label per group, on the category axis
	// GroupNotes are drawn under the group labels: the denominators.
	GroupNotes []string
	Series     []BarSeries
	// Note is the chart's footnote (HTML: its figcaption), saying what
	// the error bars are.
	Note string
}

// BarSeries is one legend entry: one bar per group.
type BarSeries struct {
	Name string
	Bars []Bar
}

// Bar is one drawn value.
type Bar struct {
	Value float64
	OK    bool
	CI    Interval
	Text  string  // the value as its table cell prints it
	Ref   CellRef // the table cell it comes from
	// CIText and CIRef are the table cell the error bar is drawn from
	// (CI, as that cell prints it: "0.0–100.0%", "[+1.2, +3.4]"); the
	// SVG carries both (data-ci, data-ci-ref) so that a reader, or the
	// browser test, can check that the bar is the interval the table
	// gives. Empty when the bar has no interval.
	CIText string
	CIRef  CellRef
}

// CellRef names a table cell: the table's ID, the row and column indexes
// (0-based, header excluded).
type CellRef struct {
	Table string
	Row   int
	Col   int
}

// Palette of the series (colour-blind safe, Tableau 10).
var Palette = []string{"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1", "#edc948", "#9c755f"}

// textWidth estimates the width in px of s at size px sans-serif (an
// upper bound: 0.6 × size a character).
func textWidth(s string, size float64) float64 {
	return float64(len([]rune(s))) * size * 0.6
}

// SVG renders the chart as standalone SVG with a viewBox wide and tall
// enough for every label: the title, the legend, the value labels and the
// group labels and notes are measured (by textWidth) before the size is
// chosen. Each bar is a <rect class="bar"> with data-value (the table
// text), data-ref ("table:row:col") and data-series/data-group; an absent
// value is a <text class="absent">. An error bar is a <g class="errorbar">
// with data-ci (its table cell's text), data-ci-ref (that cell) and
// data-ci-lo/data-ci-hi (the drawn ends, in the axis' unit). The <svg>
// carries data-scale, the pixels per unit of the value axis, and
// data-zero, the y of the value 0.
func (c BarChart) SVG() []byte {
	const (
		font   = 14.0 // every text is at least font-2 (12 px at the SVG's own size)
		left   = 56.0
		right  = 16.0
		plotH  = 220.0
		gap    = 18.0
		minBar = 26.0
	)
	ns := max(1, len(c.Series))
	barW := minBar
	for i, g := range c.Groups {
		w := textWidth(g, font)
		if i < len(c.GroupNotes) {
			w = max(w, textWidth(c.GroupNotes[i], font-1))
		}
		barW = max(barW, math.Ceil((w+4)/float64(ns)))
	}
	for _, s := range c.Series {
		for _, b := range s.Bars {
			barW = max(barW, math.Ceil(textWidth(b.Text, font-2)+4))
		}
	}
	groupW := float64(ns)*barW + gap
	title := c.Title
	if c.Unit != "" {
		title += " (" + c.Unit + ")"
	}
	// Legend: one row, wrapped when wider than the plot.
	plotW := math.Max(float64(len(c.Groups))*groupW, 160)
	width := left + plotW + right
	width = math.Max(width, textWidth(title, font+2)+24)
	type item struct {
		x, y float64
		name string
		col  string
	}
	var legend []item
	lx, ly := 12.0, 44.0
	for i, s := range c.Series {
		w := 16 + textWidth(s.Name, font) + 16
		if lx+w > width-8 && lx > 12 {
			lx, ly = 12, ly+20
		}
		legend = append(legend, item{lx, ly, s.Name, Palette[i%len(Palette)]})
		lx += w
	}
	top := ly + 22
	height := top + plotH + 50

	lo, hi := 0.0, 0.0
	for _, s := range c.Series {
		for _, b := range s.Bars {
			if !b.OK {
				continue
			}
			lo, hi = math.Min(lo, b.Value), math.Max(hi, b.Value)
			if b.CI.OK {
				lo, hi = math.Min(lo, b.CI.Lo), math.Max(hi, b.CI.Hi)
			}
		}
	}
	// A rate's axis shows its whole range: 0–100 for "%", 0–1 for "0–1"
	// (a 75% bar on an axis ending at 80 reads as nearly full).
	switch c.Unit {
	case "%":
		hi = math.Max(hi, 100)
	case "0–1":
		hi = math.Max(hi, 1)
	}
	step := niceStep((hi - lo) / 5)
	lo, hi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	if hi-lo < step {
		hi = lo + step
	}
	y := func(v float64) float64 { return top + plotH*(hi-v)/(hi-lo) }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="%s" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="%.0f" data-lo="%s" data-hi="%s" data-scale="%s" data-zero="%s">`,
		html.EscapeString(c.ID), width, height, width, height, font, fnum(lo), fnum(hi), fnum(plotH/(hi-lo)), fnum(y(0)))
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="#fff"/>`)
	fmt.Fprintf(&b, `<text class="title" x="12" y="22" font-size="%.0f" font-weight="bold">%s</text>`, font+2, html.EscapeString(title))
	for _, it := range legend {
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="11" height="11" fill="%s"/><text class="legend" x="%.1f" y="%.1f">%s</text>`,
			it.x, it.y-10, it.col, it.x+16, it.y, html.EscapeString(it.name))
	}
	// Axis and grid.
	// Ticks by index (no accumulated rounding), labelled to the step's decimals.
	dec := max(0, int(math.Ceil(-math.Log10(step)-1e-9)))
	for i := 0; lo+float64(i)*step <= hi+step/2; i++ {
		v := lo + float64(i)*step
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#e5e5e5"/>`, left, left+plotW, y(v), y(v))
		fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%.1f" text-anchor="end">%s</text>`, left-6, y(v)+4, strconv.FormatFloat(v, 'f', dec, 64))
	}
	fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#333"/>`, left, left+plotW, y(0), y(0))
	for g, name := range c.Groups {
		gx := left + float64(g)*groupW + gap/2
		for si, s := range c.Series {
			if g >= len(s.Bars) {
				continue
			}
			bar := s.Bars[g]
			x := gx + float64(si)*barW
			cx := x + barW/2
			ref := fmt.Sprintf("%s:%d:%d", bar.Ref.Table, bar.Ref.Row, bar.Ref.Col)
			if !bar.OK {
				fmt.Fprintf(&b, `<text class="absent" x="%.1f" y="%.1f" text-anchor="middle" fill="#777" data-ref="%s" data-series="%s" data-group="%s">%s</text>`,
					cx, y(0)-4, html.EscapeString(ref), html.EscapeString(s.Name), html.EscapeString(name), Dash)
				continue
			}
			y0, y1 := y(0), y(bar.Value)
			fmt.Fprintf(&b, `<rect class="bar" x="%.1f" y="%.2f" width="%.1f" height="%.2f" fill="%s" data-value="%s" data-number="%s" data-ref="%s" data-series="%s" data-group="%s"><title>%s, %s: %s</title></rect>`,
				x+1, math.Min(y0, y1), barW-2, math.Abs(y0-y1), Palette[si%len(Palette)], html.EscapeString(bar.Text), fnum(bar.Value),
				html.EscapeString(ref), html.EscapeString(s.Name), html.EscapeString(name), html.EscapeString(s.Name), html.EscapeString(name), html.EscapeString(bar.Text))
			if bar.CI.OK {
				fmt.Fprintf(&b, `<g class="errorbar" stroke="#222" data-ci="%s" data-ci-ref="%s" data-ci-lo="%s" data-ci-hi="%s"><line x1="%.1f" x2="%.1f" y1="%.2f" y2="%.2f"/><line x1="%.1f" x2="%.1f" y1="%.2f" y2="%.2f"/><line x1="%.1f" x2="%.1f" y1="%.2f" y2="%.2f"/></g>`,
					html.EscapeString(bar.CIText), html.EscapeString(ciRef(bar)), fnum(bar.CI.Lo), fnum(bar.CI.Hi),
					cx, cx, y(bar.CI.Lo), y(bar.CI.Hi), cx-4, cx+4, y(bar.CI.Lo), y(bar.CI.Lo), cx-4, cx+4, y(bar.CI.Hi), y(bar.CI.Hi))
			}
			ly := math.Min(y1, y0) - 4
			if bar.CI.OK {
				ly = math.Min(ly, y(bar.CI.Hi)-4)
			}
			if bar.Value < 0 {
				ly = math.Max(y1, y0) + 12
				if bar.CI.OK {
					ly = math.Max(ly, y(bar.CI.Lo)+12)
				}
			}
			fmt.Fprintf(&b, `<text class="value" x="%.1f" y="%.1f" text-anchor="middle" font-size="%.0f">%s</text>`, cx, ly, font-2, html.EscapeString(bar.Text))
		}
		mid := gx + float64(ns)*barW/2
		fmt.Fprintf(&b, `<text class="group" x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, mid, top+plotH+18, html.EscapeString(name))
		if g < len(c.GroupNotes) {
			fmt.Fprintf(&b, `<text class="note" x="%.1f" y="%.1f" text-anchor="middle" font-size="%.0f" fill="#555">%s</text>`, mid, top+plotH+34, font-1, html.EscapeString(c.GroupNotes[g]))
		}
	}
	b.WriteString(`</svg>`)
	return []byte(b.String())
}

// ciRef is the "table:row:col" of the cell a bar's error bar is drawn
// from, "" when the bar names none.
func ciRef(b Bar) string {
	if b.CIRef.Table == "" {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d", b.CIRef.Table, b.CIRef.Row, b.CIRef.Col)
}

func fnum(v float64) string {
	if math.Abs(v) < 1e-12 {
		v = 0
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
