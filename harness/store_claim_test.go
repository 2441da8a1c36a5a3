package harness

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/runrecord"
)

// A non-empty directory that is not polynfi's is refused and nothing in it
// is deleted; polynfi's own directory loses only polynfi's temp files.
func TestOpenStoreRefusesForeignDirectory(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, data string) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	keep := []string{write(".work/important.txt", "keep"), write("sub/.tmp-draft.txt", "precious")}
	s, err := OpenStore(dir)
	if !errors.Is(err, runrecord.ErrNotStore) || !strings.Contains(err.Error(), dir) {
		t.Fatalf("OpenStore on a foreign directory: %v, want ErrNotStore naming %s", err, dir)
	}
	if s != nil {
		s.Close()
	}
	for _, p := range keep {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was touched: %v", p, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, runrecord.StoreMarker)); err == nil {
		t.Errorf("a refused directory got a marker")
	}

	// An empty directory becomes a store; reopening it removes polynfi's
	// temp files in the store and record directories, nothing else.
	own := t.TempDir()
	s, err = OpenStore(own)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	rec := filepath.Join(own, "gold", "x-1", "run-0")
	os.MkdirAll(rec, 0o755)
	os.MkdirAll(filepath.Join(own, "notes"), 0o755)
	gone := []string{filepath.Join(rec, ".tmp-result.json-123"), filepath.Join(own, ".tmp-report.json-9")}
	stay := []string{filepath.Join(rec, ".tmp-mine.txt"), filepath.Join(own, "notes", ".tmp-result.json-5"),
		filepath.Join(rec, ".tmp-result.json-abc"), filepath.Join(own, "notes.txt")}
	for _, p := range append(append([]string{}, gone...), stay...) {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err = OpenStore(own)
	if err != nil {
		t.Fatalf("reopening polynfi's own store: %v", err)
	}
	s.Close()
	for _, p := range gone {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s (polynfi's temp file) not removed", p)
		}
	}
	for _, p := range stay {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s removed: %v", p, err)
		}
	}
}

// Model names map to directories injectively but for SWE-bench's own
// collision, never hidden, and ordinary names keep SWE-bench's "/" -> "__"
// (a name holding "__" keeps it, as SWE-bench's log directory does).
func TestSafeNameInjective(t *testing.T) {
	for in, want := range map[string]string{"gold": "gold", "org/model-1.5": "org__model-1.5", "a_b": "a_b",
		"nebius__SWE-agent": "nebius__SWE-agent", "org/a__b": "org__a__b"} {
		if got := runrecord.DirName(in); got != want {
			t.Errorf("runrecord.DirName(%q) = %q, want %q", in, got, want)
		}
	}
	names := []string{"", ".", "..", "_", "___", ".work", ".repos", "_work", "a/b", "a/_b", "a_/b", "a___b",
		"a b", "a_b", "a?b", "é", "e", "gold", "gold~1", strings.Repeat("x", 300), strings.Repeat("x", 301), "//", "_/", "/_/"}
	seen := map[string]string{}
	for _, n := range names {
		got := runrecord.DirName(n)
		if prev, ok := seen[got]; ok {
			t.Errorf("runrecord.DirName(%q) = runrecord.DirName(%q) = %q", n, prev, got)
		}
		seen[got] = n
		if got == "" || strings.HasPrefix(got, ".") || strings.Contains(got, "/") || len(got) > 200 {
			t.Errorf("runrecord.DirName(%q) = %q: empty, hidden, nested or too long", n, got)
		}
	}
	// SWE-bench's collision: "a/b" and "a__b" share "a__b"; the store
	// refuses the second model's record instead of overwriting the first.
	if runrecord.DirName("a/b") != runrecord.DirName("a__b") {
		t.Fatalf("runrecord.DirName(a/b) = %q, runrecord.DirName(a__b) = %q: want SWE-bench's shared a__b", runrecord.DirName("a/b"), runrecord.DirName("a__b"))
	}
	s, err := OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Save(&runrecord.Record{Schema: runrecord.RecordSchema, Key: runrecord.Key{InstanceID: "x-1", Model: "a/b"}, Status: grading.StatusResolved}, Artifacts{}); err != nil {
		t.Fatal(err)
	}
	err = s.Save(&runrecord.Record{Schema: runrecord.RecordSchema, Key: runrecord.Key{InstanceID: "x-1", Model: "a__b"}, Status: grading.StatusUnresolved}, Artifacts{})
	if err == nil || !strings.Contains(err.Error(), `"a/b" and "a__b"`) {
		t.Errorf("second model in a shared directory: %v, want an error naming both", err)
	}
	if rec, ok, err := s.Load(runrecord.Key{InstanceID: "x-1", Model: "a/b"}); err != nil || !ok || rec.Model != "a/b" || rec.Status != grading.StatusResolved {
		t.Errorf("first model's record after the refused save: %+v %v %v", rec, ok, err)
	}
	if err := s.Save(&runrecord.Record{Schema: runrecord.RecordSchema, Key: runrecord.Key{InstanceID: "x-1", Model: "a/b"}, Status: grading.StatusUnresolved}, Artifacts{}); err != nil {
		t.Errorf("the same model saving again: %v", err)
	}
}

// A record of a model named ".work" is stored outside the scratch
// directory and loads back.
func TestHiddenModelNameRecordLoads(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rec := &runrecord.Record{Schema: runrecord.RecordSchema, Key: runrecord.Key{InstanceID: "x-1", Model: ".work", Run: 0}, Status: grading.StatusResolved}
	if err := s.Save(rec, Artifacts{}); err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(s.RecordDir(rec.Key), s.ScratchDir()) {
		t.Fatalf("record dir %s is inside the scratch dir", s.RecordDir(rec.Key))
	}
	recs, err := runrecord.LoadRecords(dir)
	if err != nil || len(recs) != 1 || recs[0].Model != ".work" {
		t.Fatalf("LoadRecords: %v %v", recs, err)
	}
}
