package report

import (
	"regexp"
	"strconv"
	"testing"
)

// "a % chart's y-axis stops at 80 in a case (a % axis should go to 100)":
// a rate chart's value axis spans its whole range, 0–100 for "%" and 0–1
// for "0–1", whatever the largest bar; other units fit their values.
func TestRateAxisSpansWholeRange(t *testing.T) {
	hiOf := func(c BarChart) float64 {
		m := regexp.MustCompile(`data-hi="([^"]+)"`).FindSubmatch(c.SVG())
		if m == nil {
			t.Fatal("no data-hi")
		}
		v, _ := strconv.ParseFloat(string(m[1]), 64)
		return v
	}
	bar := func(v, lo, hi float64) Bar {
		return Bar{Value: v, OK: true, CI: Interval{Lo: lo, Hi: hi, OK: true}, Text: strconv.FormatFloat(v, 'f', 1, 64)}
	}
	for _, tc := range []struct {
		unit  string
		bars  []Bar
		want  float64
		exact bool
	}{
		{"%", []Bar{bar(75, 40, 78)}, 100, true},
		{"%", []Bar{bar(12.5, 2.2, 47.1)}, 100, true},
		{"0–1", []Bar{bar(0.5, 0.3, 0.7)}, 1, true},
		{"pp", []Bar{bar(7.5, 1, 12)}, 15, false},
	} {
		c := BarChart{ID: "c", Title: "t", Unit: tc.unit, Groups: []string{"g"}, Series: []BarSeries{{Name: "s", Bars: tc.bars}}}
		if got := hiOf(c); (tc.exact && got != tc.want) || (!tc.exact && got >= 100) {
			t.Errorf("unit %s, bars %+v: axis ends at %g, want %g", tc.unit, tc.bars, got, tc.want)
		}
	}
}
