package mine

import (
	"fmt"
	"strings"
)

// OpKind is the kind of one line-diff operation.
type OpKind byte

// Line-diff operations.
const (
	OpEqual  OpKind = ' '
	OpDelete OpKind = '-'
	OpInsert OpKind = '+'
)

// LineOp is one line of a line diff: kept, deleted (only in a) or inserted
// (only in b). Text has no line terminator.
type LineOp struct {
	Kind OpKind
	Text string
}

// maxEditDistance bounds the Myers search (memory O(D²)); past it the
// differing middle is reported as wholly deleted and re-inserted, which
// over-counts the diff size of very large rewrites.
const maxEditDistance = 1500

// SplitLines splits s into lines without terminators; a final line without a
// newline counts, an empty s has no lines. "\r\n" endings lose their "\r".
func SplitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// LineDiff returns a shortest edit script from a to b (Myers' O(ND)
// algorithm after trimming the common prefix and suffix), deletions before
// insertions within a changed block.
// Source: E. W. Myers, "An O(ND) Difference Algorithm and Its Variations",
// Algorithmica 1(2), 1986.
func LineDiff(a, b []string) []LineOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ops := make([]LineOp, 0, len(a)+len(b)-pre-suf)
	for _, l := range a[:pre] {
		ops = append(ops, LineOp{OpEqual, l})
	}
	ops = append(ops, myers(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, LineOp{OpEqual, l})
	}
	return ops
}

func myers(a, b []string) []LineOp {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return replaceAll(a, b)
	}
	// Intern lines so that comparisons are integer compares.
	ids := map[string]int32{}
	ai, bi := make([]int32, n), make([]int32, m)
	for i, l := range a {
		id, ok := ids[l]
		if !ok {
			id = int32(len(ids))
			ids[l] = id
		}
		ai[i] = id
	}
	for i, l := range b {
		id, ok := ids[l]
		if !ok {
			id = int32(len(ids))
			ids[l] = id
		}
		bi[i] = id
	}
	maxD := min(n+m, maxEditDistance)
	off := maxD + 1
	v := make([]int32, 2*maxD+3)
	var trace [][]int32 // trace[d] = v[k] for k in [-d, d] after step d
	found := -1
	for d := 0; d <= maxD && found < 0; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = int(v[off+k+1]) // down: insertion
			} else {
				x = int(v[off+k-1]) + 1 // right: deletion
			}
			y := x - k
			for x < n && y < m && ai[x] == bi[y] {
				x, y = x+1, y+1
			}
			v[off+k] = int32(x)
			if x >= n && y >= m {
				found = d
			}
		}
		snap := make([]int32, 2*d+1)
		copy(snap, v[off-d:off+d+1])
		trace = append(trace, snap)
	}
	if found < 0 {
		return replaceAll(a, b)
	}
	// Walk back through the trace.
	var rev []LineOp
	x, y := n, m
	for d := found; d > 0; d-- {
		prev := trace[d-1] // indexes k+(d-1)
		at := func(k int) int { return int(prev[k+d-1]) }
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py {
			rev = append(rev, LineOp{OpEqual, a[x-1]})
			x, y = x-1, y-1
		}
		if pk == k+1 {
			rev = append(rev, LineOp{OpInsert, b[y-1]})
			y--
		} else {
			rev = append(rev, LineOp{OpDelete, a[x-1]})
			x--
		}
	}
	for x > 0 && y > 0 {
		rev = append(rev, LineOp{OpEqual, a[x-1]})
		x, y = x-1, y-1
	}
	ops := make([]LineOp, len(rev))
	for i, op := range rev {
		ops[len(rev)-1-i] = op
	}
	return normalize(ops)
}

// normalize puts deletions before insertions inside each changed block.
func normalize(ops []LineOp) []LineOp {
	out := make([]LineOp, 0, len(ops))
	for i := 0; i < len(ops); {
		if ops[i].Kind == OpEqual {
			out = append(out, ops[i])
			i++
			continue
		}
		j := i
		for j < len(ops) && ops[j].Kind != OpEqual {
			j++
		}
		for _, op := range ops[i:j] {
			if op.Kind == OpDelete {
				out = append(out, op)
			}
		}
		for _, op := range ops[i:j] {
			if op.Kind == OpInsert {
				out = append(out, op)
			}
		}
		i = j
	}
	return out
}

func replaceAll(a, b []string) []LineOp {
	ops := make([]LineOp, 0, len(a)+len(b))
	for _, l := range a {
		ops = append(ops, LineOp{OpDelete, l})
	}
	for _, l := range b {
		ops = append(ops, LineOp{OpInsert, l})
	}
	return ops
}

// DiffStat counts the lines only in before (deleted) and only in after
// (added) in a shortest line diff, like git's --numstat.
func DiffStat(ops []LineOp) (added, deleted int) {
	for _, op := range ops {
		switch op.Kind {
		case OpInsert:
			added++
		case OpDelete:
			deleted++
		}
	}
	return added, deleted
}

// UnifiedDiff renders ops as a unified diff with context lines around each
// change, with "--- a/path" and "+++ b/path" headers; "" when nothing
// changed. maxLines > 0 cuts the hunk lines after that many and ends with a
// "... (N more lines)" note.
func UnifiedDiff(path string, ops []LineOp, context, maxLines int) string {
	type hunk struct{ start, end int } // op indexes [start, end)
	var hunks []hunk
	for i, op := range ops {
		if op.Kind == OpEqual {
			continue
		}
		s, e := max(0, i-context), min(len(ops), i+1+context)
		if len(hunks) > 0 && s <= hunks[len(hunks)-1].end {
			hunks[len(hunks)-1].end = max(hunks[len(hunks)-1].end, e)
		} else {
			hunks = append(hunks, hunk{s, e})
		}
	}
	if len(hunks) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n", path, path)
	// Line numbers at each op index.
	oldLine, newLine := make([]int, len(ops)+1), make([]int, len(ops)+1)
	o, n := 1, 1
	for i, op := range ops {
		oldLine[i], newLine[i] = o, n
		if op.Kind != OpInsert {
			o++
		}
		if op.Kind != OpDelete {
			n++
		}
	}
	oldLine[len(ops)], newLine[len(ops)] = o, n
	written, total := 0, 0
	for _, h := range hunks {
		total += h.end - h.start
	}
	for _, h := range hunks {
		oc, nc := 0, 0
		for _, op := range ops[h.start:h.end] {
			if op.Kind != OpInsert {
				oc++
			}
			if op.Kind != OpDelete {
				nc++
			}
		}
		os, ns := oldLine[h.start], newLine[h.start]
		if oc == 0 {
			os--
		}
		if nc == 0 {
			ns--
		}
		fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", os, oc, ns, nc)
		for _, op := range ops[h.start:h.end] {
			if maxLines > 0 && written == maxLines {
				fmt.Fprintf(&b, "... (%d more lines)\n", total-written)
				return b.String()
			}
			b.WriteByte(byte(op.Kind))
			b.WriteString(op.Text)
			b.WriteByte('\n')
			written++
		}
	}
	return b.String()
}
