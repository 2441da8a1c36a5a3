package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/internal/atomicfile"
	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/retrieval"
	"github.com/polynfi/polynfi/runrecord"
)

// Artifacts are the files kept beside a record.
type Artifacts struct {
	TestLog    []byte // the combined log, as parsed
	ModelPatch string // the patch applied (for Files predictions, the diff they make)
	Command    string // the exact script run
	// AppliedPatch is, for a model patch that only GNU patch's fuzz
	// applied, the diff it made to the tree (base + test patch); ""
	// otherwise. Retrieval locates the predicted nodes from it
	// (retrieval.Input.Applied). Not stored.
	AppliedPatch string
	// BaseFiles are the base-commit contents of the files the reference
	// and the model patch touch, read in the sandbox when the harness has
	// no local clone of the repository (a SWE-bench image holds it): the
	// source retrieval's node metrics read. Nil otherwise. Not stored.
	BaseFiles retrieval.MemSource
}

// Store keeps one record directory per (model, instance, run) under Dir:
// Dir/<model>/<instance_id>/run-<k>/ with result.json, test.log,
// model.patch and command.sh. Every file is written atomically (temp file
// in the same directory, then rename), result.json last, so a record is
// either complete or absent. Open takes an exclusive lock on Dir so two
// runs cannot share it; Close releases it.
type Store struct {
	Dir  string
	lock *os.File
}

// Canary is one test the harness added to a run (runrecord.Canary, which
// TestRun.Canaries holds). An alias, so that canary.go, where canaries are
// placed, names it as before.
type Canary = runrecord.Canary

// ErrLocked is returned by OpenStore when another process holds the store.
var ErrLocked = errors.New("output directory is in use by another polynfi run")

// OpenStore opens (creating) the store at dir (ClaimDir: a non-empty
// directory that is not polynfi's is refused with ErrNotStore), locks it,
// and removes what an interrupted run left behind: the scratch directory
// .work and the temp files of interrupted atomic writes, which are only
// ever looked for under polynfi's own names (storeTempFile) in dir itself
// and in record directories (dir/<model>/<instance>/run-<k>).
func OpenStore(dir string) (*Store, error) {
	if err := runrecord.ClaimDir(dir); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW, 0o644) // never a link
	if err != nil {
		return nil, err
	}
	if err := lockWithin(f, lockWait); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	s := &Store{Dir: dir, lock: f}
	_ = os.RemoveAll(s.ScratchDir())
	if err := os.MkdirAll(s.ScratchDir(), 0o755); err != nil {
		s.Close()
		return nil, err
	}
	removeStoreTemps(dir)
	if recDirs, err := filepath.Glob(filepath.Join(dir, "*", "*", "run-*")); err == nil {
		for _, d := range recDirs {
			// Only real directories of the store: never one reached
			// through a symbolic link, which may lead anywhere.
			if rel, _ := filepath.Rel(dir, d); !strings.HasPrefix(rel, ".") && noLinkBelow(dir, rel) {
				removeStoreTemps(d)
			}
		}
	}
	return s, nil
}

// storeTempNames are the files polynfi writes atomically into a store
// directory or a record directory; their temp files are
// ".tmp-<name>-<digits>" (internal/atomicfile).
var storeTempNames = []string{runrecord.ResultFile, runrecord.LogFile, runrecord.PatchFile, runrecord.CommandFile, runrecord.ManifestFile, runrecord.StoreMarker,
	"report.json", "report.html", "report.md", "metrics.json", "validation.json",
	"valid.csv", "valid.json", "valid.jsonl"}

// storeTempFile reports whether name is the temp file of an atomic write
// of one of storeTempNames.
func storeTempFile(name string) bool {
	for _, n := range storeTempNames {
		rest, ok := strings.CutPrefix(name, ".tmp-"+n+"-")
		if !ok || rest == "" {
			continue
		}
		if strings.Trim(rest, "0123456789") == "" {
			return true
		}
	}
	return false
}

// noLinkBelow reports whether every element of rel below dir is a
// directory and none is a symbolic link.
func noLinkBelow(dir, rel string) bool {
	cur := dir
	for _, el := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, el)
		fi, err := os.Lstat(cur)
		if err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// removeStoreTemps removes polynfi's temp files directly in dir (not below).
func removeStoreTemps(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.Type().IsRegular() && storeTempFile(e.Name()) {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// lockWait is how long OpenStore waits for a lock held elsewhere. A run
// that really owns the directory holds it for its whole length; the wait
// only covers a lock that outlives its Close for a moment, because a
// process forked by another goroutine (or another program) holds a copy of
// the descriptor between fork and exec.
const lockWait = 5 * time.Second

// lockWithin takes an exclusive flock on f, trying again every 50 ms for up
// to wait; ErrLocked when it is still held after that.
func lockWithin(f *os.File, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return fmt.Errorf("locking %s: %w", f.Name(), err)
		}
		if time.Now().After(deadline) {
			return ErrLocked
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Close releases the lock.
func (s *Store) Close() error {
	if s.lock == nil {
		return nil
	}
	err := s.lock.Close()
	s.lock = nil
	return err
}

// ScratchDir is where workspaces and temporary files of in-flight
// instances live; it is emptied when the store is opened.
func (s *Store) ScratchDir() string { return filepath.Join(s.Dir, ".work") }

// RecordDir returns the directory of key's record (independent of the
// patch hash: one record per instance, model and run).
func (s *Store) RecordDir(k runrecord.Key) string {
	return filepath.Join(s.Dir, runrecord.DirName(k.Model), k.InstanceID, fmt.Sprintf("run-%d", k.Run))
}

// Load returns the record stored for k's instance, model and run, if any.
// ok is false when there is none; err is for an unreadable or corrupt one,
// and for one that is, or lies below, a symbolic link, or is not a regular
// file (safepath.OpenIn): a run directory is not trusted.
func (s *Store) Load(k runrecord.Key) (rec *runrecord.Record, ok bool, err error) {
	b, err := safepath.ReadFileIn(s.Dir, runrecord.RecordRelDir(k)+"/"+runrecord.ResultFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	rec = &runrecord.Record{}
	if err := json.Unmarshal(b, rec); err != nil {
		return nil, false, fmt.Errorf("%s: %w", filepath.Join(s.RecordDir(k), runrecord.ResultFile), err)
	}
	return rec, true, nil
}

// Done reports whether a complete record for exactly k (same patch hash)
// exists, and returns it. A record of a harness error (StatusError: the
// repository was missing, a workspace could not be made, ...) or of an
// infrastructure failure (StatusInfraFailure) is not done: such a failure
// says nothing about the patch, so re-running the same command tries the
// instance again once the cause is fixed.
func (s *Store) Done(k runrecord.Key) (*runrecord.Record, bool) {
	rec, ok, err := s.Load(k)
	if err != nil || !ok || rec.Key != k || rec.Schema != runrecord.RecordSchema || rec.Status == grading.StatusError || rec.Status == grading.StatusInfraFailure {
		return nil, false
	}
	return rec, true
}

// Save writes rec and its artifacts. Artifacts go first and result.json
// last, each atomically, so that an interruption leaves either the old
// record or the new one. A symbolic link on the way below the store's
// directory is refused (the error wraps safepath.ErrUnsafe): a record is
// never written through one.
//
// Model names that SWE-bench's directory mapping does not tell apart
// ("org/m" and "org__m", see runrecord.DirName) cannot share a store: the record
// of an instance already saved under the other name is not overwritten,
// and the error names both.
func (s *Store) Save(rec *runrecord.Record, a Artifacts) error {
	rel := runrecord.RecordRelDir(rec.Key)
	if old, err := safepath.ReadFileIn(s.Dir, rel+"/"+runrecord.ResultFile); err == nil {
		var prev runrecord.Key
		if json.Unmarshal(old, &prev) == nil && prev.InstanceID != "" && prev.Model != rec.Key.Model {
			return fmt.Errorf("model names %q and %q share the record directory %q (SWE-bench's mapping of \"/\" to \"__\"): run them in separate stores or rename one", prev.Model, rec.Key.Model, runrecord.DirName(rec.Key.Model))
		}
	}
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		data []byte
	}{
		{runrecord.LogFile, a.TestLog},
		{runrecord.PatchFile, []byte(a.ModelPatch)},
		{runrecord.CommandFile, []byte(a.Command)},
		{runrecord.ResultFile, append(b, '\n')},
	} {
		if err := atomicfile.WriteFileIn(s.Dir, rel+"/"+f.name, f.data); err != nil {
			return err
		}
	}
	return nil
}

// WriteFileAtomic writes data to path atomically (internal/atomicfile):
// readers see the old file or the new one, never a part.
func WriteFileAtomic(path string, data []byte) error { return atomicfile.Write(path, data) }
