package nfisuite

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/internal/atomicfile"
	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfirecord"
	"github.com/polynfi/polynfi/syntax"
)

// RunOptions configures Run.
type RunOptions struct {
	// Out is the run directory: records go to Out/records, logs to Out/logs.
	Out string
	// Workers bounds concurrent evaluations (≤ 0: 1).
	Workers int
	// InstanceIDs, when non-empty, restricts the run to these tasks.
	InstanceIDs []string
	// Progress, when set, is called after each record is settled (written
	// or found up to date), from one goroutine at a time.
	Progress func(done, total int, r nfirecord.Record, reused bool)
	// Redo evaluates every prediction again even where an up-to-date
	// record exists (each record is replaced when its new one is written).
	Redo bool
}

// RunResult says what a run did.
type RunResult struct {
	Records   []nfirecord.Record // every record of the run, new and reused, sorted
	Evaluated int                // records written by this run
	Reused    int                // records found up to date and kept
	Missing   int                // (task, run) pairs an agent gave no prediction for
	Skipped   []string           // predictions for unknown tasks, as "model/instance_id/run"
}

// Run evaluates every prediction against its task and writes one record
// per (agent, task, run), atomically (temp file + rename). A record that
// already exists with the same key (same output) is kept, so re-running the
// same command after an interruption evaluates only what is missing or
// changed. For each agent, every task × run (runs 0..max run seen) without a
// prediction gets a "missing" record, so it counts as invalid.
// Errors: ctx cancellation (records already written stay) and I/O errors.
func (s *Suite) Run(ctx context.Context, tasks []dataset.NFITask, preds []dataset.Prediction, opt RunOptions) (*RunResult, error) {
	byID := map[string]*dataset.NFITask{}
	var order []string
	keep := map[string]bool{}
	for _, id := range opt.InstanceIDs {
		keep[id] = true
	}
	for i := range tasks {
		if len(keep) > 0 && !keep[tasks[i].InstanceID] {
			continue
		}
		byID[tasks[i].InstanceID] = &tasks[i]
		order = append(order, tasks[i].InstanceID)
	}
	if len(order) == 0 {
		return nil, ErrNoTasks
	}
	res := &RunResult{}
	// Human reference and fingerprint per task, computed once.
	parser := syntax.NewParser()
	human := map[string]nfi.Improvement{}
	fingerprint := map[string]string{}
	for _, id := range order {
		human[id] = s.Human(parser, byID[id]).Improvement
		fingerprint[id] = TaskFingerprint(byID[id])
	}
	parser.Close()

	type job struct {
		task *dataset.NFITask
		pred dataset.Prediction
	}
	var jobs []job
	maxRun := map[string]int{}
	have := map[string]bool{}
	for _, p := range preds {
		t, ok := byID[p.InstanceID]
		if !ok {
			if len(keep) == 0 || keep[p.InstanceID] {
				res.Skipped = append(res.Skipped, fmt.Sprintf("%s/%s/%d", p.ModelNameOrPath, p.InstanceID, p.Run))
			}
			continue
		}
		jobs = append(jobs, job{t, p})
		maxRun[p.ModelNameOrPath] = max(maxRun[p.ModelNameOrPath], p.Run)
		have[fmt.Sprintf("%s\x00%s\x00%d", p.ModelNameOrPath, p.InstanceID, p.Run)] = true
	}
	models := make([]string, 0, len(maxRun))
	for m := range maxRun {
		models = append(models, m)
	}
	sort.Strings(models)
	var missing []nfirecord.Record
	for _, m := range models {
		for _, id := range order {
			for r := 0; r <= maxRun[m]; r++ {
				if have[fmt.Sprintf("%s\x00%s\x00%d", m, id, r)] {
					continue
				}
				t := byID[id]
				missing = append(missing, nfirecord.Record{InstanceID: id, Model: m, Run: r, Aspect: t.Aspect.Code(), Scope: t.Scope,
					InvalidReason: nfirecord.ReasonMissing, InvalidDetail: "no prediction for this task and run", Human: human[id], Key: "missing"})
			}
		}
	}
	res.Missing = len(missing)
	// Real directories of the run: one that is a symbolic link is refused
	// (nothing is written through it).
	if err := os.MkdirAll(opt.Out, 0o755); err != nil {
		return nil, err
	}
	for _, d := range []string{"records", "logs"} {
		if err := safepath.MkdirAllIn(opt.Out, d); err != nil {
			return nil, fmt.Errorf("%s: %w", opt.Out, err)
		}
	}
	if s.LogDir == "" {
		s.LogDir = filepath.Join(opt.Out, "logs")
	}
	total := len(jobs) + len(missing)
	var mu sync.Mutex
	done := 0
	settle := func(r nfirecord.Record, reused bool) {
		mu.Lock()
		defer mu.Unlock()
		done++
		res.Records = append(res.Records, r)
		if reused {
			res.Reused++
		} else {
			res.Evaluated++
		}
		if opt.Progress != nil {
			opt.Progress(done, total, r, reused)
		}
	}
	for _, r := range missing {
		path := nfirecord.RecordPath(opt.Out, r.Model, r.InstanceID, r.Run)
		r.TaskSHA256 = fingerprint[r.InstanceID]
		if old, ok := readRecord(opt.Out, path); ok && reusable(old, r.Key, r.TaskSHA256) {
			settle(old, true)
			continue
		}
		if err := writeRecord(opt.Out, path, r); err != nil {
			return res, err
		}
		settle(r, false)
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(opt.Workers, 1))
	parsers := sync.Pool{New: func() any { return syntax.NewParser() }}
	for _, j := range jobs {
		j := j
		path := nfirecord.RecordPath(opt.Out, j.pred.ModelNameOrPath, j.task.InstanceID, j.pred.Run)
		if old, ok := readRecord(opt.Out, path); ok && !opt.Redo && reusable(old, OutputKey(&j.pred), fingerprint[j.task.InstanceID]) {
			settle(old, true)
			continue
		}
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			p := parsers.Get().(*syntax.Parser)
			defer parsers.Put(p)
			rec, err := s.Evaluate(gctx, p, j.task, &j.pred, human[j.task.InstanceID])
			if err != nil {
				return err
			}
			rec.TaskSHA256 = fingerprint[j.task.InstanceID]
			if err := writeRecord(opt.Out, path, rec); err != nil {
				return err
			}
			settle(rec, false)
			return nil
		})
	}
	err := g.Wait()
	if err == nil {
		err = ctx.Err()
	}
	nfirecord.SortRecords(res.Records)
	return res, err
}

// reusable reports whether a stored record still answers for this output
// (key) of this task (fingerprint). A harness error (TestStatus "error": a
// missing repository, a workspace that could not be made) says nothing about
// the output and is always evaluated again.
func reusable(old nfirecord.Record, key, fingerprint string) bool {
	return old.Key == key && old.TaskSHA256 == fingerprint && old.TestStatus != "error"
}

// TaskFingerprint is the hex SHA-256 of the task as JSON: any change to its
// files, tests, command or environment re-evaluates its records.
func TaskFingerprint(t *dataset.NFITask) string {
	b, _ := json.Marshal(t)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// readRecord reads the record at path, a file under the run directory
// out, without following a symbolic link below out (safepath.OpenIn); ok
// is false when it cannot be read or decoded.
func readRecord(out, path string) (nfirecord.Record, bool) {
	rel, err := filepath.Rel(out, path)
	if err != nil {
		return nfirecord.Record{}, false
	}
	b, err := safepath.ReadFileIn(out, rel)
	if err != nil {
		return nfirecord.Record{}, false
	}
	var r nfirecord.Record
	if json.Unmarshal(b, &r) != nil {
		return nfirecord.Record{}, false
	}
	return r, true
}

// writeRecord writes r as JSON to path, a file under the run directory
// out, atomically (a reader sees the old file or the new one, never a
// part) and never through a symbolic link below out (atomicfile.WriteIn).
func writeRecord(out, path string, r nfirecord.Record) error {
	rel, err := filepath.Rel(out, path)
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFileIn(out, rel, append(b, '\n'))
}
