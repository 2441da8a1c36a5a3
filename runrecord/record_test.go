package runrecord_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/polynfi/polynfi/runrecord"
	"github.com/polynfi/polynfi/runtime"
)

// A record's sandbox is runtime.Info converted: both must encode alike.
func TestSandboxInfoEncodesAsRuntimeInfo(t *testing.T) {
	info := runtime.Info{Runtime: "kubernetes", ID: "pod-1", Image: "img:1", Node: "n1", Isolation: "pod", StartS: 1.5, DeadlineS: 60, Notes: []string{"a"}}
	want, err := json.Marshal(info)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(runrecord.SandboxInfo(info))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("SandboxInfo encodes as %s, runtime.Info as %s", got, want)
	}
}

// ReadRecords finds a record at RecordRelDir below the run directory and
// reads it back field for field; a corrupt one is listed, not fatal.
func TestReadRecordsAtRecordRelDir(t *testing.T) {
	dir := t.TempDir()
	rec := &runrecord.Record{Schema: runrecord.RecordSchema, Key: runrecord.Key{InstanceID: "o__r-1", Model: "org/m", Run: 2, PatchSHA256: "ab"},
		Test:    &runrecord.TestRun{Command: "go test", Canaries: []runrecord.Canary{{Name: "c1", File: "a_test.go", Fail: true}}},
		Sandbox: &runrecord.SandboxInfo{Runtime: "local"}}
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	write := func(k runrecord.Key, data []byte) {
		d := filepath.Join(dir, filepath.FromSlash(runrecord.RecordRelDir(k)))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, runrecord.ResultFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(rec.Key, b)
	write(runrecord.Key{InstanceID: "bad", Model: "m"}, []byte("{"))
	recs, bad, err := runrecord.ReadRecords(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || len(bad) != 1 {
		t.Fatalf("read %d records and %d unreadable, want 1 and 1", len(recs), len(bad))
	}
	again, err := json.Marshal(recs[0])
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(b) {
		t.Fatalf("read back\n%s\nwant\n%s", again, b)
	}
	if runrecord.RecordRelDir(rec.Key) != "org__m/o__r-1/run-2" {
		t.Fatalf("RecordRelDir = %q", runrecord.RecordRelDir(rec.Key))
	}
}
