package sample

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func tempFile(t testing.TB, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// population writes 100 JSONL records: Python 50, Java 30, JavaScript 20,
// each with a task category, over 9 repositories, plus one record of the
// rare repository "rare/one" (Java, Feature).
func population(t testing.TB) *Table {
	var b strings.Builder
	langs := []struct {
		name string
		n    int
	}{{"Python", 50}, {"Java", 30}, {"JavaScript", 20}}
	id := 0
	for _, l := range langs {
		for i := range l.n {
			cat := []string{"Bug Fix", "Feature"}[i%2]
			fmt.Fprintf(&b, `{"instance_id":"i%d","repo":"%s/r%d","language":%q,"task_category":%q,"n":%d}`+"\n", id, strings.ToLower(l.name), i%3, l.name, cat, id)
			id++
		}
	}
	b.WriteString(`{"instance_id":"rare","repo":"rare/one","language":"Java","task_category":"Feature","n":100}` + "\n")
	tb, err := Read(tempFile(t, "pop.jsonl", b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func ids(t *Table, r *Result) []string {
	var out []string
	for _, i := range r.Selected {
		v, _ := t.Records[i].Value("instance_id")
		out = append(out, v)
	}
	return out
}

func TestSampleReproducible(t *testing.T) {
	t.Parallel()
	tb := population(t)
	o := Options{Size: 20, Strata: []string{"language"}, Seed: 7, RepoField: "repo"}
	a, err := Sample(tb, o)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Sample(population(t), o)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(ids(tb, a), ids(tb, b)); d != "" {
		t.Errorf("same seed, different samples (-first +second):\n%s", d)
	}
	o.Seed = 8
	c, err := Sample(tb, o)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Equal(ids(tb, a), ids(tb, c)) {
		t.Error("seeds 7 and 8 gave the same sample")
	}
	// The rank depends on the record, not its position: reversed input
	// gives the same set.
	rev := &Table{Path: tb.Path, Format: tb.Format}
	for i := len(tb.Records) - 1; i >= 0; i-- {
		rev.Records = append(rev.Records, tb.Records[i])
	}
	o.Seed = 7
	d, err := Sample(rev, o)
	if err != nil {
		t.Fatal(err)
	}
	x, y := ids(tb, a), ids(rev, d)
	if !cmp.Equal(x, y, cmp.Transformer("set", func(s []string) map[string]bool {
		m := map[string]bool{}
		for _, v := range s {
			m[v] = true
		}
		return m
	})) {
		t.Errorf("reversed input changed the subset: %v vs %v", x, y)
	}
}

func TestSampleStrataAndCoverage(t *testing.T) {
	t.Parallel()
	tb := population(t)
	for seed := range uint64(25) {
		r, err := Sample(tb, Options{Size: 20, Strata: []string{"language"}, Seed: seed, RepoField: "repo"})
		if err != nil {
			t.Fatal(err)
		}
		// Targets 20·50/101 = 9.90, 20·31/101 = 6.14, 20·20/101 = 3.96:
		// floors 9, 6, 3 and the two seats left go to the remainders
		// 0.96 (JavaScript) and 0.90 (Python).
		got := map[string]int{}
		for _, s := range r.Strata {
			got[s.Key] = s.Achieved
		}
		if d := cmp.Diff(map[string]int{"Python": 10, "Java": 6, "JavaScript": 4}, got); d != "" {
			t.Fatalf("seed %d: per stratum (-want +got):\n%s", seed, d)
		}
		repos := map[string]bool{}
		for _, i := range r.Selected {
			v, _ := tb.Records[i].Value("repo")
			repos[v] = true
		}
		if len(repos) != 10 || !repos["rare/one"] || r.ReposCovered != 10 {
			t.Fatalf("seed %d: %d repositories covered (%v), want all 10", seed, len(repos), repos)
		}
	}
}

func TestSampleTwoFieldStrataAndProportions(t *testing.T) {
	t.Parallel()
	tb := population(t)
	r, err := Sample(tb, Options{Size: 12, Strata: []string{"language", "task_category"}, Seed: 1,
		Proportions: map[string]float64{"Python|Bug Fix": 1, "Java|Feature": 1, "JavaScript|Bug Fix": 1}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, s := range r.Strata {
		got[s.Key] = s.Achieved
	}
	want := map[string]int{"Python|Bug Fix": 4, "Python|Feature": 0, "Java|Bug Fix": 0, "Java|Feature": 4, "JavaScript|Bug Fix": 4, "JavaScript|Feature": 0}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("per stratum (-want +got):\n%s", d)
	}
}

// TestHamilton is worked by hand: strata A 5, B 3, C 2 records; size 4.
// Targets 2.0, 1.2, 0.8 → floors 2, 1, 0; the one seat left goes to the
// largest remainder, C (0.8).
func TestHamilton(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("id,s\n")
	for i, s := range []string{"A", "A", "A", "A", "A", "B", "B", "B", "C", "C"} {
		fmt.Fprintf(&b, "%d,%s\n", i, s)
	}
	tb, err := Read(tempFile(t, "h.csv", b.String()))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Sample(tb, Options{Size: 4, Strata: []string{"s"}, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	got := []int{r.Strata[0].Achieved, r.Strata[1].Achieved, r.Strata[2].Achieved}
	if !cmp.Equal(got, []int{2, 1, 1}) {
		t.Errorf("got %v, want [2 1 1]", got)
	}
	// Capacity: B is asked for 0.9·6 = 5.4 records but has 3; A takes the rest.
	r, err = Sample(tb, Options{Size: 6, Strata: []string{"s"}, Seed: 3, Proportions: map[string]float64{"A": 0.1, "B": 0.9}})
	if err != nil {
		t.Fatal(err)
	}
	if got := []int{r.Strata[0].Achieved, r.Strata[1].Achieved, r.Strata[2].Achieved}; !cmp.Equal(got, []int{3, 3, 0}) {
		t.Errorf("capped: got %v, want [3 3 0]", got)
	}
	// The CSV writes back with its header and the chosen rows in input order.
	var out bytes.Buffer
	if err := tb.Write(&out, r.Selected); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(out.String()), "\n"); len(lines) != 7 || lines[0] != "id,s" {
		t.Errorf("csv out: %q", out.String())
	}
}

func TestSampleErrors(t *testing.T) {
	t.Parallel()
	tb := population(t)
	tests := []struct {
		o    Options
		want string
	}{
		{Options{Size: 0}, "size 0: want 1..101"},
		{Options{Size: 500}, "size 500"},
		{Options{Size: 5, Strata: []string{"lang"}}, `pop.jsonl:1: field "lang": missing`},
		{Options{Size: 5, RepoField: "repo"}, "smaller than the number of repositories (10)"},
		{Options{Size: 20, Strata: []string{"language"}, Proportions: map[string]float64{"Go": 1}}, `"Go" is not a stratum`},
		{Options{Size: 60, Strata: []string{"language"}, Proportions: map[string]float64{"Java": 1}}, "only 31 records"},
	}
	for _, tt := range tests {
		if _, err := Sample(tb, tt.o); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: got %v, want an error containing %q", tt.o, err, tt.want)
		}
	}
	if _, err := Read(tempFile(t, "bad.jsonl", "{\"a\":1}\n[1]\n")); err == nil || !strings.Contains(err.Error(), "bad.jsonl:2:") {
		t.Errorf("bad JSONL: got %v", err)
	}
}

func TestJSONListRoundTrip(t *testing.T) {
	t.Parallel()
	tb, err := Read(tempFile(t, "l.json", `[{"repo":"a/b","x":1}, {"repo":"c/d","x":[1,2]}, {"repo":"a/b","x":null}]`))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := tb.Records[1].Value("x"); v != "[1,2]" {
		t.Errorf("value: got %q", v)
	}
	r, err := Sample(tb, Options{Size: 2, RepoField: "repo", Strata: []string{"x"}})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := tb.Write(&out, r.Selected); err != nil {
		t.Fatal(err)
	}
	back, err := Read(tempFile(t, "o.json", out.String()))
	if err != nil || len(back.Records) != 2 {
		t.Fatalf("reread: %v %d", err, len(back.Records))
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte("a,b\n1,2\n"), true)
	f.Add([]byte("{\"a\":1}\n"), false)
	f.Fuzz(func(t *testing.T, data []byte, isCSV bool) {
		tb := &Table{Path: "f"}
		var err error
		if isCSV {
			err = tb.readCSV(data)
		} else {
			err = tb.readJSONL(data)
		}
		if err != nil {
			return
		}
		var out bytes.Buffer
		idx := make([]int, len(tb.Records))
		for i := range idx {
			idx[i] = i
		}
		if isCSV {
			tb.Format = CSV
		}
		if err := tb.Write(&out, idx); err != nil {
			t.Fatal(err)
		}
	})
}

// TestSeedDecidesTies: two equally large strata and an odd size: the extra
// record must not always go to the alphabetically first stratum.
func TestSeedDecidesTies(t *testing.T) {
	var b strings.Builder
	for i := range 10 {
		cat := []string{"Bug Fix", "Feature"}[i%2]
		fmt.Fprintf(&b, `{"instance_id":"i%d","repo":"o/r","task_category":%q}`+"\n", i, cat)
	}
	tb, err := Read(tempFile(t, "pop.jsonl", b.String()))
	if err != nil {
		t.Fatal(err)
	}
	winners := map[string]int{}
	for seed := uint64(1); seed <= 20; seed++ {
		r, err := Sample(tb, Options{Size: 1, Strata: []string{"task_category"}, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		v, _ := tb.Records[r.Selected[0]].Value("task_category")
		winners[v]++
	}
	if winners["Bug Fix"] == 0 || winners["Feature"] == 0 {
		t.Errorf("over 20 seeds the tie always went one way: %v", winners)
	}
}
