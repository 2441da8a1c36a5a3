package retrieval

import "sort"

// Mean is the mean of per-instance Scores over N instances; all fields are
// 0 when N is 0 (a report should print "–" then, not 0).
type Mean struct {
	N         int     `json:"n"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
}

func (m *Mean) add(s Scores) {
	m.N++
	m.Precision += s.Precision
	m.Recall += s.Recall
	m.F1 += s.F1
}

func (m *Mean) finish() {
	if m.N == 0 {
		return
	}
	n := float64(m.N)
	m.Precision /= n
	m.Recall /= n
	m.F1 /= n
}

// Group is the localization summary of one group of instances.
// Instances is the group's denominator: every instance of the group in the
// evaluated set. File.N equals Instances (empty and failed predictions
// count 0 and stay in); Node.N counts the instances with node scores
// (instances without reference nodes or whose reference failed are left
// out, as SWE-PolyBench drops None and -1).
type Group struct {
	Name      string `json:"name"`
	Instances int    `json:"instances"`
	File      Mean   `json:"file"`
	Node      Mean   `json:"node"`
}

// Summary is the localization report: overall and by language, by task
// category and by complexity class of the reference change. Groups are
// sorted by name, complexity groups in ComplexityOrder (a SingleFunc
// instance also counts in FuncOnly, SingleClass in ClassOnly; instances
// without a class are in none of them).
type Summary struct {
	Overall        Group   `json:"overall"`
	ByLanguage     []Group `json:"by_language"`
	ByTaskCategory []Group `json:"by_task_category"`
	ByComplexity   []Group `json:"by_complexity"`
}

// Summarize computes macro means of file and node scores.
//
// Source: SWE-PolyBench scoring.py _get_retrieval_metrics_for_agg and
// _print_retrieval_metrics (means after dropping None and negative node
// scores); polynfi spec evaluation.md §4.4.
func Summarize(ms []InstanceMetrics) Summary {
	overall := &Group{Name: "overall"}
	byLang := map[string]*Group{}
	byCat := map[string]*Group{}
	byCx := map[Complexity]*Group{}
	get := func(m map[string]*Group, k string) *Group {
		g, ok := m[k]
		if !ok {
			g = &Group{Name: k}
			m[k] = g
		}
		return g
	}
	for _, m := range ms {
		groups := []*Group{overall, get(byLang, m.Language), get(byCat, m.TaskCategory)}
		for _, c := range m.Complexity.Classes() {
			g, ok := byCx[c]
			if !ok {
				g = &Group{Name: string(c)}
				byCx[c] = g
			}
			groups = append(groups, g)
		}
		for _, g := range groups {
			g.Instances++
			g.File.add(m.File)
			if m.Node != nil {
				g.Node.add(*m.Node)
			}
		}
	}
	finish := func(m map[string]*Group) []Group {
		out := make([]Group, 0, len(m))
		for _, g := range m {
			g.File.finish()
			g.Node.finish()
			out = append(out, *g)
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
		return out
	}
	s := Summary{ByLanguage: finish(byLang), ByTaskCategory: finish(byCat)}
	overall.File.finish()
	overall.Node.finish()
	s.Overall = *overall
	for _, c := range ComplexityOrder {
		if g, ok := byCx[c]; ok {
			g.File.finish()
			g.Node.finish()
			s.ByComplexity = append(s.ByComplexity, *g)
		}
	}
	return s
}
