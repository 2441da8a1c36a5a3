package plural

import "testing"

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 runs"}, {1, "1 run"}, {2, "2 runs"}, {-1, "-1 runs"}} {
		if got := Count(c.n, "run"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	if got := Of(1, "child", "children"); got != "1 child" {
		t.Errorf("Of(1) = %q", got)
	}
	if got := Of(2, "child", "children"); got != "2 children" {
		t.Errorf("Of(2) = %q", got)
	}
}
