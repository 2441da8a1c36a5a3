package diff

import (
	"fmt"
	"path"
	"strings"

	"github.com/polynfi/polynfi/internal/safepath"
)

// CheckPatch rejects a patch that would write outside root or inside .git:
// every old and new path of every file must pass safepath.Under (no "..",
// no absolute path, no .git element, no existing symbolic link on the way;
// a file that the patch states is a link may be the link itself), a
// symbolic link the patch creates must point inside root, and no other file
// of the patch may lie under a link the patch creates. Paths come from the
// strict parser; a patch the strict parser cannot read is checked through
// the lenient header scan (ScanPaths) and parsed reports false: only tools
// that check paths themselves (git apply) may then apply it, never one
// that writes whatever its own, more lenient parser finds (GNU patch).
// The error wraps safepath.ErrUnsafe.
func CheckPatch(root, patch string) (parsed []File, err error) {
	return CheckPatchFS(safepath.RootLstat(root), patch)
}

// PatchPaths returns every old and new path a patch names (strict parse,
// or the lenient header scan when it does not parse), /dev/null left out:
// the paths CheckPatchFS looks up.
func PatchPaths(patch string) []string {
	var out []string
	if files, err := Parse(patch); err == nil {
		for _, f := range files {
			for _, q := range []string{f.OldPath, f.NewPath} {
				if q != "" && q != DevNull {
					out = append(out, q)
				}
			}
		}
		return out
	}
	for _, p := range ScanPaths(patch) {
		for _, q := range []string{p.Old, p.New} {
			if q != "" && q != DevNull {
				out = append(out, q)
			}
		}
	}
	return out
}

// CheckPatchFS is CheckPatch over the tree lstat reads (safepath.UnderFS).
func CheckPatchFS(lstat safepath.Lstat, patch string) (parsed []File, err error) {
	files, perr := Parse(patch)
	if perr != nil {
		for _, p := range ScanPaths(patch) {
			for _, q := range []string{p.Old, p.New} {
				if q == "" || q == DevNull {
					continue
				}
				if err := safepath.UnderFS(lstat, q, false); err != nil {
					return nil, err
				}
			}
		}
		return nil, nil
	}
	links := map[string]bool{}
	for _, f := range files {
		if f.NewMode == 0o120000 && !f.IsDelete {
			links[f.NewPath] = true
		}
	}
	for _, f := range files {
		link := f.OldMode == 0o120000 || f.NewMode == 0o120000
		for _, q := range []string{f.OldPath, f.NewPath} {
			if q == "" || q == DevNull {
				continue
			}
			if err := safepath.UnderFS(lstat, q, link); err != nil {
				return nil, err
			}
			for d := path.Dir(q); d != "." && d != "/"; d = path.Dir(d) {
				if links[d] {
					return nil, fmt.Errorf("%w: %s lies under %s, a symbolic link the patch creates", safepath.ErrUnsafe, q, d)
				}
			}
		}
		if f.NewMode == 0o120000 && !f.IsDelete {
			var target strings.Builder
			for _, h := range f.Hunks {
				for _, l := range h.Lines {
					if l.Op == Add {
						target.WriteString(l.Text)
					}
				}
			}
			if err := safepath.LinkTarget(f.NewPath, target.String()); err != nil {
				return nil, err
			}
		}
		if f.IsBinary && (f.NewMode == 0o120000) {
			return nil, fmt.Errorf("%w: %s: a binary symbolic link cannot be checked", safepath.ErrUnsafe, f.NewPath)
		}
	}
	return files, nil
}

// Canonical renders files as a plain unified diff with "a/" and "b/"
// prefixes, holding nothing but what the strict parser read: text hunks of
// regular files, additions and deletions. It is what polynfi hands to GNU
// patch (which reads context, normal and ed diffs, Index: and Prereq:
// lines, and file names from more places than a unified header): patch then
// sees only paths that CheckPatch has checked. ok is false, with the
// reason, for a patch it cannot render so: a rename, copy, mode change,
// binary file, symbolic link or submodule, or a path with white space,
// quotes or control characters (GNU patch would read it differently).
func Canonical(files []File) (out string, ok bool, reason string) {
	var b strings.Builder
	for _, f := range files {
		name := f.Path()
		switch {
		case f.IsRename || f.IsCopy:
			return "", false, name + ": rename or copy"
		case f.IsBinary:
			return "", false, name + ": binary file"
		case f.OldMode == 0o120000 || f.NewMode == 0o120000 || f.OldMode == 0o160000 || f.NewMode == 0o160000:
			return "", false, name + ": symbolic link or submodule"
		case f.OldMode != 0 && f.NewMode != 0 && f.OldMode != f.NewMode:
			return "", false, name + ": mode change"
		}
		for _, p := range []string{f.OldPath, f.NewPath} {
			if strings.ContainsFunc(p, func(r rune) bool { return r <= ' ' || r == '"' || r == '\'' || r == 0x7f }) {
				return "", false, fmt.Sprintf("path %q has white space, a quote or a control character", p)
			}
		}
		if len(f.Hunks) == 0 {
			return "", false, name + ": no hunk"
		}
		oldName, newName := "a/"+f.OldPath, "b/"+f.NewPath
		if f.IsNew || f.OldPath == "" {
			oldName = DevNull
		}
		if f.IsDelete || f.NewPath == "" {
			newName = DevNull
		}
		fmt.Fprintf(&b, "--- %s\n+++ %s\n", oldName, newName)
		for _, h := range f.Hunks {
			fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", h.OldStart, h.OldCount, h.NewStart, h.NewCount)
			for _, l := range h.Lines {
				b.WriteString(l.Op.String())
				b.WriteString(l.Text)
				b.WriteByte('\n')
				if l.NoEOL {
					b.WriteString("\\ No newline at end of file\n")
				}
			}
		}
	}
	if b.Len() == 0 {
		return "", false, "no file"
	}
	return b.String(), true, ""
}
