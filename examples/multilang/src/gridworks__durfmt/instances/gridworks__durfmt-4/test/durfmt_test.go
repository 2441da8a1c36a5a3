package durfmt

import (
	"testing"
	"time"
)

func TestParseUnits(t *testing.T) {
	cases := map[string]time.Duration{
		"1d":       Day,
		"2h":       2 * time.Hour,
		"90m":      90 * time.Minute,
		"1h30m15s": time.Hour + 30*time.Minute + 15*time.Second,
		"1d2h":     26 * time.Hour,
		"-3m":      -3 * time.Minute,
	}
	for in, want := range cases {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
}

func TestParseRejects(t *testing.T) {
	for _, in := range []string{"", "-", "5", "h", "1x", "1m2h", "1h1h", "1h 2m"} {
		if d, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %v, want an error", in, d)
		}
	}
}

func TestFormatLargestUnitsFirst(t *testing.T) {
	cases := map[time.Duration]string{
		26*time.Hour + 30*time.Minute: "1d2h30m",
		90 * time.Second:              "1m30s",
		Day + 5*time.Second:           "1d5s",
		1500 * time.Millisecond:       "1s",
	}
	for in, want := range cases {
		if got := Format(in); got != want {
			t.Errorf("Format(%v) = %q, want %q", in, got, want)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	for _, s := range []string{"1d", "3h4m", "2d0h1s", "59s"} {
		d, err := Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Parse(Format(d))
		if err != nil || back != d {
			t.Errorf("Parse(Format(%v)) = %v, %v", d, back, err)
		}
	}
}

func TestFormatZero(t *testing.T) {
	if got := Format(0); got != "0s" {
		t.Errorf("Format(0) = %q, want \"0s\"", got)
	}
	if got := Format(300 * time.Millisecond); got != "0s" {
		t.Errorf("Format(300ms) = %q, want \"0s\"", got)
	}
}

func TestFormatNegative(t *testing.T) {
	cases := map[time.Duration]string{
		-90 * time.Second: "-1m30s",
		-Day:              "-1d",
	}
	for in, want := range cases {
		if got := Format(in); got != want {
			t.Errorf("Format(%v) = %q, want %q", in, got, want)
		}
		if back, err := Parse(Format(in)); err != nil || back != in {
			t.Errorf("Parse(Format(%v)) = %v, %v", in, back, err)
		}
	}
}
