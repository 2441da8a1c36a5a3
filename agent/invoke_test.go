package agent

import "testing"

func TestHideDatasetPath(t *testing.T) {
	t.Setenv("HOME", "/home/u")
	for in, want := range map[string]string{
		"/home/u/data/tasks.jsonl": "/home/u/data",
		"/home/u/tasks.jsonl":      "/home/u/tasks.jsonl",
		"/tasks.jsonl":             "/tasks.jsonl",
		"/home/tasks.jsonl":        "/home/tasks.jsonl",
		"/srv/d/tasks.jsonl":       "/srv/d",
	} {
		if got := HideDatasetPath(in); got != want {
			t.Errorf("HideDatasetPath(%s) = %s, want %s", in, got, want)
		}
	}
}
