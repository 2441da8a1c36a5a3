package harness

import "testing"

// TestDefaultRunID: a run without --run-id is named after every
// prediction source, in order, not after one of them.
func TestDefaultRunID(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"preds/a.jsonl"}, "a"},
		{[]string{"gold"}, "gold"},
		{[]string{"x/a.jsonl", "y/b.json"}, "a+b"},
		{[]string{"a.jsonl", "b.jsonl"}, "a+b"},
		{[]string{"gold", "dir/model,v2.jsonl"}, "gold+model,v2"},
		{nil, "run"},
	} {
		if got := DefaultRunID(c.in); got != c.want {
			t.Errorf("DefaultRunID(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
