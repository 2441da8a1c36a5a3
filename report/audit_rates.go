package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/runrecord"
)

// AuditFile is the name of the agent-run audit report that
// `polynfi audit RUN` writes into RUN (package agent/audit's File).
const AuditFile = "audit.json"

// AuditRates are a harness run's resolved and "resolved, clean" rates per
// model, from the audit of the agent runs its predictions came from. File
// is the audit.json read (absolute path); Rates one CleanRate per model
// over the run's evaluated units (UnitResults that are not incomplete:
// the native mode's denominator; a unit without a prediction counts,
// unresolved); Tampered counts the units the harness found tampered
// (grading.StatusTampered), which are unresolved and so never clean.
type AuditRates struct {
	File     string      `json:"file"`
	Rates    []CleanRate `json:"rates"`
	Tampered int         `json:"tampered"`
}

// auditFileRun is the part of one run of agent/audit's Report (its JSON
// form, audit.json) that the rates need.
type auditFileRun struct {
	Agent      string `json:"model_name_or_path"`
	InstanceID string `json:"instance_id"`
	Run        int    `json:"run"`
	Audited    bool   `json:"audited"`
	Clean      bool   `json:"clean"`
}

// auditCandidates are where the audit of a run's agent runs may be:
// RUN/agent-runs (polynfi eval --agent) and the directory of each
// predictions file (polynfi run --out writes predictions.jsonl, and
// polynfi audit audit.json, there), in that order.
func auditCandidates(runDir, predictions string) []string {
	cands := []string{filepath.Join(runDir, "agent-runs", AuditFile)}
	for _, p := range strings.Split(predictions, ",") {
		if p != "" && p != "gold" {
			cands = append(cands, filepath.Join(filepath.Dir(p), AuditFile))
		}
	}
	return cands
}

// attachAudit sets rep.Polynfi.Audit (and each model section's, over its
// own units) from the first audit.json found
// among auditCandidates: nothing when there is none. An audit.json that
// cannot be read or decoded is named in the report's input errors and
// gives no rates (never an all-clean or all-flagged guess).
func attachAudit(rep *Harness, runDir string) {
	x := &rep.Polynfi
	for _, p := range auditCandidates(runDir, x.Predictions) {
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		verdict, err := readAuditVerdicts(p)
		if err != nil {
			x.InputErrors = append(x.InputErrors, fmt.Sprintf("agent-run audit %s could not be read (no resolved, clean rate): %v", p, err))
			return
		}
		x.Audit = auditRatesOf(rep, p, verdict)
		for _, m := range x.Models {
			if m.Report != nil {
				m.Report.Polynfi.Audit = auditRatesOf(m.Report, p, verdict)
			}
		}
		return
	}
}

// auditRatesOf computes rep's AuditRates over its UnitResults.
func auditRatesOf(rep *Harness, file string, verdict func(model, instanceID string, run int) AuditVerdict) *AuditRates {
	var recs []*runrecord.Record
	ar := &AuditRates{File: file}
	for _, u := range rep.Polynfi.UnitResults {
		if u.Outcome == "incomplete" {
			continue
		}
		if u.Status == grading.StatusTampered {
			ar.Tampered++
		}
		recs = append(recs, &runrecord.Record{Key: runrecord.Key{Model: u.Model, InstanceID: u.InstanceID, Run: u.Run}, Resolved: u.Outcome == "resolved"})
	}
	ar.Rates = CleanRates(recs, verdict)
	return ar
}

// readAuditVerdicts reads an audit.json (agent/audit's Report) into the
// verdict function CleanRates takes. Errors: unreadable file, bad JSON,
// no "runs" array.
func readAuditVerdicts(path string) (func(model, instanceID string, run int) AuditVerdict, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Runs *[]auditFileRun `json:"runs"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	if doc.Runs == nil {
		return nil, fmt.Errorf("no \"runs\" array: not the audit.json of polynfi audit")
	}
	type key struct {
		model, id string
		run       int
	}
	by := map[key]AuditVerdict{}
	for _, r := range *doc.Runs {
		v := AuditUnaudited
		switch {
		case r.Audited && r.Clean:
			v = AuditClean
		case r.Audited:
			v = AuditFlagged
		}
		by[key{r.Agent, r.InstanceID, r.Run}] = v
	}
	return func(model, id string, run int) AuditVerdict { return by[key{model, id, run}] }, nil
}

// auditLines are the headline's account of AuditRates: per model the
// resolved rate beside the resolved, clean rate, the units whose agent
// run had a finding, and the tampered count of the run apart.
func auditLines(a *AuditRates) []string {
	if a == nil {
		return nil
	}
	lines := []string{fmt.Sprintf("agent-run audit %s (resolved, clean: resolved by a run whose audit found nothing; an unaudited run is never clean); tampered units: %d", a.File, a.Tampered)}
	for _, c := range a.Rates {
		lines = append(lines, fmt.Sprintf("  %s: resolved %d/%d (%s), resolved, clean %d/%d (%s); runs with findings %d (resolved %d), resolved by unaudited runs %d",
			c.Model, c.Resolved, c.Units, percent(c.Resolved, c.Units), c.ResolvedClean, c.Units, percent(c.ResolvedClean, c.Units),
			c.Flagged, c.ResolvedFlagged, c.ResolvedUnaudited))
	}
	return lines
}
