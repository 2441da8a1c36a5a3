// Package diff reads unified diffs (git and plain) into files, hunks and the
// old/new line numbers of every removed and added line, and applies a file's
// hunks to its old content in memory.
//
// Parsing is strict and goes through github.com/bluekeyes/go-gitdiff: a hunk
// whose header miscounts its lines is an error. ScanPaths is the lenient
// counterpart that reads only file headers, the way SWE-PolyBench lists the
// files of a patch, and never fails.
//
// The package knows nothing about repositories, tests or metrics.
package diff

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
	"github.com/polynfi/polynfi/internal/safepath"
)

// DevNull is the path a diff gives to the missing side of an added or deleted
// file.
const DevNull = "/dev/null"

// Op says what a hunk line does.
type Op int

// The line operations of a hunk.
const (
	Context Op = iota // present in both versions
	Delete            // present only in the old version ("-")
	Add               // present only in the new version ("+")
)

// String returns " ", "-" or "+".
func (o Op) String() string {
	switch o {
	case Delete:
		return "-"
	case Add:
		return "+"
	}
	return " "
}

// Line is one line of a hunk.
type Line struct {
	Op Op
	// Text is the line's content without its line terminator ("\n"); a
	// carriage return that belongs to the content (CRLF files) is kept.
	Text string
	// OldLine and NewLine are 1-based line numbers in the old and new file;
	// OldLine is 0 for an added line, NewLine is 0 for a removed line.
	OldLine, NewLine int
	// NoEOL is true when the line is followed by "\ No newline at end of file".
	NoEOL bool
}

// Hunk is one "@@ -OldStart,OldCount +NewStart,NewCount @@ Section" block.
// Starts are 1-based line numbers (0 when the side is empty, as in
// "@@ -0,0 +1,3 @@"); counts are line counts.
type Hunk struct {
	OldStart, OldCount int
	NewStart, NewCount int
	Section            string // text after the second "@@", trimmed
	Lines              []Line
}

// File is the change to one file. Paths are repository-relative, with git's
// "a/" and "b/" prefixes removed.
type File struct {
	// OldPath is "" for an added file; NewPath is "" for a deleted file.
	OldPath, NewPath string

	IsNew, IsDelete, IsRename, IsCopy bool
	// IsBinary is true for "Binary files ... differ" and "GIT binary patch"
	// sections; such files have no Hunks.
	IsBinary bool

	// OldMode and NewMode are git file modes as the diff states them
	// (0o100644 regular, 0o100755 executable, 0o120000 symlink, 0o160000
	// submodule); 0 for the missing side of an added or deleted file and
	// when the diff states none. The mode of an "index" line applies to
	// both sides.
	OldMode, NewMode uint32

	// Hunks are in file order. A pure rename, a mode change or an empty
	// added file has none.
	Hunks []Hunk

	raw *gitdiff.File
}

// Path returns the file's path after the change, or its old path when the
// file is deleted.
func (f File) Path() string {
	if f.IsDelete || f.NewPath == "" {
		return f.OldPath
	}
	return f.NewPath
}

// RemovedLines returns the 1-based old-file line numbers of every removed
// line, ascending.
func (f File) RemovedLines() []int {
	var out []int
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			if l.Op == Delete {
				out = append(out, l.OldLine)
			}
		}
	}
	return out
}

// AddedLines returns the 1-based new-file line numbers of every added line,
// ascending.
func (f File) AddedLines() []int {
	var out []int
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			if l.Op == Add {
				out = append(out, l.NewLine)
			}
		}
	}
	return out
}

// Parse reads a patch of one or more files. Text before the first file
// (a commit message, blank lines) is ignored. An empty or blank patch gives
// no files and no error.
//
// Errors: a malformed file header or hunk (including a hunk whose header
// counts disagree with its lines) is an error naming the patch line and, when
// known, the file. Parse returns no files when it returns an error.
//
// A patch saved with CRLF line ends (its first header line ends in
// "\r\n": every line does) is read as GNU patch reads it: one trailing
// "\r" is stripped from each line, so its paths have no CR and its lines
// match LF files. In a patch with LF headers a CR before the newline is
// content (a CRLF file) and is kept.
func Parse(patch string) ([]File, error) {
	patch = stripCRLF(patch)
	var files []File
	for _, sec := range gitSections(patch) {
		raws, _, err := gitdiff.Parse(strings.NewReader(sec.text))
		if err != nil {
			name := sec.name
			if name == "" && len(raws) > 0 {
				name = displayName(raws[len(raws)-1])
			}
			if name == "" {
				return nil, fmt.Errorf("parse diff (patch lines %d-%d): %w", sec.first, sec.last, err)
			}
			return nil, fmt.Errorf("parse diff of %s (patch lines %d-%d): %w", name, sec.first, sec.last, err)
		}
		if sec.name == "" {
			fixTraditionalNames(sec.text, raws)
		}
		for _, r := range raws {
			f, err := convert(r)
			if err != nil {
				return nil, fmt.Errorf("parse diff of %s (patch lines %d-%d): %w", displayName(r), sec.first, sec.last, err)
			}
			files = append(files, f)
		}
	}
	return files, nil
}

// stripCRLF returns patch with one "\r" removed before every "\n" when
// the patch's first header line ("diff --git ", "--- ", "Index: ") ends
// in "\r\n", patch unchanged otherwise. Source: GNU patch 2.7, pch.c
// (a patch whose header lines end in CRLF has its trailing CRs stripped:
// "Stripping trailing CRs from patch; use --binary to disable").
func stripCRLF(patch string) string {
	for rest := patch; rest != ""; {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i+1], rest[i+1:]
		} else {
			rest = ""
		}
		if strings.HasPrefix(line, "diff --git ") || strings.HasPrefix(line, "--- ") || strings.HasPrefix(line, "Index: ") {
			if !strings.HasSuffix(line, "\r\n") {
				return patch
			}
			return strings.ReplaceAll(patch, "\r\n", "\n")
		}
	}
	return patch
}

type section struct {
	text        string
	name        string // b/ path of the "diff --git" line, "" when unknown
	first, last int    // 1-based patch line range
}

// gitSections splits a patch at its "diff --git" lines so that a parse error
// can name its file; a patch without such lines is one section.
func gitSections(patch string) []section {
	lines := strings.SplitAfter(patch, "\n")
	var starts []int
	for i, l := range lines {
		if strings.HasPrefix(l, "diff --git ") {
			starts = append(starts, i)
		}
	}
	if len(starts) == 0 {
		return []section{{text: patch, first: 1, last: len(lines)}}
	}
	out := make([]section, 0, len(starts))
	for k, st := range starts {
		end := len(lines)
		if k+1 < len(starts) {
			end = starts[k+1]
		}
		name := ""
		if m := reGitCmd().FindStringSubmatch(strings.TrimRight(lines[st], "\r\n")); m != nil {
			name = m[2]
		}
		out = append(out, section{text: strings.Join(lines[st:end], ""), name: name, first: st + 1, last: end})
	}
	return out
}

// fixTraditionalNames strips the "a/" and "b/" prefixes that go-gitdiff
// keeps in plain unified diffs ("--- a/x" / "+++ b/x"), as `git apply`
// (-p1) does. A prefix is stripped only when both sides carry theirs (or the
// other side is /dev/null), so a plain "--- x.py" keeps its name.
func fixTraditionalNames(text string, raws []*gitdiff.File) {
	lines := strings.Split(text, "\n")
	type pair struct{ old, new string }
	var pairs []pair
	for i := 0; i+2 < len(lines); i++ {
		if strings.HasPrefix(lines[i], "--- ") && strings.HasPrefix(lines[i+1], "+++ ") && strings.HasPrefix(lines[i+2], "@@ -") {
			name := func(l string) string {
				l = strings.TrimRight(l[4:], "\r")
				if j := strings.IndexByte(l, '\t'); j >= 0 {
					l = l[:j]
				}
				return l
			}
			pairs = append(pairs, pair{name(lines[i]), name(lines[i+1])})
			i += 2
		}
	}
	if len(pairs) != len(raws) {
		return
	}
	for k, r := range raws {
		o, n := pairs[k].old, pairs[k].new
		okOld := strings.HasPrefix(o, "a/") || o == DevNull
		okNew := strings.HasPrefix(n, "b/") || n == DevNull
		if !okOld || !okNew {
			continue
		}
		if r.OldName != "" {
			r.OldName = strings.TrimPrefix(o, "a/")
		}
		if r.NewName != "" {
			r.NewName = strings.TrimPrefix(n, "b/")
		}
		if r.OldName != "" && r.NewName != "" && r.OldName != r.NewName {
			r.IsRename = true
		}
	}
}

func displayName(r *gitdiff.File) string {
	if r.NewName != "" {
		return r.NewName
	}
	return r.OldName
}

func convert(r *gitdiff.File) (File, error) {
	f := File{
		OldPath:  r.OldName,
		NewPath:  r.NewName,
		IsNew:    r.IsNew,
		IsDelete: r.IsDelete,
		IsRename: r.IsRename,
		IsCopy:   r.IsCopy,
		IsBinary: r.IsBinary,
		OldMode:  uint32(r.OldMode),
		NewMode:  uint32(r.NewMode),
		raw:      r,
	}
	if !f.IsNew && !f.IsDelete && f.NewMode == 0 {
		f.NewMode = f.OldMode
	}
	// Plain unified diffs name a missing side /dev/null without saying
	// "new file"; go-gitdiff already maps that to an empty name, but keep
	// the flags consistent either way.
	if f.OldPath == DevNull {
		f.OldPath = ""
	}
	if f.NewPath == DevNull {
		f.NewPath = ""
	}
	if f.OldPath == "" && f.NewPath != "" {
		f.IsNew = true
	}
	if f.NewPath == "" && f.OldPath != "" {
		f.IsDelete = true
	}
	prevOld, prevNew := 0, 0 // last line of the previous hunk on each side
	for i, frag := range r.TextFragments {
		if err := frag.Validate(); err != nil {
			return File{}, fmt.Errorf("hunk %d (%s): %w", i+1, strings.TrimSpace(frag.Header()), err)
		}
		if frag.OldPosition < 0 || frag.NewPosition < 0 ||
			(frag.OldLines > 0 && frag.OldPosition == 0) || (frag.NewLines > 0 && frag.NewPosition == 0) {
			return File{}, fmt.Errorf("hunk %d (%s): line numbers out of range", i+1, strings.TrimSpace(frag.Header()))
		}
		h := Hunk{
			OldStart: int(frag.OldPosition),
			OldCount: int(frag.OldLines),
			NewStart: int(frag.NewPosition),
			NewCount: int(frag.NewLines),
			Section:  strings.TrimSpace(frag.Comment),
			Lines:    make([]Line, 0, len(frag.Lines)),
		}
		// A side with zero lines names the line before the hunk
		// ("@@ -0,0 +1 @@", "@@ -5,0 +6,2 @@"), so numbering starts after it.
		oldNo, newNo := h.OldStart, h.NewStart
		if h.OldCount == 0 {
			oldNo++
		}
		if h.NewCount == 0 {
			newNo++
		}
		if oldNo <= prevOld || newNo <= prevNew {
			return File{}, fmt.Errorf("hunk %d (%s): overlaps or precedes the previous hunk", i+1, strings.TrimSpace(frag.Header()))
		}
		prevOld, prevNew = oldNo+h.OldCount-1, newNo+h.NewCount-1
		for _, fl := range frag.Lines {
			l := Line{Text: strings.TrimSuffix(fl.Line, "\n"), NoEOL: fl.NoEOL()}
			switch fl.Op {
			case gitdiff.OpContext:
				l.Op, l.OldLine, l.NewLine = Context, oldNo, newNo
				oldNo++
				newNo++
			case gitdiff.OpDelete:
				l.Op, l.OldLine = Delete, oldNo
				oldNo++
			case gitdiff.OpAdd:
				l.Op, l.NewLine = Add, newNo
				newNo++
			}
			h.Lines = append(h.Lines, l)
		}
		f.Hunks = append(f.Hunks, h)
	}
	return f, nil
}

// ErrConflict is wrapped by Apply's error when the old content does not
// match the hunks' context or removed lines.
var ErrConflict = errors.New("patch does not match file content")

// Apply returns the content of f after its change, given old, the content
// before it (nil or empty for an added file). A deleted file gives empty
// content. Hunks must match old exactly at their stated lines, as with
// `git apply` without --recount or fuzz.
//
// Errors: a mismatch wraps ErrConflict and names the file and line; a
// File that did not come from Parse is an error.
func Apply(old []byte, f File) ([]byte, error) {
	if f.raw == nil {
		return nil, fmt.Errorf("apply patch to %s: file was not produced by Parse", f.Path())
	}
	if f.IsDelete {
		return []byte{}, nil
	}
	if f.IsBinary && f.raw.BinaryFragment == nil {
		return nil, fmt.Errorf("apply patch to %s: binary change without data", f.Path())
	}
	var out bytes.Buffer
	if err := gitdiff.Apply(&out, bytes.NewReader(old), f.raw); err != nil {
		var ae *gitdiff.ApplyError
		if errors.As(err, &ae) && errors.Is(err, &gitdiff.Conflict{}) {
			return nil, fmt.Errorf("apply patch to %s at line %d (hunk %d): %w: %v", f.Path(), ae.Line, ae.Fragment, ErrConflict, err)
		}
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, &gitdiff.Conflict{}) {
			return nil, fmt.Errorf("apply patch to %s: %w: %v", f.Path(), ErrConflict, err)
		}
		return nil, fmt.Errorf("apply patch to %s: %w", f.Path(), err)
	}
	return out.Bytes(), nil
}

// CheckPath reports whether p is a safe repository-relative path: not
// empty, not absolute, no "..", "." or empty element, no backslash, no NUL,
// and not inside .git. It returns a descriptive error otherwise. It is meant
// for the paths of File before writing anything to a work tree.
func CheckPath(p string) error {
	return safepath.Check(p)
}
