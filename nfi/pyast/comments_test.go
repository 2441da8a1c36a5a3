package pyast

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestComments(t *testing.T) {
	src := "#!/usr/bin/env python\nx = 1  # trailing\r\n    # own\ns = '# not a comment'\n"
	cs := parseModule(t, "m.py", src).Comments()
	type c struct {
		Line, Column int
		Text         string
		OwnLine      bool
	}
	var got []c
	for _, x := range cs {
		got = append(got, c{x.Line, x.Column, x.Text, x.OwnLine})
	}
	want := []c{{1, 0, "#!/usr/bin/env python", true}, {2, 7, "# trailing", false}, {3, 4, "# own", true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("comments (-want +got):\n%s", diff)
	}
}
