package driver

import (
	"bufio"
	"io"
	"path/filepath"
	"strings"

	"github.com/polynfi/polynfi/internal/atomicfile"
	"github.com/polynfi/polynfi/nfi"
)

// FormatOutput is one output of a run: Format, a name of DiffFormats,
// written to the file Path, or to standard output when Path is "".
type FormatOutput struct {
	Format string
	Path   string
}

// ParseFormatOutputs parses the values of a repeatable --format flag, each
// "FORMAT" (standard output) or "FORMAT=PATH" (that file), FORMAT one of
// allowed. No value means the first of allowed on standard output. At
// most one output goes to standard output and no path is named twice
// (compared after filepath.Clean). Every violation, an unknown format and
// an empty PATH is a usage error naming the value.
func ParseFormatOutputs(values []string, allowed []string) ([]FormatOutput, error) {
	if len(values) == 0 {
		return []FormatOutput{{Format: allowed[0]}}, nil
	}
	var outs []FormatOutput
	stdout := ""
	paths := map[string]string{}
	for _, v := range values {
		name, path, hasPath := strings.Cut(v, "=")
		known := false
		for _, a := range allowed {
			known = known || a == name
		}
		if !known {
			return nil, usagef("--format %q: want one of %s, optionally with =PATH", v, strings.Join(allowed, ", "))
		}
		if hasPath {
			if path == "" {
				return nil, usagef("--format %q: empty PATH after =", v)
			}
			clean := filepath.Clean(path)
			if prev, dup := paths[clean]; dup {
				return nil, usagef("--format %q: %s is already the file of --format %q", v, path, prev)
			}
			paths[clean] = v
		} else {
			if stdout != "" {
				return nil, usagef("--format %q: --format %q already writes standard output; give one of them =PATH", v, stdout)
			}
			stdout = v
		}
		outs = append(outs, FormatOutput{Format: name, Path: path})
	}
	return outs, nil
}

// WriteFormats writes comparison c once per output of outs: the ones
// without a Path to stdout (buffered, flushed), the others each to its
// file atomically (internal/atomicfile: a failed write leaves no partial
// file, an existing file is replaced whole). The comparison is scored once
// and unchanged by the formatters, so every output shows the same run.
// statistics and maxShown are those of NewFormatter. The first error is
// returned, naming the file it concerns; outputs after it are not written.
func WriteFormats(stdout io.Writer, outs []FormatOutput, statistics bool, eng *nfi.Engine, c *Comparison, maxShown int) error {
	for _, o := range outs {
		f, err := NewFormatter(o.Format, eng, maxShown, statistics)
		if err != nil {
			return err
		}
		fill := func(w io.Writer) error {
			bw := bufio.NewWriter(w)
			if err := f.Write(bw, c); err != nil {
				return err
			}
			return bw.Flush()
		}
		if o.Path == "" {
			err = fill(stdout)
		} else {
			err = atomicfile.WriteFunc(o.Path, fill)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
