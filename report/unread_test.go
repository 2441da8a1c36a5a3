package report

import (
	"testing"

	"github.com/polynfi/polynfi/runrecord"
)

// Every unit of a dataset row that could not be read or cannot run counts
// in one language and one task category group, so that each breakdown
// adds up to the headline's denominator: in the group the row gives when
// it could be read, in GroupUnknown otherwise, and in a run written
// before the manifest named such rows (the count only), in GroupUnknown.
// Two models: each row counts once per model, in each model's section.
func TestUnreadRowsCountInTheirGroups(t *testing.T) {
	t.Parallel()
	units := func(models ...string) []runrecord.ManifestUnit {
		var us []runrecord.ManifestUnit
		for _, m := range models {
			// A unit of another instance: a-1 has no prediction (missing,
			// in the denominator), the model a (model, run) pair.
			us = append(us, runrecord.ManifestUnit{Key: runrecord.Key{InstanceID: "z-9", Model: m}})
		}
		return us
	}
	base := runrecord.Manifest{Kind: runrecord.KindHarness, Complete: true,
		Instances: []runrecord.ManifestInstance{{InstanceID: "a-1", Language: "Python", TaskCategory: "Bug Fix"}}}
	named := base
	named.UnreadableRows, named.NotRunnable = 2, 1
	named.UnreadRows = []runrecord.DatasetRow{
		{Kind: runrecord.RowUnreadable, Row: 2, InstanceID: "a-2", Language: "Java", TaskCategory: "Feature", Reason: "d.csv: row 2 [a-2]: field F2P: bad"},
		{Kind: runrecord.RowUnreadable, Row: 3, LanguageUnknown: true, TaskCategoryUnknown: true, Reason: "d.csv: row 3: has 3 fields"},
		{Kind: runrecord.RowNotRunnable, Row: 4, InstanceID: "a-4", Language: "Python", TaskCategory: "Feature", Reason: "cannot run: no test_command"},
	}
	legacy := base
	legacy.UnreadableRows = 2
	for _, c := range []struct {
		name    string
		m       runrecord.Manifest
		models  []string
		total   int
		langs   map[string][2]int // name -> total, unreadable (per model)
		unknown int
	}{
		{"named rows", named, []string{"m"}, 4, map[string][2]int{"Python": {2, 1}, "Java": {1, 1}, GroupUnknown: {1, 1}}, 1},
		{"legacy count", legacy, []string{"m"}, 3, map[string][2]int{"Python": {1, 0}, GroupUnknown: {2, 2}}, 2},
		{"two models", named, []string{"m1", "m2"}, 4, map[string][2]int{"Python": {2, 1}, "Java": {1, 1}, GroupUnknown: {1, 1}}, 1},
	} {
		m := c.m
		m.Units = units(c.models...)
		r := BuildHarness(HarnessInput{Manifest: &m})
		reps := []*Harness{r}
		if len(c.models) > 1 {
			reps = nil
			for _, mr := range r.Polynfi.Models {
				reps = append(reps, mr.Report)
			}
			if len(reps) != len(c.models) {
				t.Fatalf("%s: %d model sections", c.name, len(reps))
			}
		}
		for _, rep := range reps {
			x := &rep.Polynfi
			if got := x.Modes[x.NativeMode].Total; got != c.total {
				t.Errorf("%s: headline denominator %d, want %d", c.name, got, c.total)
			}
			for name, gs := range map[string][]*Group{"language": x.ByLanguage, "task category": x.ByCategory} {
				sum := 0
				for _, g := range gs {
					sum += g.Total
				}
				if sum != c.total {
					t.Errorf("%s: %s totals add up to %d, want the headline's %d", c.name, name, sum, c.total)
				}
			}
			got := map[string][2]int{}
			for _, g := range x.ByLanguage {
				got[g.Name] = [2]int{g.Total, g.Unreadable}
			}
			for name, want := range c.langs {
				if got[name] != want {
					t.Errorf("%s: language %s total/unreadable %v, want %v (all: %v)", c.name, name, got[name], want, got)
				}
			}
		}
	}
}
