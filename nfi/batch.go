package nfi

import (
	"context"
	"io/fs"
	"runtime"

	"golang.org/x/sync/errgroup"

	"github.com/polynfi/polynfi/internal/regfile"
	"github.com/polynfi/polynfi/syntax"
)

// ScoreFiles reads and scores paths on workers goroutines (GOMAXPROCS when
// workers ≤ 0), one syntax.Parser per worker, and calls emit with each
// FileScore in the order of paths. At most 32×workers results wait for
// emission, so memory does not grow with the number of files; the window
// is that wide so that one large file (the standard library's largest
// takes some 50 times an average file) does not leave the other workers
// idle, their finished results waiting behind it. A file that
// cannot be read comes back with Status read_error, never as an error.
// ScoreFiles returns ctx's error when cancelled, at once: files being
// scored then are abandoned (their workers finish them in the background
// and emit nothing more); or the first error emit returns (which stops
// the run once the workers' files are done).
func (e *Engine) ScoreFiles(ctx context.Context, paths []string, workers int, emit func(FileScore) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type job struct {
		i    int
		path string
	}
	window := 32 * workers
	jobs := make(chan job)
	results := make(chan struct {
		i  int
		fs FileScore
	}, window)
	slots := make(chan struct{}, window) // bounds results not yet emitted
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		defer close(jobs)
		for i, p := range paths {
			select {
			case slots <- struct{}{}:
			case <-gctx.Done():
				return gctx.Err()
			}
			select {
			case jobs <- job{i, p}:
			case <-gctx.Done():
				return gctx.Err()
			}
		}
		return nil
	})
	workersDone := make(chan struct{})
	var wg errgroup.Group
	for w := 0; w < workers; w++ {
		wg.Go(func() error {
			parser := syntax.NewParser()
			defer parser.Close()
			for j := range jobs {
				fs := e.ScoreFile(parser, j.path)
				select {
				case results <- struct {
					i  int
					fs FileScore
				}{j.i, fs}:
				case <-gctx.Done():
					return nil
				}
			}
			return nil
		})
	}
	go func() { wg.Wait(); close(workersDone); close(results) }()
	g.Go(func() error {
		pending := map[int]FileScore{}
		next := 0
		for {
			var r struct {
				i  int
				fs FileScore
			}
			select {
			case res, ok := <-results:
				if !ok {
					return nil
				}
				r = res
			case <-gctx.Done():
				return gctx.Err()
			}
			pending[r.i] = r.fs
			for {
				fs, ok := pending[next]
				if !ok {
					break
				}
				delete(pending, next)
				next++
				<-slots
				if err := emit(fs); err != nil {
					return err
				}
			}
		}
	})
	err := g.Wait()
	if ctx.Err() != nil {
		// interrupted: the files being scored are abandoned, not waited
		// for (one large file takes seconds); their workers end on their
		// own, and emit is not called again
		return ctx.Err()
	}
	<-workersDone
	if err == nil {
		err = ctx.Err()
	}
	return err
}

// ScoreFile reads path (ReadSource) and scores it; a read failure, or a
// path that is not a regular file, gives Status read_error.
func (e *Engine) ScoreFile(parser *syntax.Parser, path string) FileScore {
	src, err := ReadSource(path)
	if err != nil {
		return FileScore{Path: path, Status: StatusReadError, Error: &FileError{Line: 0, Column: 0, Message: err.Error()}}
	}
	return e.Score(parser, path, src)
}

// ReadSource reads a source file. It refuses, without blocking, a path
// that is not a regular file (after symbolic links): a named pipe, a
// socket or a device would block the reader or never end. The error names
// the path and its kind: "x.py: not a regular file (named pipe), not read".
func ReadSource(path string) ([]byte, error) { return regfile.ReadFile(path) }

// FileKind names the kind of a file mode: "regular file", "directory",
// "named pipe", "socket", "device", "symbolic link", "irregular file".
func FileKind(m fs.FileMode) string { return regfile.Kind(m) }
