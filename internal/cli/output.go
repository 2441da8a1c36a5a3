package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/internal/atomicfile"
	"github.com/polynfi/polynfi/nfi"
)

// outputFlags are --out (-o; --output is its old spelling) and --statistics of score and diff.
type outputFlags struct {
	output     string
	statistics bool
}

func (o *outputFlags) register(c *cobra.Command) {
	c.Flags().StringVarP(&o.output, "out", "o", "", "write the result to FILE (atomically) instead of standard output")
	c.Flags().BoolVar(&o.statistics, "statistics", false, "print the number of findings per rule instead of the findings")
}

// write runs fill on standard output (buffered, flushed) or, with
// --out, on FILE, written atomically: a failed run leaves no partial
// file. Every write and flush error is returned.
func (o *outputFlags) write(e *env, fill func(io.Writer) error) error {
	if o.output == "" || o.output == "-" {
		w := bufio.NewWriter(e.stdout)
		if err := fill(w); err != nil {
			return err
		}
		return w.Flush()
	}
	if err := checkOutputFile("--out", o.output); err != nil {
		return err
	}
	// An error of fill that is not a write error (an input that cannot
	// be read) is returned as it is: nothing was written, so it does not
	// read "write FILE: ...".
	var fillErr error
	rec := &writeErrs{}
	err := atomicfile.WriteFunc(o.output, func(w io.Writer) error {
		rec.w = w
		bw := bufio.NewWriter(rec)
		if fillErr = fill(bw); fillErr != nil {
			return fillErr
		}
		return bw.Flush()
	})
	if fillErr != nil && rec.err == nil {
		return fillErr
	}
	return err
}

// writeErrs passes writes on to w and keeps the first write error.
type writeErrs struct {
	w   io.Writer
	err error
}

func (r *writeErrs) Write(p []byte) (int, error) {
	n, err := r.w.Write(p)
	if err != nil && r.err == nil {
		r.err = err
	}
	return n, err
}

// checkOutputFile checks, before any work, that path can be written as a
// file: it is not a directory (nor anything but a regular file) and its
// directory exists. A directory or non-regular file is a usage error
// (exit 2), a missing directory an I/O error (exit 3); both name the flag.
func checkOutputFile(flag, path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return usagef("%s %s is a directory: give a file path (e.g. %s)", flag, path, filepath.Join(path, "polynfi-output"))
	} else if err == nil && !st.Mode().IsRegular() {
		return usagef("%s %s is not a regular file (%s)", flag, path, nfi.FileKind(st.Mode()))
	}
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("%s %s: directory %s does not exist", flag, path, dir)
	}
	return nil
}
