package backend

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/polynfi/polynfi/images"
)

// TestImageProgressLines: each image event is one line on stderr naming
// the image, what is happening and the time; a failed attempt says so at
// once with its log and last lines, control characters escaped.
func TestImageProgressLines(t *testing.T) {
	var b bytes.Buffer
	p := ImageProgress(&b)
	img := "polynfi-eval/acme__x-1:abc"
	p(images.Event{Image: img, Kind: "build", Attempt: 1, Of: 3})
	p(images.Event{Image: img, Kind: "build", Attempt: 1, Of: 3, Step: "Step 2/5 : RUN make", Elapsed: 42 * time.Second})
	p(images.Event{Image: img, Kind: "build", Attempt: 1, Of: 3, Done: true, Err: errors.New("exit code 2"), Elapsed: 50 * time.Second,
		Log: "/out/build_logs/x.log", Tail: []string{"make: *** [all] Error 2", "\x1b[31mred\x1b[0m"}})
	p(images.Event{Image: img, Kind: "build", Attempt: 2, Of: 3, Done: true, Elapsed: 9 * time.Second, Steps: 5, Cached: 4})
	p(images.Event{Image: "reg:5000/p/x:latest", Kind: "pull", Attempt: 1, Of: 1, Step: "3/7 layers, 41.2 of 120.5 MB", LayersDone: 3, Layers: 7, Elapsed: 12 * time.Second})
	want := []string{
		"polynfi: image polynfi-eval/acme__x-1:abc: building (attempt 1 of 3)",
		"polynfi: image polynfi-eval/acme__x-1:abc: Step 2/5 : RUN make (42s)",
		"polynfi: image polynfi-eval/acme__x-1:abc: build failed (attempt 1 of 3) after 50s: exit code 2",
		"  log: /out/build_logs/x.log",
		"  | make: *** [all] Error 2",
		"  | \\x1b[31mred\\x1b[0m",
		"polynfi: image polynfi-eval/acme__x-1:abc: built in 9s (5 steps, 4 from the layer cache)",
		"polynfi: image reg:5000/p/x:latest: pulling: 3/7 layers, 41.2 of 120.5 MB (12s)",
	}
	if got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestNormalizeImageRef(t *testing.T) {
	for in, want := range map[string]string{
		"polynfi-eval/a__b:0123456789ab": "docker.io/polynfi-eval/a__b:0123456789ab",
		"busybox":                        "docker.io/library/busybox:latest",
		"localhost/polynfi/k8s-test:1":   "localhost/polynfi/k8s-test:1",
		"127.0.0.1:5000/p/x":             "127.0.0.1:5000/p/x:latest",
		"ghcr.io/o/r:v1":                 "ghcr.io/o/r:v1",
	} {
		if got := normalizeImageRef(in); got != want {
			t.Errorf("normalizeImageRef(%q) = %q, want %q", in, got, want)
		}
	}
}
