package diff

import (
	"regexp"
	"strings"
	"sync"
)

// Paths are the two sides of one file section as ScanPaths reads them from
// the headers. Old is DevNull for an added file and New is DevNull for a
// deleted one; otherwise both are repository-relative with the "a/" and "b/"
// prefixes removed.
type Paths struct {
	Old, New string
}

// CompatKey is the file key SWE-PolyBench uses: the old path, so that every
// added file is the key "/dev/null".
//
// Source: SWE-PolyBench src/poly_bench_evaluation/metrics/patch_utils.py
// (Patch._get_files: whatthepatch header.old_path with "a/" stripped).
func (p Paths) CompatKey() string { return p.Old }

// ExtendedKey is polynfi's file key: the old path, or the new path for an
// added file.
func (p Paths) ExtendedKey() string {
	if p.Old == DevNull || p.Old == "" {
		return p.New
	}
	return p.Old
}

// CompatKey returns the SWE-PolyBench file key of a parsed file: its old
// path, DevNull for an added file (see Paths.CompatKey).
func (f File) CompatKey() string {
	if f.OldPath == "" {
		return DevNull
	}
	return f.OldPath
}

// ExtendedKey returns the old path of f, or its new path when f is added.
func (f File) ExtendedKey() string {
	if f.OldPath == "" {
		return f.NewPath
	}
	return f.OldPath
}

var (
	// A "diff" command line with at least two operands: the section
	// separator. Source: whatthepatch diffcmd_header.
	reDiffCmd = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^diff(?: .+)? (.+) (.+)$`) })
	reGitCmd  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^diff --git a/(.+) b/(.+)$`) })
	// The dots are unescaped in the source tool as well.
	reIndex      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^index ([a-f0-9]+)..([a-f0-9]+) ?(\d*)$`) })
	reOld        = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^--- (.+)$`) })
	reNew        = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\+\+\+ (.+)$`) })
	reBinary     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Binary files (.+) and (.+) differ`) })
	reUnifiedOld = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^--- (.+?)(?:\t|:|  +)(.*)$`) })
	reUnifiedNew = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\+\+\+ (.+?)(?:\t|:|  +)(.*)$`) })
	reHunk       = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^@@ -(\d+),?(\d*) \+(\d+),?(\d*) @@(.*)$`) })
)

// ScanPaths lists the file sections of a patch from their headers alone, in
// patch order, the way SWE-PolyBench reads them; it never fails and accepts
// hunks whose counts are wrong. Duplicates are kept.
//
// Rules (those of whatthepatch, which SWE-PolyBench uses): sections start at
// "diff ..." lines; in a git section with an "index" line the paths come from
// the first "---"/"+++" pair or "Binary files X and Y differ" line, else from
// "diff --git a/X b/Y" with DevNull for an all-zero 7-digit blob id; in a
// section without an "index" line (pure renames, mode changes) the paths are
// the operands of the "diff" line. "a/" is stripped as often as the tool
// strips it (up to three times for an old path in a git section, so a
// repository directory literally named "a" is lost, as it is there). A patch
// without "diff" lines is one section unless its "---" headers carry
// timestamps. Sections with neither a header nor a hunk are skipped.
//
// Source: cscorley/whatthepatch patch.py (parse_patch, parse_scm_header,
// parse_git_header, parse_diff_header); SWE-PolyBench patch_utils.py.
func ScanPaths(patch string) []Paths {
	lines := splitLines(patch)
	var out []Paths
	for _, sec := range sections(lines) {
		p, ok := sectionPaths(sec)
		if !ok {
			if !hasHunk(sec) {
				continue
			}
			// The source tool crashes here (a hunk without a header);
			// report the section with empty paths.
		}
		p.Old = cleanKey(p.Old)
		p.New = cleanKey(p.New)
		out = append(out, p)
	}
	return out
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	ls := strings.Split(s, "\n")
	for i, l := range ls {
		ls[i] = strings.TrimSuffix(l, "\r")
	}
	return ls
}

func sections(lines []string) [][]string {
	split := func(re *regexp.Regexp) [][]string {
		var out [][]string
		start := -1
		for i, l := range lines {
			if !re.MatchString(l) {
				continue
			}
			if start < 0 {
				out = append(out, lines[:i])
			} else {
				out = append(out, lines[start:i])
			}
			start = i
		}
		if start < 0 {
			return [][]string{lines}
		}
		return append(out, lines[start:])
	}
	if s := split(reDiffCmd()); len(s) > 1 {
		return s
	}
	if s := split(reUnifiedOld()); len(s) > 1 {
		return s
	}
	return [][]string{lines}
}

func stripA(s string) string { return strings.TrimPrefix(s, "a/") }
func stripB(s string) string { return strings.TrimPrefix(s, "b/") }

func sectionPaths(sec []string) (Paths, bool) {
	hasIndex, hasGitCmd := false, false
	for _, l := range sec {
		if reIndex().MatchString(l) {
			hasIndex = true
		}
		if reGitCmd().MatchString(l) {
			hasGitCmd = true
		}
	}
	if hasIndex {
		if p, ok := gitHeader(sec); ok {
			if !hasGitCmd {
				return Paths{Old: stripA(p.Old), New: p.New}, true
			}
			// Stripped in the git header parser, again by the SCM header
			// parser and once more by SWE-PolyBench.
			return Paths{Old: stripA(stripA(p.Old)), New: p.New}, true
		}
	}
	// Plain diff header: timestamped unified pair, then the "diff" command
	// operands, then a bare "---"/"+++" pair.
	for _, l := range sec {
		if reUnifiedNew().MatchString(l) {
			for i := 0; i+1 < len(sec); i++ {
				o := reUnifiedOld().FindStringSubmatch(sec[i])
				if o == nil {
					continue
				}
				n := reUnifiedNew().FindStringSubmatch(sec[i+1])
				if n == nil {
					i++
					continue
				}
				return Paths{Old: stripA(o[1]), New: stripB(n[1])}, true
			}
			return Paths{}, false
		}
	}
	for _, l := range sec {
		if m := reDiffCmd().FindStringSubmatch(l); m != nil {
			return Paths{Old: stripA(m[1]), New: stripB(m[2])}, true
		}
	}
	for _, l := range sec {
		if reNew().MatchString(l) {
			p, ok := gitHeader(sec)
			if !ok {
				return Paths{}, false
			}
			return Paths{Old: stripA(p.Old), New: p.New}, true
		}
	}
	return Paths{}, false
}

// gitHeader returns paths with one "a/"/"b/" strip applied, as whatthepatch's
// parse_git_header does.
func gitHeader(sec []string) (Paths, bool) {
	var oldP, newP, cmdOld, cmdNew, oldV, newV string
	for _, l := range sec {
		if m := reGitCmd().FindStringSubmatch(l); m != nil {
			cmdOld, cmdNew = m[1], m[2]
			continue
		}
		if m := reIndex().FindStringSubmatch(l); m != nil {
			oldV, newV = m[1], m[2]
			continue
		}
		if m := reOld().FindStringSubmatch(l); m != nil {
			oldP = m[1]
		}
		if m := reNew().FindStringSubmatch(l); m != nil {
			newP = m[1]
		}
		if m := reBinary().FindStringSubmatch(l); m != nil {
			oldP, newP = m[1], m[2]
		}
		if oldP != "" && newP != "" {
			return Paths{Old: stripA(oldP), New: stripB(newP)}, true
		}
	}
	if cmdOld != "" && cmdNew != "" && oldV != "" && newV != "" {
		p := Paths{Old: stripA(cmdOld), New: stripB(cmdNew)}
		if oldV == "0000000" {
			p.Old = DevNull
		}
		if newV == "0000000" {
			p.New = DevNull
		}
		return p, true
	}
	return Paths{}, false
}

func hasHunk(sec []string) bool {
	for _, l := range sec {
		if reHunk().MatchString(l) || l == "GIT binary patch" {
			return true
		}
	}
	return false
}

// cleanKey normalizes a path the way Python's pathlib.Path does when
// SWE-PolyBench turns it back into a string: repeated and trailing slashes
// and "." elements go, ".." stays.
func cleanKey(p string) string {
	if p == "" {
		return ""
	}
	abs := strings.HasPrefix(p, "/")
	var els []string
	for _, el := range strings.Split(p, "/") {
		if el == "" || el == "." {
			continue
		}
		els = append(els, el)
	}
	s := strings.Join(els, "/")
	switch {
	case abs:
		return "/" + s
	case s == "":
		return "."
	}
	return s
}
