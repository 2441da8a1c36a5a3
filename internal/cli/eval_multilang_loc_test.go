package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEvalMultilangLocalization: `polynfi eval --metrics-only` on the
// bundled multi-language sample (examples/multilang, its wrong predictions)
// reports node-level localization for Go, Rust, C, C++, PHP and Ruby: the
// summary's "Retrieval by language" table has a row per language, and
// metrics.json's node means have every instance in their denominators,
// with the recall the partial wrong patches give (isbnkit-2: 2/3 of the
// Ruby gold nodes, inikit-14: 1/3 of the C++ ones; see retrieval's
// TestMultilangNodeMetrics).
func TestEvalMultilangLocalization(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "examples", "multilang")
	out := t.TempDir()
	stdout, stderr, code := runCLI(t, "eval", "--dataset", filepath.Join(dir, "dataset.csv"),
		"--predictions", filepath.Join(dir, "predictions-wrong.jsonl"), "--metrics-only", "--out", out)
	if code != ExitOK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "Retrieval by language") {
		t.Errorf("summary lacks the retrieval table:\n%s", stdout)
	}
	b, err := os.ReadFile(filepath.Join(out, "metrics.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Summary struct {
			ByLanguage []struct {
				Name string `json:"name"`
				Node struct {
					N         int     `json:"n"`
					Precision float64 `json:"precision"`
					Recall    float64 `json:"recall"`
				} `json:"node"`
			} `json:"by_language"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"Go": 1, "Rust": 1, "C": 1, "C++": (1.0/3 + 1) / 2, "PHP": 1, "Ruby": (2.0/3 + 1) / 2}
	got := map[string]bool{}
	for _, g := range m.Summary.ByLanguage {
		r, ok := want[g.Name]
		if !ok {
			t.Errorf("unexpected language %q", g.Name)
			continue
		}
		got[g.Name] = true
		if g.Node.N != 2 || g.Node.Precision != 1 || math.Abs(g.Node.Recall-r) > 1e-9 {
			t.Errorf("%s node means: n %d, precision %v, recall %v; want n 2, precision 1, recall %v", g.Name, g.Node.N, g.Node.Precision, g.Node.Recall, r)
		}
		var row string
		for _, l := range strings.Split(stdout, "\n") {
			if strings.HasPrefix(l, g.Name+" ") {
				row = l
			}
		}
		if row == "" {
			t.Errorf("no %s row in the summary's retrieval table", g.Name)
		}
	}
	if len(got) != len(want) {
		t.Errorf("languages reported: %v, want %v", got, want)
	}
}
