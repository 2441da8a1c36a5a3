package driver

import (
	"reflect"
	"strings"
	"testing"
)

// TestParseFormatOutputs: FORMAT goes to standard output, FORMAT=PATH to
// PATH; no value is the first format on standard output; two on standard
// output, one path twice (also spelled apart: d/./x and d/x), an empty
// PATH and an unknown format are usage errors naming the value.
func TestParseFormatOutputs(t *testing.T) {
	got, err := ParseFormatOutputs([]string{"github", "markdown=out/s.md", "sarif=r=1.sarif"}, DiffFormats)
	want := []FormatOutput{{Format: "github"}, {Format: "markdown", Path: "out/s.md"}, {Format: "sarif", Path: "r=1.sarif"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, %v", got, err)
	}
	if got, err := ParseFormatOutputs(nil, DiffFormats); err != nil || !reflect.DeepEqual(got, []FormatOutput{{Format: "text"}}) {
		t.Errorf("no value: %+v, %v", got, err)
	}
	for _, c := range []struct {
		values []string
		want   string
	}{
		{[]string{"text", "json"}, `"json": --format "text" already writes standard output`},
		{[]string{"json=d/./x", "sarif=d/x"}, `"sarif=d/x": d/x is already the file of --format "json=d/./x"`},
		{[]string{"json="}, "empty PATH"},
		{[]string{"yaml=x"}, `"yaml=x": want one of text, json`},
	} {
		_, err := ParseFormatOutputs(c.values, DiffFormats)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.values, err, c.want)
		} else if ue, ok := err.(interface{ IsUsage() bool }); !ok || !ue.IsUsage() {
			t.Errorf("%q: not a usage error", c.values)
		}
	}
}
