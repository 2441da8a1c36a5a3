package retrieval

import (
	"fmt"
	"strings"
)

// change is one file of a test patch: before == "" with isNew for an added
// file, after == "" with isDel for a deleted one.
type change struct {
	oldPath, newPath string
	before, after    string
	isNew, isDel     bool
}

func modify(p, before, after string) change {
	return change{oldPath: p, newPath: p, before: before, after: after}
}

// mkPatch writes a git-style patch with one hunk per file that holds the
// whole file as context, the changed lines found by a longest common
// subsequence. Test inputs end with a newline.
func mkPatch(cs ...change) string {
	var b strings.Builder
	for _, c := range cs {
		a := splitKeep(c.before)
		z := splitKeep(c.after)
		fmt.Fprintf(&b, "diff --git a/%s b/%s\n", c.oldPath, c.newPath)
		switch {
		case c.isNew:
			fmt.Fprintf(&b, "new file mode 100644\nindex 0000000..1111111\n--- /dev/null\n+++ b/%s\n", c.newPath)
		case c.isDel:
			fmt.Fprintf(&b, "deleted file mode 100644\nindex 1111111..0000000\n--- a/%s\n+++ /dev/null\n", c.oldPath)
		default:
			if c.oldPath != c.newPath {
				fmt.Fprintf(&b, "similarity index 80%%\nrename from %s\nrename to %s\n", c.oldPath, c.newPath)
			}
			fmt.Fprintf(&b, "index 1111111..2222222 100644\n--- a/%s\n+++ b/%s\n", c.oldPath, c.newPath)
		}
		oldStart, newStart := 1, 1
		if len(a) == 0 {
			oldStart = 0
		}
		if len(z) == 0 {
			newStart = 0
		}
		fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", oldStart, len(a), newStart, len(z))
		for _, l := range lcsDiff(a, z) {
			b.WriteString(l)
			b.WriteString("\n")
		}
	}
	return b.String()
}

func splitKeep(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func lcsDiff(a, z []string) []string {
	n, m := len(a), len(z)
	dp := make([][]int, n+1)
	for i := range dp {
		dp[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == z[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	var out []string
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == z[j]:
			out = append(out, " "+a[i])
			i++
			j++
		case j < m && (i == n || dp[i][j+1] >= dp[i+1][j]):
			out = append(out, "+"+z[j])
			j++
		default:
			out = append(out, "-"+a[i])
			i++
		}
	}
	return out
}
