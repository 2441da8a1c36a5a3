package mine

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/nfi/catalog"
)

// BenchmarkMine measures mining throughput (pairs/s, reported as a metric)
// over a generated history of 80 squash commits, each modifying two of ten
// 200-line modules, scored with the polynfi-92 catalog as it stands.
func BenchmarkMine(b *testing.B) {
	h := newHistory(b)
	module := func(i, v int) string {
		var s strings.Builder
		fmt.Fprintf(&s, "\"\"\"Module %d.\"\"\"\nimport os\n\n\n", i)
		for f := range 25 {
			fmt.Fprintf(&s, "def f%d_%d(x, y):\n", f, v%(f+1))
			if (f+v)%3 == 0 {
				s.WriteString("    \"\"\"Do it.\"\"\"\n")
			}
			fmt.Fprintf(&s, "    try:\n        return os.path.join(x, y) + %q\n    except:\n        return None\n\n\n", fmt.Sprint(v))
		}
		return s.String()
	}
	files := map[string]string{}
	for i := range 10 {
		files[fmt.Sprintf("pkg/m%d.py", i)] = module(i, 0)
	}
	h.commit("init", "Alice", "Initial import", files)
	for c := 1; c <= 80; c++ {
		h.commit(fmt.Sprint(c), "Alice", fmt.Sprintf("Improve modules (#%d)", c), map[string]string{
			fmt.Sprintf("pkg/m%d.py", c%10):     module(c%10, c),
			fmt.Sprintf("pkg/m%d.py", (c+3)%10): module((c+3)%10, c),
		})
	}
	opts := Options{Repos: []Repo{{Path: h.dir, Name: "bench/pkg"}}, Catalog: catalog.Polynfi92(), Write: Classes[:]}
	pairs := 0
	b.ResetTimer()
	for b.Loop() {
		sum, err := Run(b.Context(), opts, io.Discard)
		if err != nil {
			b.Fatal(err)
		}
		pairs += sum.Pairs
	}
	b.ReportMetric(float64(pairs)/b.Elapsed().Seconds(), "pairs/s")
}
