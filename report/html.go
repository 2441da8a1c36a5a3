package report

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"

	chart "github.com/wcharczuk/go-chart/v2"
	"github.com/wcharczuk/go-chart/v2/drawing"

	"github.com/polynfi/polynfi/nfi"
)

// Series is one named row of a grouped bar chart: one value per group.
type Series struct {
	Name   string
	Values []float64
	OK     []bool // false: the bar is left out (undefined value)
}

var palette = []drawing.Color{
	{R: 0x4e, G: 0x79, B: 0xa7, A: 255}, {R: 0xf2, G: 0x8e, B: 0x2b, A: 255}, {R: 0x59, G: 0xa1, B: 0x4f, A: 255},
	{R: 0xe1, G: 0x57, B: 0x59, A: 255}, {R: 0x76, G: 0xb7, B: 0xb2, A: 255}, {R: 0xb0, G: 0x7a, B: 0xa1, A: 255},
}

// GroupedBarSVG renders series as grouped bars (one group per label) in SVG.
// Values are drawn as given (callers pass percentage points).
func GroupedBarSVG(title string, groups []string, series []Series) ([]byte, error) {
	var bars []chart.Value
	for g, label := range groups {
		for s, se := range series {
			v := 0.0
			if g < len(se.Values) && (se.OK == nil || se.OK[g]) {
				v = se.Values[g]
			}
			name := ""
			if s == len(series)/2 {
				name = label
			}
			bars = append(bars, chart.Value{Value: v, Label: name, Style: chart.Style{FillColor: palette[s%len(palette)], StrokeColor: palette[s%len(palette)]}})
		}
		bars = append(bars, chart.Value{Value: 0, Label: "", Style: chart.Style{FillColor: drawing.ColorTransparent, StrokeColor: drawing.ColorTransparent}})
	}
	lo, hi := 0.0, 0.0
	for _, b := range bars {
		lo, hi = min(lo, b.Value), max(hi, b.Value)
	}
	step := niceStep((hi - lo) / 5)
	lo, hi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	if hi-lo < step {
		hi = lo + step
	}
	var ticks []chart.Tick
	for v := lo; v <= hi+step/2; v += step {
		ticks = append(ticks, chart.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
	}
	// go-chart writes a bar's label within the bar's width, so bars are at
	// least as wide as the longest group label (about 7 px a character).
	longest := 0
	for _, g := range groups {
		longest = max(longest, len([]rune(g)))
	}
	barWidth, barSpacing := max(24, int(math.Ceil(7.5*float64(longest)))), 4
	bc := chart.BarChart{
		Title:        title,
		Width:        len(bars)*(barWidth+barSpacing) + 110,
		Height:       340,
		BarWidth:     barWidth,
		BarSpacing:   barSpacing,
		UseBaseValue: true,
		BaseValue:    0,
		Background:   chart.Style{Padding: chart.Box{Top: 40, Left: 10, Right: 10, Bottom: 20}},
		YAxis:        chart.YAxis{Range: &chart.ContinuousRange{Min: lo, Max: hi}, Ticks: ticks},
		Bars:         bars,
	}
	var buf bytes.Buffer
	if err := bc.Render(chart.SVG, &buf); err != nil {
		return nil, fmt.Errorf("render chart %q: %w", title, err)
	}
	return buf.Bytes(), nil
}

// NFIChart draws mean I_p (pp) per aspect for the human reference and every agent.
func (r NFI) NFIChart() ([]byte, error) {
	var groups []string
	for _, a := range nfi.Aspects {
		groups = append(groups, a.Code())
	}
	var series []Series
	for _, row := range r.Table3 {
		s := Series{Name: row.Agent}
		for _, c := range row.Mean {
			s.Values = append(s.Values, 100*c.Value)
			s.OK = append(s.OK, c.OK)
		}
		series = append(series, s)
	}
	return GroupedBarSVG("Mean I_p (pp) over functionally correct runs", groups, series)
}

var htmlPage = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}}</title>
<style>
body{font-family:system-ui,sans-serif;margin:2em;max-width:72em}
table{border-collapse:collapse;margin:1em 0}
th,td{border:1px solid #ccc;padding:.3em .6em;text-align:right}
th:first-child,td:first-child{text-align:left}
caption{font-weight:bold;text-align:left;padding:.4em 0}
.legend span{display:inline-block;margin-right:1em}
.sw{display:inline-block;width:.9em;height:.9em;margin-right:.3em;vertical-align:middle}
</style></head><body>
<h1>{{.Title}}</h1>
{{range .Charts}}<figure>{{.SVG}}<figcaption class="legend">{{range .Legend}}<span><i class="sw" style="background:{{.Color}}"></i>{{.Name}}</span>{{end}}</figcaption></figure>{{end}}
{{range .Tables}}<table><caption>{{.Title}}</caption>
<tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>{{end}}
</table>{{range .Notes}}<p>{{.}}</p>{{end}}{{end}}
</body></html>
`))

// Chart is an SVG chart with its legend, for WriteHTML.
type Chart struct {
	SVG    []byte
	Series []string
}

// WriteHTML writes a self-contained HTML page: charts (inline SVG) and tables.
func WriteHTML(w io.Writer, title string, charts []Chart, tables []Table) error {
	type legend struct{ Name, Color string }
	type chartView struct {
		SVG    template.HTML
		Legend []legend
	}
	var cv []chartView
	for _, c := range charts {
		v := chartView{SVG: template.HTML(c.SVG)} // rendered by go-chart from numbers only
		for i, s := range c.Series {
			col := palette[i%len(palette)]
			v.Legend = append(v.Legend, legend{Name: s, Color: fmt.Sprintf("#%02x%02x%02x", col.R, col.G, col.B)})
		}
		cv = append(cv, v)
	}
	return htmlPage.Execute(w, map[string]any{"Title": title, "Charts": cv, "Tables": tables})
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
