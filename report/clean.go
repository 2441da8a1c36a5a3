package report

import (
	"fmt"
	"io"
	"sort"

	"github.com/polynfi/polynfi/runrecord"
)

// AuditVerdict is what an audit of an agent run (package agent/audit)
// said of it.
type AuditVerdict int

// Audit verdicts.
const (
	AuditUnaudited AuditVerdict = iota // no run, or no trajectory that could be read
	AuditClean                         // audited, nothing found
	AuditFlagged                       // audited, at least one finding
)

// CleanRate is one model's resolved rate beside its "resolved, clean"
// rate: of Units evaluated units (harness records: instance × run),
// Resolved were resolved (native mode, Record.Resolved) and ResolvedClean
// were resolved by a run whose audit found nothing; ResolvedFlagged were
// resolved by a run with a finding, ResolvedUnaudited by a run that could
// not be audited (never counted clean). Resolved = ResolvedClean +
// ResolvedFlagged + ResolvedUnaudited.
type CleanRate struct {
	Model             string `json:"model_name_or_path"`
	Units             int    `json:"units"`
	Resolved          int    `json:"resolved"`
	ResolvedClean     int    `json:"resolved_clean"`
	ResolvedFlagged   int    `json:"resolved_flagged"`
	ResolvedUnaudited int    `json:"resolved_unaudited"`
	Flagged           int    `json:"flagged"` // units whose run had a finding, resolved or not
}

// ResolvedRate is Resolved / Units in [0, 1]; ok is false for no unit.
func (c CleanRate) ResolvedRate() (float64, bool) { return ratio(c.Resolved, c.Units) }

// CleanResolvedRate is ResolvedClean / Units in [0, 1]; ok is false for no unit.
func (c CleanRate) CleanResolvedRate() (float64, bool) { return ratio(c.ResolvedClean, c.Units) }

func ratio(n, d int) (float64, bool) {
	if d == 0 {
		return 0, false
	}
	return float64(n) / float64(d), true
}

// CleanRates computes each model's CleanRate from its harness records
// (records without a test verdict, StatusError, count as units, not
// resolved) and verdict, which says what the audit found for the run
// behind a record (its model, instance and run). Sorted by model.
func CleanRates(recs []*runrecord.Record, verdict func(model, instanceID string, run int) AuditVerdict) []CleanRate {
	by := map[string]*CleanRate{}
	for _, r := range recs {
		c, ok := by[r.Model]
		if !ok {
			c = &CleanRate{Model: r.Model}
			by[r.Model] = c
		}
		c.Units++
		v := verdict(r.Model, r.InstanceID, r.Run)
		if v == AuditFlagged {
			c.Flagged++
		}
		if !r.Resolved {
			continue
		}
		c.Resolved++
		switch v {
		case AuditClean:
			c.ResolvedClean++
		case AuditFlagged:
			c.ResolvedFlagged++
		default:
			c.ResolvedUnaudited++
		}
	}
	out := make([]CleanRate, 0, len(by))
	for _, c := range by {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Model < out[j].Model })
	return out
}

// RenderCleanRates writes the rates as a text table: model, units,
// resolved (count and %), resolved and clean (count and %), units whose
// run had a finding (resolved or not), resolved by a flagged run,
// resolved by an unaudited run.
func RenderCleanRates(w io.Writer, rows []CleanRate) {
	fmt.Fprintf(w, "%-24s %6s %16s %18s %8s %17s %19s\n", "model", "units", "resolved", "resolved, clean", "flagged", "resolved, flagged", "resolved, unaudited")
	pct := func(n int, c CleanRate) string {
		r, ok := ratio(n, c.Units)
		if !ok {
			return fmt.Sprintf("%d (-)", n)
		}
		return fmt.Sprintf("%d (%.1f%%)", n, 100*r)
	}
	for _, c := range rows {
		fmt.Fprintf(w, "%-24s %6d %16s %18s %8d %17d %19d\n", c.Model, c.Units, pct(c.Resolved, c), pct(c.ResolvedClean, c), c.Flagged, c.ResolvedFlagged, c.ResolvedUnaudited)
	}
}
