package harness

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/runrecord"
)

// Job is one prediction of one instance.
type Job struct {
	Instance   dataset.Instance
	Prediction dataset.Prediction
}

// Key returns the record key of the job.
func (j Job) Key() runrecord.Key {
	return runrecord.Key{InstanceID: j.Instance.InstanceID, Model: j.Prediction.ModelNameOrPath, Run: j.Prediction.Run, PatchSHA256: j.Prediction.PatchSHA256()}
}

// Event reports progress: one job finished (evaluated now, or found
// finished by an earlier run when Skipped).
type Event struct {
	Job     Job
	Record  *runrecord.Record
	Skipped bool
	Done    int // jobs finished so far, including this one
	Total   int
}

// RunOptions tune Run.
type RunOptions struct {
	// Workers bounds the instances evaluated at once (≥ 1; 0 means 1).
	Workers int
	// Progress, when set, is called once per finished job, from one
	// goroutine at a time.
	Progress func(Event)
	// Started, when set, is called when a worker begins job j (before its
	// sandbox is ready; a retry does not call it again), from the worker's
	// goroutine: several may call it at once.
	Started func(j Job)
	// Redo evaluates every job again even where a finished record of the
	// same key exists (it is replaced when the new one is saved; an
	// interruption keeps the old one).
	Redo bool
}

// RunResult is what Run did. Records holds the record of every finished
// job in job order (nil for abandoned ones).
type RunResult struct {
	Records     []*runrecord.Record
	Evaluated   int // evaluated in this run
	Skipped     int // found complete from an earlier run
	Abandoned   int // in flight or never started when ctx was cancelled
	Elapsed     time.Duration
	Interrupted bool
	// RemoveErrors are the failures of sandbox removals done in the
	// background (the sandboxes are labelled with the run: the next
	// run's start or polynfi cleanup removes them).
	RemoveErrors []string
}

// Recorded counts the jobs with a record.
func (r *RunResult) Recorded() int { return r.Evaluated + r.Skipped }

// Run evaluates jobs with at most opts.Workers at a time, skipping those
// whose record for the same key is already in store (unless opts.Redo) and saving each new
// record as soon as it is done. When ctx is cancelled, jobs in flight are
// abandoned (their scratch space removed) and no new job starts; finished
// records stay. The error is non-nil for a record that cannot be written
// (the run stops) or, wrapped around ctx.Err(), for an interruption.
func (h *Harness) Run(ctx context.Context, jobs []Job, store *Store, opts RunOptions) (*RunResult, error) {
	start := time.Now()
	workers := opts.Workers
	if workers < 1 {
		workers = 1
	}
	res := &RunResult{Records: make([]*runrecord.Record, len(jobs))}
	var mu sync.Mutex
	done := 0
	report := func(j Job, rec *runrecord.Record, skipped bool) {
		mu.Lock()
		defer mu.Unlock()
		done++
		if skipped {
			res.Skipped++
		} else {
			res.Evaluated++
		}
		if opts.Progress != nil {
			opts.Progress(Event{Job: j, Record: rec, Skipped: skipped, Done: done, Total: len(jobs)})
		}
	}
	var pending []int
	for i, j := range jobs {
		// A record graded without the clean room is graded again when it is asked.
		if rec, ok := store.Done(j.Key()); ok && !opts.Redo && rec.InstanceSHA256 == j.Instance.EvalSHA256() &&
			!(h.CleanRoom && rec.PatchApplied && rec.Test != nil && rec.CleanRoom == nil) {
			res.Records[i] = rec
			report(j, rec, true)
			continue
		}
		pending = append(pending, i)
	}
	gctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var errMu sync.Mutex
	var firstErr error
	fail := func(err error) {
		errMu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		errMu.Unlock()
		cancel()
	}
	// Jobs go to the workers in order, each with its sandbox being started
	// ahead when StartAhead allows: the queue holds at most StartAhead
	// jobs, each started as it enters it.
	type item struct {
		i  int
		st *started // nil: the worker starts the sandbox
	}
	ahead := max(h.StartAhead, 0)
	queue := make(chan item, ahead)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(queue)
		for _, i := range pending {
			if gctx.Err() != nil {
				return
			}
			if ahead == 0 {
				select {
				case queue <- item{i: i}:
				case <-gctx.Done():
					return
				}
				continue
			}
			// Wait for room in the queue, then start the job's sandbox.
			it := item{i: i, st: &started{ready: make(chan struct{})}}
			select {
			case queue <- it:
			case <-gctx.Done():
				return
			}
			j := jobs[i]
			go h.startInstance(gctx, j.Instance, j.Prediction, it.st)
		}
	}()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range queue {
				if gctx.Err() != nil {
					h.discard(it.st) // abandoned
					continue
				}
				j := jobs[it.i]
				if opts.Started != nil {
					opts.Started(j)
				}
				rec, art, err := h.evaluateStarted(gctx, j.Instance, j.Prediction, it.st, true)
				if err != nil {
					fail(err) // cancelled: abandoned
					continue
				}
				// An infrastructure failure says nothing about the patch:
				// try again, up to Retries more times.
				attempts := 1
				var retried []runrecord.InfraAttempt
				for rec.InfraReason != "" && attempts <= h.Retries && err == nil {
					attempts++
					retried = append(retried, runrecord.InfraAttempt{Reason: rec.InfraReason, Error: rec.Error, Sandbox: rec.Sandbox})
					rec, art, err = h.evaluateStarted(gctx, j.Instance, j.Prediction, nil, true)
				}
				if err != nil {
					fail(err)
					continue
				}
				if attempts > 1 {
					rec.Attempts = attempts
					rec.RetriedInfraFailures = retried
				}
				if rec.Test != nil && rec.Verdicts.Strict.Status == grading.StatusInfraFailure {
					// where to look: the log the record keeps
					rec.Verdicts.Strict.Reason += "; log: " + filepath.Join(store.RecordDir(j.Key()), runrecord.LogFile)
				}
				if err := store.Save(rec, art); err != nil {
					fail(fmt.Errorf("record %s: %w", j.Instance.InstanceID, err))
					continue
				}
				mu.Lock()
				res.Records[it.i] = rec
				mu.Unlock()
				report(j, rec, false)
			}
		}()
	}
	wg.Wait()
	// Sandboxes are removed in the background: none is left when Run
	// returns.
	if errs := h.Drain(); len(errs) > 0 {
		res.RemoveErrors = errs
	}
	err := firstErr
	res.Elapsed = time.Since(start)
	res.Abandoned = len(jobs) - res.Recorded()
	if ctx.Err() != nil {
		res.Interrupted = true
		return res, fmt.Errorf("interrupted after %s: %d/%d instances recorded: %w",
			res.Elapsed.Round(time.Second), res.Recorded(), len(jobs), ctx.Err())
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		return res, err
	}
	return res, err
}
