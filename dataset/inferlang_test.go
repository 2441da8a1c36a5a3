package dataset

import (
	"strings"
	"testing"
)

// gitDiff returns a patch that changes each of files (one hunk each).
func gitDiff(files ...string) string {
	var b strings.Builder
	for _, f := range files {
		b.WriteString("diff --git a/" + f + " b/" + f + "\n--- a/" + f + "\n+++ b/" + f + "\n@@ -1 +1 @@\n-a\n+b\n")
	}
	return b.String()
}

func TestInferLanguage(t *testing.T) {
	for _, c := range []struct {
		name, patch, testPatch, want string
	}{
		{"go", gitDiff("internal/x.go", "README.md", "go.mod"), "", Go},
		{"rust beside toml", gitDiff("Cargo.toml", "src/lib.rs"), "", Rust},
		{"majority wins", gitDiff("a.py", "b.rs", "c.rs"), "", Rust},
		{"tie goes to the first", gitDiff("a.rb", "b.php"), "", Ruby},
		{"header with c++", gitDiff("include/x.h", "src/x.cpp"), "", CPP},
		{"header with c", gitDiff("include/x.h", "src/x.c", "src/y.cpp"), "", C},
		{"header alone", gitDiff("include/x.h"), "", C},
		{"tsx", gitDiff("src/App.tsx", "src/index.ts"), "", TypeScript},
		{"from the test patch", gitDiff("docs/x.md"), gitDiff("tests/x_test.go"), Go},
		{"none", gitDiff("docs/x.md", "Makefile"), gitDiff("data/y.json"), ""},
		{"empty", "", "", ""},
		{"not a patch", "hello\nworld\n", "", ""},
		{"deleted file", "diff --git a/old.java b/old.java\ndeleted file mode 100644\n--- a/old.java\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n", "", Java},
	} {
		if got := InferLanguage(c.patch, c.testPatch); got != c.want {
			t.Errorf("%s: InferLanguage = %q, want %q", c.name, got, c.want)
		}
	}
}

// A SWE-bench Multilingual row names no language: it is inferred from the
// gold patch, marked so, and left out of the evaluation fingerprint; a
// row that names one keeps it.
func TestDecodeInfersLanguage(t *testing.T) {
	row := map[string]any{
		"instance_id": "o__r-1", "repo": "o/r", "base_commit": "abc",
		"patch": gitDiff("src/lib.rs"), "test_patch": gitDiff("tests/t.rs"),
		"FAIL_TO_PASS": `["t"]`, "PASS_TO_PASS": `[]`,
	}
	in, errs := decodeInstance(row)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if in.Language != Rust || !in.LanguageInferred {
		t.Fatalf("Language %q inferred %v, want Rust inferred", in.Language, in.LanguageInferred)
	}
	plain := in
	plain.Language, plain.LanguageInferred = "", false
	if in.EvalSHA256() != plain.EvalSHA256() {
		t.Error("an inferred language changed the evaluation fingerprint")
	}
	row["language"] = "python"
	in, errs = decodeInstance(row)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if in.Language != Python || in.LanguageInferred {
		t.Fatalf("Language %q inferred %v, want the row's Python", in.Language, in.LanguageInferred)
	}
	if in.EvalSHA256() == plain.EvalSHA256() {
		t.Error("a language the row names is not in the fingerprint")
	}
}
