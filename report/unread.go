package report

import (
	"fmt"

	"github.com/polynfi/polynfi/retrieval"
	"github.com/polynfi/polynfi/runrecord"
)

// GroupUnknown names the language or task category group of the dataset
// rows that could not be read far enough to give it: such a row still
// counts in a group, this one, so that every breakdown adds up to the
// headline's denominator.
const GroupUnknown = "(unknown)"

// unreadRows returns the dataset rows of m that were not evaluated
// because they could not be read or cannot run, one entry per row: the
// manifest's UnreadRows, and for a run written before it named them, one
// entry of unknown language and task category per counted row.
func unreadRows(m *runrecord.Manifest) []runrecord.DatasetRow {
	var out []runrecord.DatasetRow
	n := map[string]int{}
	for _, r := range m.UnreadRows {
		if r.Kind == runrecord.RowUnreadable || r.Kind == runrecord.RowNotRunnable {
			out = append(out, r)
			n[r.Kind]++
		}
	}
	for _, k := range []struct {
		kind string
		want int
	}{{runrecord.RowUnreadable, m.UnreadableRows}, {runrecord.RowNotRunnable, m.NotRunnable}} {
		kind := k.kind
		for i := n[kind]; i < k.want; i++ {
			out = append(out, runrecord.DatasetRow{Kind: kind, LanguageUnknown: true, TaskCategoryUnknown: true,
				Reason: "not named: the run was written before polynfi recorded each such row"})
		}
	}
	return out
}

// unreadGroups are the language and task category group names of an
// unread row (GroupUnknown when the field could not be read, NoGroup when
// the dataset has none).
func unreadGroups(r runrecord.DatasetRow) (lang, cat string) {
	name := func(v string, unknown bool) string {
		switch {
		case unknown:
			return GroupUnknown
		case v == "":
			return NoGroup
		}
		return v
	}
	return name(r.Language, r.LanguageUnknown), name(r.TaskCategory, r.TaskCategoryUnknown)
}

// pairsOf is the number of (model, run) pairs of m's units, at least 1:
// every pair has a unit of each dataset row.
func pairsOf(m *runrecord.Manifest) int {
	type pr struct {
		model string
		run   int
	}
	seen := map[pr]bool{}
	for _, u := range m.Units {
		seen[pr{u.Model, u.Run}] = true
	}
	return max(1, len(seen))
}

// unreadCounts counts the units of rows (each row once per pair) overall
// ("all") and per language and task category group name.
func unreadCounts(rows []runrecord.DatasetRow, pairs int) (all int, byLang, byCat map[string]int) {
	byLang, byCat = map[string]int{}, map[string]int{}
	for _, r := range rows {
		l, c := unreadGroups(r)
		byLang[l] += pairs
		byCat[c] += pairs
		all += pairs
	}
	return all, byLang, byCat
}

// UnreadColumn is the header of the column that counts, per group, the
// units of dataset rows that could not be read or cannot run.
const UnreadColumn = "unreadable rows"

// withUnreadColumn appends UnreadColumn to the retrieval tables rt (by
// language, task category, complexity class; each opening with "all"):
// the units of unread rows are in no retrieval mean (there is no
// reference change to score against) and are counted beside them, so that
// n, the not-evaluated units and this column add up to the units of the
// run. Every group of byLang and byCat must have its row already (see
// withUnreadGroups). The complexity table gets a note instead: such a row
// has no reference complexity class.
func withUnreadColumn(rt []Table, all int, byLang, byCat map[string]int) {
	if all == 0 {
		return
	}
	for i, counts := range []map[string]int{byLang, byCat} {
		if i >= len(rt) {
			return
		}
		t := &rt[i]
		t.Header = append(t.Header, UnreadColumn)
		for j := range t.Rows {
			n := counts[t.Rows[j][0]]
			if j == 0 {
				n = all // the row "all"
			}
			t.Rows[j] = append(t.Rows[j], fmt.Sprint(n))
		}
		t.Notes = append(t.Notes, fmt.Sprintf("%s: units of dataset rows that could not be read or cannot run (%d in all, each row once per model and run); "+
			"they are in no mean (no reference change to score against) and count as unresolved in the pass rates; %s groups the rows whose field could not be read.",
			UnreadColumn, all, GroupUnknown))
	}
	if len(rt) > 2 {
		rt[2].Notes = append(rt[2].Notes, fmt.Sprintf("%d units of dataset rows that could not be read or cannot run have no reference complexity class: they are in no row of this table.", all))
	}
}

// withUnreadGroups adds to s an empty group (n 0) for every language and
// task category of byLang and byCat it lacks, sorted by name.
func withUnreadGroups(s *retrieval.Summary, byLang, byCat map[string]int) {
	add := func(gs []retrieval.Group, counts map[string]int) []retrieval.Group {
		var extra []*Group
		for name := range counts {
			extra = append(extra, &Group{Name: name})
		}
		return withEmptyGroups(gs, extra, true)
	}
	s.ByLanguage, s.ByTaskCategory = add(s.ByLanguage, byLang), add(s.ByTaskCategory, byCat)
}
