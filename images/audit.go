package images

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/runtime"
)

// ImageAudit is what an instance's image holds beyond what its task may
// show an agent: git history past the base commit (Beyond: commits
// reachable from some ref or the reflog but not from the base; Refs: every
// ref of the repository) and the gold patch's or the test patch's added
// lines in its files (Leaks). Clean is set when there is neither. Error
// says why the image could not be audited (then Clean is false).
type ImageAudit struct {
	InstanceID string   `json:"instance_id"`
	Image      string   `json:"image"`
	Workdir    string   `json:"workdir"`
	HasGit     bool     `json:"has_git"`
	BaseFound  bool     `json:"base_found"`
	Refs       []string `json:"refs"`
	Beyond     int      `json:"commits_beyond_base"`
	Leaks      []Leak   `json:"leaks"`
	Clean      bool     `json:"clean"`
	Error      string   `json:"error,omitempty"`
	ElapsedS   float64  `json:"elapsed_s"`
}

// Leak is one added line of the gold patch ("patch") or the test patch
// ("test_patch") found in a file of the image (Files: at most 5, absolute
// paths) that the repository's base commit does not hold anywhere.
type Leak struct {
	Source string   `json:"source"`
	Line   string   `json:"line"`
	Files  []string `json:"files"`
}

// Needle bounds: an added line is searched for when, trimmed, it is at
// least minNeedle bytes long (short lines such as "return x" are
// everywhere); at most maxNeedles lines of each patch, the longest first.
const (
	minNeedle  = 24
	maxNeedles = 8
)

// needles picks the added lines of patch worth searching for: trimmed,
// at least minNeedle bytes, printable, distinct, the longest maxNeedles.
func needles(patch string) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range strings.Split(patch, "\n") {
		if !strings.HasPrefix(l, "+") || strings.HasPrefix(l, "+++") {
			continue
		}
		n := strings.TrimSpace(l[1:])
		if len(n) < minNeedle || seen[n] || strings.ContainsFunc(n, func(r rune) bool { return r < ' ' || r == 0x7f }) {
			continue
		}
		seen[n] = true
		out = append(out, n)
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	if len(out) > maxNeedles {
		out = out[:maxNeedles]
	}
	return out
}

// auditScript prints, for the repository in the working directory: HASGIT,
// BASE (whether the base commit is there), REF lines (every ref), BEYOND
// (commits of every ref and the reflog not reachable from the base), and
// for each needle file line not held by the base commit's tree, HIT lines
// naming the files of the image that hold it (the work tree without .git,
// and /tmp, /root, /home, /opt, /srv, /var/tmp; the audit's own directory
// excepted), at most 5 each.
const auditScript = `set -u
cd "$POLYNFI_WD" 2>/dev/null || { echo "NOWD"; exit 0; }
if git rev-parse --git-dir >/dev/null 2>&1; then
  echo HASGIT
  if git cat-file -e "$POLYNFI_BASE^{commit}" 2>/dev/null; then
    echo BASE
    echo "BEYOND $( { git rev-list --all --not "$POLYNFI_BASE" 2>/dev/null; git reflog --format=%H 2>/dev/null | xargs -r git rev-list --not "$POLYNFI_BASE" 2>/dev/null; } | sort -u | wc -l)"
  else
    echo "BEYOND $(git rev-list --all 2>/dev/null | wc -l)"
  fi
  git for-each-ref --format='REF %(refname)' 2>/dev/null
fi
i=0
while IFS= read -r n; do
  i=$((i+1))
  [ -z "$n" ] && continue
  if git rev-parse --git-dir >/dev/null 2>&1 && git cat-file -e "$POLYNFI_BASE^{commit}" 2>/dev/null && git grep -qF -e "$n" "$POLYNFI_BASE" -- 2>/dev/null; then
    continue
  fi
  grep -rlF --exclude-dir=.git --exclude-dir=.polynfi-audit -e "$n" "$POLYNFI_WD" /tmp /root /home /opt /srv /var/tmp 2>/dev/null | head -5 | sed "s|^|HIT $i |"
done < "$POLYNFI_NEEDLES"
`

// AuditImage starts a sandbox of rt from image (no network), with the
// repository of instance in at workdir, and audits it (see ImageAudit). A
// failure to start or run is in the result's Error; the error is non-nil
// only when ctx is cancelled.
func AuditImage(ctx context.Context, rt runtime.Runtime, image, workdir string, in dataset.Instance) (a ImageAudit, err error) {
	t0 := time.Now()
	a = ImageAudit{InstanceID: in.InstanceID, Image: image, Workdir: workdir, Refs: []string{}, Leaks: []Leak{}}
	defer func() { a.ElapsedS = time.Since(t0).Seconds() }()
	sb, err := rt.Start(ctx, runtime.Spec{Name: "audit-" + in.InstanceID, Image: image, Workdir: workdir,
		Labels: map[string]string{"polynfi.instance": in.InstanceID, "polynfi.audit": "image"}})
	if sb != nil {
		defer sb.Remove(context.WithoutCancel(ctx))
	}
	if err != nil {
		if ctx.Err() != nil {
			return a, ctx.Err()
		}
		a.Error = "start: " + err.Error()
		return a, nil
	}
	type needle struct{ source, line string }
	var ns []needle
	for _, src := range []struct{ name, patch string }{{"patch", in.Patch}, {"test_patch", in.TestPatch}} {
		for _, n := range needles(src.patch) {
			ns = append(ns, needle{src.name, n})
		}
	}
	var list bytes.Buffer
	for _, n := range ns {
		list.WriteString(n.line + "\n")
	}
	const dir = "/tmp/.polynfi-audit"
	if err := sb.CopyIn(ctx, dir, []runtime.File{{Path: "needles", Data: list.Bytes()}, {Path: "audit.sh", Data: []byte(auditScript)}}); err != nil {
		if ctx.Err() != nil {
			return a, ctx.Err()
		}
		a.Error = "copy in: " + err.Error()
		return a, nil
	}
	res, err := sb.Exec(ctx, runtime.Command{Script: "exec bash " + dir + "/audit.sh", Timeout: 10 * time.Minute,
		Env: []string{"POLYNFI_WD=" + workdir, "POLYNFI_BASE=" + in.BaseCommit, "POLYNFI_NEEDLES=" + dir + "/needles"}})
	if err != nil {
		if ctx.Err() != nil {
			return a, ctx.Err()
		}
		a.Error = "run: " + err.Error()
		return a, nil
	}
	if res.ExitCode != 0 || res.TimedOut {
		a.Error = fmt.Sprintf("the audit script exited %d (timed out %v): %s", res.ExitCode, res.TimedOut, lastLine(res.Stderr))
		return a, nil
	}
	hits := map[int][]string{}
	sc := bufio.NewScanner(bytes.NewReader(res.Stdout))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case l == "NOWD":
			a.Error = "no directory " + workdir + " in the image"
		case l == "HASGIT":
			a.HasGit = true
		case l == "BASE":
			a.BaseFound = true
		case strings.HasPrefix(l, "BEYOND "):
			a.Beyond, _ = strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(l, "BEYOND ")))
		case strings.HasPrefix(l, "REF "):
			a.Refs = append(a.Refs, strings.TrimPrefix(l, "REF "))
		case strings.HasPrefix(l, "HIT "):
			f := strings.SplitN(l, " ", 3)
			if len(f) == 3 {
				if i, err := strconv.Atoi(f[1]); err == nil && i >= 1 && i <= len(ns) {
					hits[i-1] = append(hits[i-1], f[2])
				}
			}
		}
	}
	for i, n := range ns {
		if len(hits[i]) > 0 {
			a.Leaks = append(a.Leaks, Leak{Source: n.source, Line: n.line, Files: hits[i]})
		}
	}
	a.Clean = a.Error == "" && a.Beyond == 0 && len(a.Leaks) == 0
	return a, nil
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}

// Verdict says in one line what the audit found: "clean", "not audited:
// " and the error, or the commits beyond the base (with the refs) and each
// leaked line's source and files, joined by "; ".
func (a ImageAudit) Verdict() string {
	switch {
	case a.Error != "":
		return "not audited: " + a.Error
	case a.Clean:
		return "clean"
	}
	var why []string
	if a.Beyond > 0 {
		why = append(why, fmt.Sprintf("%d commit(s) beyond the base (refs: %s)", a.Beyond, strings.Join(a.Refs, ", ")))
	}
	for _, l := range a.Leaks {
		why = append(why, fmt.Sprintf("a line of the %s in %s", l.Source, strings.Join(l.Files, ", ")))
	}
	return strings.Join(why, "; ")
}
