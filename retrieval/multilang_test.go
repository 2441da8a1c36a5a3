package retrieval

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// multilangRow is a row of examples/multilang/dataset.csv.
type multilangRow struct{ id, repo, base, patch, lang string }

func readMultilang(t *testing.T) ([]multilangRow, map[string]string) {
	t.Helper()
	dir := filepath.Join("..", "examples", "multilang")
	f, err := os.Open(filepath.Join(dir, "dataset.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	var rows []multilangRow
	for _, r := range recs[1:] {
		rows = append(rows, multilangRow{r[col["instance_id"]], r[col["repo"]], r[col["base_commit"]], r[col["patch"]], r[col["language"]]})
	}
	wrong := map[string]string{}
	pf, err := os.Open(filepath.Join(dir, "predictions-wrong.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	sc := bufio.NewScanner(pf)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var p struct {
			ID    string `json:"instance_id"`
			Patch string `json:"model_patch"`
		}
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		wrong[p.ID] = p.Patch
	}
	return rows, wrong
}

// TestMultilangNodeMetrics: the gold and wrong patches of the bundled
// multi-language sample (Go, Rust, C, C++, PHP, Ruby), their base files read
// from the sample's git bundles: every gold patch has its reference nodes
// (written out below, checked by hand against the patches) and scores 1
// against itself; a wrong patch that changes only some of them scores its
// precision and recall.
var multilangGoldNodes = map[string][]string{
	"bookshelf__isbnkit-2": {"lib/isbnkit.rb->program->module:Isbnkit", "lib/isbnkit.rb->program->module:Isbnkit->method:isbn10_sum", "lib/isbnkit.rb->program->module:Isbnkit->method:valid?"},
	"bookshelf__isbnkit-4": {"lib/isbnkit.rb->program->module:Isbnkit", "lib/isbnkit.rb->program->module:Isbnkit->method:normalize", "lib/isbnkit.rb->program->module:Isbnkit->method:to_isbn13", "lib/isbnkit.rb->program->module:Isbnkit->method:valid?"},
	"gridworks__durfmt-4":  {"durfmt.go->source_file->function_declaration:Format"},
	"gridworks__durfmt-7":  {"durfmt.go->source_file->function_declaration:Parse"},
	"kvconf__inikit-14": {"src/ini.cpp->translation_unit->namespace_definition:inikit->function_definition:Ini::parse",
		"src/ini.cpp->translation_unit->namespace_definition:inikit->namespace_definition:<anonymous>",
		"src/ini.cpp->translation_unit->namespace_definition:inikit->namespace_definition:<anonymous>->function_definition:stripComment"},
	"kvconf__inikit-17": {"src/ini.cpp->translation_unit->namespace_definition:inikit->function_definition:Ini::get",
		"src/ini.cpp->translation_unit->namespace_definition:inikit->function_definition:Ini::parse",
		"src/ini.cpp->translation_unit->namespace_definition:inikit->namespace_definition:<anonymous>",
		"src/ini.cpp->translation_unit->namespace_definition:inikit->namespace_definition:<anonymous>->function_definition:lower"},
	"numerals__romanum-3":  {"src/lib.rs->source_file->function_item:from_roman"},
	"numerals__romanum-5":  {"src/lib.rs->source_file->function_item:from_roman"},
	"textlab__slugify-11":  {"src/slugify.c->translation_unit->function_definition:slugify"},
	"textlab__slugify-8":   {"src/slugify.c->translation_unit->function_definition:slugify"},
	"wordsmith__inflect-3": {"src/Inflector.php->program->class_declaration:Inflector->method_declaration:pluralize"},
	"wordsmith__inflect-6": {"src/Inflector.php->program->class_declaration:Inflector", "src/Inflector.php->program->class_declaration:Inflector->method_declaration:matchCase",
		"src/Inflector.php->program->class_declaration:Inflector->method_declaration:pluralize", "src/Inflector.php->program->class_declaration:Inflector->method_declaration:singularize"},
}

// multilangWrongNodes: the wrong patches that miss some gold nodes (the
// other wrong patches change the gold's nodes, wrongly): isbnkit-2's
// leaves the module's comment alone, inikit-14's does not add the
// anonymous namespace's stripComment.
var multilangWrongNodes = map[string]Scores{
	"bookshelf__isbnkit-2": {Precision: 1, Recall: 2.0 / 3, F1: 0.8},
	"kvconf__inikit-14":    {Precision: 1, Recall: 1.0 / 3, F1: 0.5},
}

func TestMultilangNodeMetrics(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	rows, wrong := readMultilang(t)
	if len(rows) != 12 {
		t.Fatalf("%d rows in examples/multilang/dataset.csv, want 12", len(rows))
	}
	clones := map[string]string{}
	for _, r := range rows {
		if clones[r.repo] != "" {
			continue
		}
		dir := filepath.Join(t.TempDir(), "repo")
		bundle, _ := filepath.Abs(filepath.Join("..", "examples", "multilang", "repos", strings.ReplaceAll(r.repo, "/", "__")+".bundle"))
		cmd := exec.Command("git", "clone", "-q", bundle, dir)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("clone %s: %v\n%s", bundle, err, out)
		}
		clones[r.repo] = dir
	}
	for _, r := range rows {
		for _, mode := range []Mode{Compatible, Extended} {
			src := NewGitSource(context.Background(), clones[r.repo], r.base)
			gold, err := Evaluate(Input{InstanceID: r.id, Language: r.lang, Reference: r.patch, Prediction: r.patch}, src, Options{Mode: mode, Nodes: true})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(multilangGoldNodes[r.id], gold.ReferenceNodes); d != "" {
				t.Errorf("%s %v: reference nodes (-want +got):\n%s", r.id, mode, d)
			}
			if gold.NodeStatus != NodeOK || gold.Node == nil || gold.Node.F1 != 1 || gold.File.F1 != 1 {
				t.Errorf("%s %v: gold against gold: status %s (%s), node %+v, file %+v", r.id, mode, gold.NodeStatus, gold.NodeError, gold.Node, gold.File)
			}
			if w, ok := wrong[r.id]; ok {
				m, err := Evaluate(Input{InstanceID: r.id, Language: r.lang, Reference: r.patch, Prediction: w}, src, Options{Mode: mode, Nodes: true})
				if err != nil {
					t.Fatal(err)
				}
				want, partial := multilangWrongNodes[r.id]
				if !partial {
					want = Scores{Precision: 1, Recall: 1, F1: 1}
				}
				if m.NodeStatus != NodeOK || m.Node == nil || !close3(*m.Node, want) {
					t.Errorf("%s %v wrong patch: status %s, node %+v, want %+v (predicted %v)", r.id, mode, m.NodeStatus, m.Node, want, m.PredictedNodes)
				}
			}
		}
	}
	for id := range wrong {
		if _, ok := multilangGoldNodes[id]; !ok {
			t.Errorf("prediction for %s, not in the dataset", id)
		}
	}
}

func close3(a, b Scores) bool {
	d := func(x, y float64) bool { return x-y < 1e-9 && y-x < 1e-9 }
	return d(a.Precision, b.Precision) && d(a.Recall, b.Recall) && d(a.F1, b.F1)
}
