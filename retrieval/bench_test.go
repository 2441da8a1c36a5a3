package retrieval

import (
	"fmt"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/syntax"
)

// genPython returns a Python file of n lines: classes of 10 methods, each
// method 5 lines (def, 3 statements, blank).
func genPython(n int) []string {
	var ls []string
	for c := 0; len(ls) < n; c++ {
		ls = append(ls, fmt.Sprintf("class C%d:", c))
		for m := 0; m < 10 && len(ls) < n; m++ {
			ls = append(ls,
				fmt.Sprintf("    def m%d(self, x):", m),
				"        y = x + 1",
				"        z = y * 2",
				"        return z",
				"")
		}
	}
	return ls[:n]
}

// genChangePatch rewrites `changed` statement lines spread evenly over the
// file, one hunk each.
func genChangePatch(path string, lines []string, changed int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "diff --git a/%s b/%s\nindex 1111111..2222222 100644\n--- a/%s\n+++ b/%s\n", path, path, path, path)
	var targets []int
	for i, l := range lines {
		if strings.HasPrefix(l, "        y = ") {
			targets = append(targets, i)
		}
	}
	step := len(targets) / changed
	if step == 0 {
		step = 1
	}
	for k := 0; k < changed && k*step < len(targets); k++ {
		i := targets[k*step]
		fmt.Fprintf(&b, "@@ -%d,1 +%d,1 @@\n-%s\n+%s\n", i+1, i+1, lines[i], strings.Replace(lines[i], "+ 1", "+ 2", 1))
	}
	return b.String()
}

// BenchmarkNodes measures node extraction for one patch (parse + apply +
// two parses + line mapping). Compare changed=50 with changed=500 on the
// same file (cost should barely move) and lines=1000 with lines=5000 (cost
// should grow about 5×).
func BenchmarkNodes(b *testing.B) {
	for _, c := range []struct{ lines, changed int }{{5000, 500}, {5000, 50}, {1000, 50}} {
		b.Run(fmt.Sprintf("lines=%d/changed=%d", c.lines, c.changed), func(b *testing.B) {
			ls := genPython(c.lines)
			base := MemSource{"gen.py": strings.Join(ls, "\n") + "\n"}
			patch := genChangePatch("gen.py", ls, c.changed)
			p := syntax.NewParser()
			defer p.Close()
			x := &extractor{mode: Compatible, parser: p, src: base}
			keys, fail, err := x.patchNodes(patch)
			if err != nil || fail != "" || len(keys) != c.changed {
				b.Fatalf("got %d keys, fail %q, err %v; want %d keys", len(keys), fail, err, c.changed)
			}
			for b.Loop() {
				if _, _, err := x.patchNodes(patch); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLocate measures only the line-to-node mapping on a parsed tree.
func BenchmarkLocate(b *testing.B) {
	for _, c := range []struct{ lines, changed int }{{5000, 500}, {5000, 50}, {1000, 50}} {
		b.Run(fmt.Sprintf("lines=%d/changed=%d", c.lines, c.changed), func(b *testing.B) {
			ls := genPython(c.lines)
			t, err := syntax.ParseOnce(syntax.Python, []byte(strings.Join(ls, "\n")+"\n"))
			if err != nil {
				b.Fatal(err)
			}
			var lines []int
			for i := 0; i < c.changed; i++ {
				lines = append(lines, 1+i*(c.lines/c.changed))
			}
			for b.Loop() {
				ix := newIndex(t, Compatible)
				for _, ci := range ix.locate(lines) {
					if _, fail := ix.key(ci); fail != "" {
						b.Fatal(fail)
					}
				}
			}
		})
	}
}
