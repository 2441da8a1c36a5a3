package mine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/nfi"
)

// Decision is the review outcome of one candidate: accepted or not, and the
// aspect the reviewers assigned ("" to take the most improved one).
type Decision struct {
	Accept bool
	Aspect string // aspect code or ""
}

// BuildOptions configures BuildTasks.
type BuildOptions struct {
	// TestCommand is written into every task (mining cannot know a
	// repository's test command; the reviewer checks it with the draft).
	TestCommand string
}

// BuildReport counts what BuildTasks did.
type BuildReport struct {
	Candidates int            `json:"candidates"`
	Accepted   int            `json:"accepted"`
	Rejected   int            `json:"rejected"`
	Unlabelled int            `json:"unlabelled"` // candidates with no decision
	Tasks      int            `json:"tasks"`
	Single     int            `json:"single"`
	Multi      int            `json:"multi"`
	PerAspect  map[string]int `json:"per_aspect"`
}

// BuildTasks turns accepted candidates into draft NFI tasks (spec §1.2):
// accepted pairs of the same merged change and aspect form one task, single-
// or multi-file by their number, in candidate order. The aspect is the
// reviewers' or, when they gave none, the one with the largest I_p (ties in
// the order DOC, ERR, LIB, STY, LOG). Instance ids are
// owner__name-<PR or commit[:12]>-<aspect>. Descriptions are left to a
// person: dataset.DescriptionPlaceholder with status draft. A decision for
// an id that is not a candidate, or an accepted candidate without any
// improved aspect and no aspect from the reviewers, is an error.
func BuildTasks(cands []Candidate, decisions map[string]Decision, opts BuildOptions) ([]dataset.NFITask, BuildReport, error) {
	rep := BuildReport{Candidates: len(cands), PerAspect: map[string]int{}}
	known := map[string]bool{}
	for _, c := range cands {
		known[c.ID] = true
	}
	var unknown []string
	for id := range decisions {
		if !known[id] {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, rep, fmt.Errorf("%d labelled ids are not among the candidates: %s", len(unknown), strings.Join(first(unknown, 5), ", "))
	}
	type key struct{ repo, commit, aspect string }
	groups := map[key][]Candidate{}
	var order []key
	for _, c := range cands {
		d, ok := decisions[c.ID]
		switch {
		case !ok:
			rep.Unlabelled++
			continue
		case !d.Accept:
			rep.Rejected++
			continue
		}
		rep.Accepted++
		aspect := d.Aspect
		if aspect == "" {
			a, ok := bestAspect(c.Improvement)
			if !ok {
				return nil, rep, fmt.Errorf("candidate %s: accepted without an aspect, and no aspect improved", c.ID)
			}
			aspect = a.Code()
		} else if a, err := nfi.ParseAspect(aspect); err != nil {
			return nil, rep, fmt.Errorf("candidate %s: %w", c.ID, err)
		} else {
			aspect = a.Code()
		}
		k := key{c.Repo, c.Commit, aspect}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], c)
	}
	var tasks []dataset.NFITask
	ids := map[string]bool{}
	for _, k := range order {
		g := groups[k]
		c0 := g[0]
		asp, _ := nfi.ParseAspect(k.aspect)
		ref := short(c0.Commit)
		if c0.PRNumber > 0 {
			ref = fmt.Sprint(c0.PRNumber)
		}
		id := fmt.Sprintf("%s-%s-%s", strings.ReplaceAll(c0.Repo, "/", "__"), ref, strings.ToLower(k.aspect))
		for n := 2; ids[id]; n++ {
			id = fmt.Sprintf("%s-%s-%s-%d", strings.ReplaceAll(c0.Repo, "/", "__"), ref, strings.ToLower(k.aspect), n)
		}
		ids[id] = true
		t := dataset.NFITask{
			InstanceID:        id,
			Repo:              c0.Repo,
			Description:       dataset.DescriptionPlaceholder,
			DescriptionStatus: dataset.DescriptionDraft,
			Aspect:            asp,
			Scope:             "single",
			TestCommand:       opts.TestCommand,
			Environment:       &dataset.NFIEnvironment{Repo: c0.Repo, BaseCommit: c0.Parent},
			BaseCommit:        c0.Parent,
			CreatedAt:         c0.Date,
			Commit:            c0.Commit,
			PRNumber:          c0.PRNumber,
			Subject:           c0.Subject,
		}
		var before, after []nfi.FileScore
		for _, c := range g {
			t.Files = append(t.Files, dataset.NFIFile{Path: c.File, Before: c.Before, After: c.After})
			t.Candidates = append(t.Candidates, c.ID)
			before = append(before, nfi.FileScore{Path: c.File, Valid: true, Scores: c.ScoresBefore})
			after = append(after, nfi.FileScore{Path: c.File, Valid: true, Scores: c.ScoresAfter})
		}
		if len(g) > 1 {
			t.Scope = "multi"
			rep.Multi++
		} else {
			rep.Single++
		}
		d := nfi.Compare(before, after)
		t.Improvement = map[string]float64{}
		for _, a := range nfi.Aspects {
			if v, ok := d.Improvement.Get(a); ok {
				t.Improvement[a.Code()] = v
			}
		}
		rep.PerAspect[k.aspect]++
		tasks = append(tasks, t)
	}
	rep.Tasks = len(tasks)
	return tasks, rep, nil
}

// bestAspect returns the aspect with the largest positive I_p.
func bestAspect(im nfi.Improvement) (nfi.Aspect, bool) {
	best, bv, ok := nfi.Aspect(0), 0.0, false
	for _, a := range nfi.Aspects {
		if v, has := im.Get(a); has && v > 1e-12 && v > bv {
			best, bv, ok = a, v, true
		}
	}
	return best, ok
}

func first(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], fmt.Sprintf("... (%d more)", len(s)-n))
	}
	return s
}
