package harness

import (
	"testing"
)

func TestDockerWorkdir(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ dockerfile, want string }{
		{"", ""},
		{"FROM node:20\nWORKDIR /testbed\nRUN npm ci\n", "/testbed"},
		{"FROM x\nWORKDIR /app\nworkdir src\n", "/app/src"},
		{"FROM x\nWORKDIR /a/\nWORKDIR \"/b/c\"\n", "/b/c"},
		{"FROM x\nWORKDIR rel\n", "/rel"},
	} {
		if got := dockerWorkdir(tc.dockerfile); got != tc.want {
			t.Errorf("dockerWorkdir(%q) = %q, want %q", tc.dockerfile, got, tc.want)
		}
	}
}
