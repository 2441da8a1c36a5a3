package catalog

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/nfi"
)

// TestScoreConcurrent scores a standard-library sample on 4 workers twice
// over (so that every worker's Parser, the engine's pooled passes and the
// analyses' free lists and pools are reused across files and goroutines)
// and checks each result against a run on one worker. Run it with -race
// (`make test` does) to check the pooled storage for data races.
func TestScoreConcurrent(t *testing.T) {
	files := corpus.StdlibSample(t, 120)
	e := newEngine(t)
	// each result as the JSON that polynfi score prints
	run := func(workers int, paths []string) []string {
		var out []string
		err := e.ScoreFiles(context.Background(), paths, workers, func(fs nfi.FileScore) error {
			b, err := json.Marshal(fs)
			out = append(out, string(b))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	want := run(1, files)
	got := run(4, append(append([]string(nil), files...), files...))
	if len(got) != 2*len(want) {
		t.Fatalf("got %d results, want %d", len(got), 2*len(want))
	}
	for i, fs := range got {
		if w := want[i%len(want)]; fs != w {
			t.Errorf("%s: on 4 workers\n%s\non 1 worker\n%s", files[i%len(files)], fs, w)
		}
	}
}
