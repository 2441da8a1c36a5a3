package catalog

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// oracleSampleSize is how many standard-library files the oracle tests read.
const oracleSampleSize = 600

// minAgreement is the per-rule share of files on which polynfi's verdict must
// equal "Ruff reports no diagnostic for the rule's codes" (issue #2).
const minAgreement = 0.98

type ruffDiag struct {
	Code     *string `json:"code"`
	Filename string  `json:"filename"`
	Location struct {
		Row    int `json:"row"`
		Column int `json:"column"`
	} `json:"location"`
	Message string `json:"message"`
}

// requireTool returns the tool's path, skipping the test when it is missing
// outside CI and failing it in CI (where .ci/run installs it).
func requireTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not installed; .ci/run must pip install it", name)
		}
		t.Skipf("%s is not installed (pip install %s)", name, name)
	}
	return p
}

// runRuff runs ruff on files with the given codes and extra arguments and
// returns file → set of codes reported. Files ruff cannot parse are in broken.
func runRuff(t *testing.T, ruff string, files, codes, extra []string) (found map[string]map[string]int, broken map[string]bool) {
	t.Helper()
	args := append([]string{"check", "--isolated", "--no-cache", "--no-fix", "--exit-zero", "--ignore-noqa", "--output-format", "json",
		"--select", strings.Join(codes, ",")}, extra...)
	args = append(args, files...)
	// --ignore-noqa: polynfi has no suppression comments, so Ruff must not honour
	// them either; invalid-syntax (Ruff ≥ 0.12) and E999 mark files Ruff cannot parse.
	cmd := exec.Command(ruff, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ruff %v: %v\n%s", codes, err, stderr.String())
	}
	var diags []ruffDiag
	if err := json.Unmarshal(out, &diags); err != nil {
		t.Fatalf("ruff json: %v", err)
	}
	found, broken = map[string]map[string]int{}, map[string]bool{}
	for _, d := range diags {
		f, _ := filepath.Abs(d.Filename)
		if d.Code == nil || *d.Code == "E999" || *d.Code == "invalid-syntax" {
			broken[f] = true
			continue
		}
		if found[f] == nil {
			found[f] = map[string]int{}
		}
		found[f][*d.Code] = d.Location.Row
	}
	return found, broken
}

// TestRuffOracle checks every rule marked Oracle.Exact against Ruff on a
// sample of the standard library: per file, the rule passes exactly when Ruff
// reports none of the rule's codes, on at least 98% of the files.
func TestRuffOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("oracle comparison skipped in -short mode")
	}
	var exact []*nfi.Rule
	for _, r := range Polynfi92().Rules {
		if r.Oracle.Exact && len(r.Oracle.Ruff) > 0 {
			exact = append(exact, r)
		}
	}
	if len(exact) == 0 {
		t.Skip("no rule declares an exact Ruff oracle yet")
	}
	ruff := requireTool(t, "ruff")
	files := corpus.StdlibSample(t, oracleSampleSize)
	for i, f := range files {
		files[i], _ = filepath.Abs(f)
	}
	// Score every file once with all exact rules.
	eng, err := nfi.NewEngine(&nfi.Catalog{Version: "oracle", Rules: exact}, nfi.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	parser := syntax.NewParser()
	defer parser.Close()
	scores := map[string]nfi.FileScore{}
	for _, f := range files {
		scores[f] = eng.ScoreFile(parser, f)
	}
	// One ruff run per distinct argument list.
	groups := map[string][]*nfi.Rule{}
	for _, r := range exact {
		k := strings.Join(r.Oracle.RuffArgs, " ")
		groups[k] = append(groups[k], r)
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		rules := groups[k]
		var codes []string
		for _, r := range rules {
			codes = append(codes, r.Oracle.Ruff...)
		}
		found, broken := runRuff(t, ruff, files, codes, rules[0].Oracle.RuffArgs)
		for _, r := range rules {
			t.Run(r.ID, func(t *testing.T) {
				agree, total := 0, 0
				var mismatches []string
				for _, f := range files {
					fs := scores[f]
					if !fs.Valid || broken[f] {
						continue // neither tool scores a file it cannot parse
					}
					total++
					ruffFails := false
					line := 0
					for _, c := range r.Oracle.Ruff {
						if l, ok := found[f][c]; ok {
							ruffFails, line = true, l
						}
					}
					res, _ := fs.Rule(r.ID)
					if res.Passed != ruffFails {
						agree++
						continue
					}
					detail := "ruff passes"
					if ruffFails {
						detail = "ruff fails at line " + itoa(line)
					} else if len(res.Diagnostics) > 0 {
						detail += "; polynfi: " + res.Diagnostics[0].String()
					}
					mismatches = append(mismatches, f+": "+detail)
				}
				if total == 0 {
					t.Fatal("no file scored")
				}
				share := float64(agree) / float64(total)
				t.Logf("%s vs ruff %v: %d/%d files agree (%.2f%%)", r.ID, r.Oracle.Ruff, agree, total, 100*share)
				for i, m := range mismatches {
					if i == 10 {
						t.Logf("... %d more", len(mismatches)-10)
						break
					}
					t.Logf("mismatch: %s", m)
				}
				if share < minAgreement {
					t.Errorf("%s agrees with ruff %v on %.2f%% of files, want >= %.0f%%", r.ID, r.Oracle.Ruff, 100*share, 100*minAgreement)
				}
			})
		}
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}
