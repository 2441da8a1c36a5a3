package report

import "fmt"

// groupClusterIntervals sets the ClusterCI of every language, category
// and complexity group of x: the 95% cluster bootstrap interval of the
// group's native-mode resolved rate over the units its Total counts
// (members: unit id -> the groups counting it), each unit 1 when resolved
// and 0 otherwise, clustered by instance: the interval the headline's
// clustered line gives for the whole run, per group. Units a group's
// Total counts without a unit result (dataset rows that could not be read
// or run, pairs of them per row) count 0, each row its own cluster, as in
// the headline.
func groupClusterIntervals(x *Extras, members map[string][]*Group, pairs int) {
	resolved := map[string]bool{}
	for _, id := range x.Modes[x.NativeMode].ResolvedIDs {
		resolved[id] = true
	}
	xs, cl := map[*Group][]float64{}, map[*Group][]string{}
	for _, u := range x.UnitResults {
		for _, g := range members[u.ID] {
			xs[g], cl[g] = append(xs[g], b01(resolved[u.ID])), append(cl[g], u.InstanceID)
		}
	}
	for _, gs := range [][]*Group{x.ByLanguage, x.ByCategory, x.ByComplexity} {
		for _, g := range gs {
			v, c := xs[g], cl[g]
			for i := 0; len(v) < g.Total; i++ {
				v, c = append(v, 0), append(c, fmt.Sprintf("\x00unread-%d", i/max(1, pairs)))
			}
			ci := ClusterBootstrapMean(v, c)
			g.ClusterCI = &ci
		}
	}
}
