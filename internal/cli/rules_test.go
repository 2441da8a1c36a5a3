package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/nfi/catalog"
	"github.com/polynfi/polynfi/nfi/driver"
)

var updateDocs = flag.Bool("update", false, "rewrite generated files (docs/rules.md)")

// TestRulesDocUpToDate fails when docs/rules.md differs from what
// `polynfi rules --format markdown` prints; `go test ./internal/cli -update` rewrites it.
func TestRulesDocUpToDate(t *testing.T) {
	var buf bytes.Buffer
	driver.RulesMarkdown(&buf, catalog.Polynfi92())
	const path = "../../docs/rules.md"
	if *updateDocs {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./internal/cli -update writes it)", err)
	}
	if !bytes.Equal(got, buf.Bytes()) {
		t.Fatal("docs/rules.md is stale: run go test ./internal/cli -run TestRulesDocUpToDate -update")
	}
}

// TestRulesJSTSDocUpToDate is TestRulesDocUpToDate for the JavaScript and
// TypeScript catalog's docs/rules-jsts.md.
func TestRulesJSTSDocUpToDate(t *testing.T) {
	var buf bytes.Buffer
	driver.RulesMarkdown(&buf, catalog.JavaScriptTypeScript())
	const path = "../../docs/rules-jsts.md"
	if *updateDocs {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./internal/cli -update writes it)", err)
	}
	if !bytes.Equal(got, buf.Bytes()) {
		t.Fatal("docs/rules-jsts.md is stale: run go test ./internal/cli -run TestRulesJSTSDocUpToDate -update")
	}
}

func run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	code = Main(context.Background(), args, &o, &e)
	return o.String(), e.String(), code
}

func TestRulesCommand(t *testing.T) {
	out, _, code := run(t, "rules", "--format", "json")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	var got struct {
		Catalog string `json:"catalog"`
		Rules   []struct {
			ID, Name, Aspect, Kind, Summary, Source string
			Threshold                               *float64
		} `json:"rules"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	def, _ := catalog.Get(catalog.Default)
	if got.Catalog != catalog.Default || len(got.Rules) != len(def.Rules) {
		t.Fatalf("catalog %q with %d rules", got.Catalog, len(got.Rules))
	}
	for _, r := range got.Rules {
		if r.ID == "" || r.Name == "" || r.Summary == "" || r.Source == "" || (r.Kind == "threshold") != (r.Threshold != nil) {
			t.Errorf("incomplete rule %+v", r)
		}
	}
	if len(got.Rules) > 0 {
		id := got.Rules[0].ID
		out, _, code = run(t, "rules", "explain", strings.ToLower(id))
		if code != ExitOK || !strings.Contains(out, id) || !strings.Contains(out, "Bad:") {
			t.Errorf("explain %s: exit %d\n%s", id, code, out)
		}
	}
	// an ESLint rule name explains the JavaScript/TypeScript rule that is it
	out, errOut, code := run(t, "rules", "explain", "@typescript-eslint/no-explicit-any")
	if code != ExitOK || !strings.Contains(out, "JS-LOG-P11") || !strings.Contains(errOut, "ESLint rule") {
		t.Errorf("explain no-explicit-any: exit %d\n%s%s", code, out, errOut)
	}
	if _, _, code := run(t, "rules", "explain", "NOPE-X01"); code != ExitUsage {
		t.Errorf("unknown rule: exit %d, want %d", code, ExitUsage)
	}
	if _, _, code := run(t, "rules", "--format", "yaml"); code != ExitUsage {
		t.Errorf("bad format: exit %d, want %d", code, ExitUsage)
	}
}

// TestRulesJavaDocUpToDate is TestRulesDocUpToDate for the Java catalog's
// docs/rules-java.md.
func TestRulesJavaDocUpToDate(t *testing.T) {
	var buf bytes.Buffer
	driver.RulesMarkdown(&buf, catalog.Java())
	const path = "../../docs/rules-java.md"
	if *updateDocs {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./internal/cli -update writes it)", err)
	}
	if !bytes.Equal(got, buf.Bytes()) {
		t.Fatal("docs/rules-java.md is stale: run go test ./internal/cli -run TestRulesJavaDocUpToDate -update")
	}
}
