// Package durfmt parses and formats durations written with the units
// d (24 hours), h, m and s, largest first: "2d3h", "90m", "1h30m15s".
package durfmt

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Day is 24 hours.
const Day = 24 * time.Hour

var units = []struct {
	suffix byte
	size   time.Duration
}{{'d', Day}, {'h', time.Hour}, {'m', time.Minute}, {'s', time.Second}}

// Parse reads a duration such as "1d2h30m". Units must appear at most once
// and from largest to smallest; a leading '-' negates the whole duration.
func Parse(s string) (time.Duration, error) {
	in := s
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	if s == "" {
		return 0, fmt.Errorf("durfmt: empty duration %q", in)
	}
	var total time.Duration
	next := 0
	for s != "" {
		i := 0
		for i < len(s) && (s[i] >= '0' && s[i] <= '9') {
			i++
		}
		if i == 0 || i == len(s) {
			return 0, fmt.Errorf("durfmt: bad duration %q", in)
		}
		n, err := strconv.ParseInt(s[:i], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("durfmt: bad number in %q: %v", in, err)
		}
		u := -1
		for k := next; k < len(units); k++ {
			if units[k].suffix == s[i] {
				u = k
				break
			}
		}
		if u < 0 {
			return 0, fmt.Errorf("durfmt: unknown or misplaced unit %q in %q", s[i], in)
		}
		total += time.Duration(n) * units[u].size
		next = u + 1
		s = s[i+1:]
	}
	if neg {
		total = -total
	}
	return total, nil
}

// Format writes d with the largest units first, leaving out zero units and
// anything below a second: 26h30m → "1d2h30m".
func Format(d time.Duration) string {
	var b strings.Builder
	for _, u := range units {
		if n := d / u.size; n > 0 {
			fmt.Fprintf(&b, "%d%c", n, u.suffix)
			d -= n * u.size
		}
	}
	return b.String()
}
