package agent

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestExpandQuotesForBash runs expanded templates through a real bash:
// every placeholder is exactly one word whatever its characters.
func TestExpandQuotesForBash(t *testing.T) {
	t.Parallel()
	v := Vars{PromptFile: "/w/a b/prompt.txt", Prompt: "fix it; rm -rf / $(touch x) `id` 'q' \"d\"\nline 2", Workdir: "/w/ws",
		OutDir: "/w/o", InstanceID: "a__b-1'; echo pwned", Run: 3, Model: "claude-sonnet-4-5", ModelFlag: "--model",
		Files: []string{"pkg/mod.py", "x y.py"}}
	got, err := Expand(`printf '%s\n' {prompt_file} {prompt} {workdir} {out_dir} {instance_id} {run} {model} {model_args} {files}`, v)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("bash", "-c", got).Output()
	if err != nil {
		t.Fatalf("%s: %v", got, err)
	}
	want := []string{v.PromptFile, v.Prompt, v.Workdir, v.OutDir, v.InstanceID, "3", v.Model, "--model", v.Model, "pkg/mod.py", "x y.py"}
	// printf writes one word a line (the prompt's own newline included).
	if diff := cmp.Diff(strings.Join(want, "\n")+"\n", string(out)); diff != "" {
		t.Errorf("words (-want +got):\n%s", diff)
	}
	if got, _ := Expand("echo ${run} {run}", Vars{Run: 2}); got != "echo ${run} 2" {
		t.Errorf("bash's ${run} must stay: %q", got)
	}
	noModel, _ := Expand("run {model_args} -", Vars{ModelFlag: "--model"})
	if noModel != "run  -" {
		t.Errorf("{model_args} without --model = %q, want it empty", noModel)
	}
}

func TestCheckTemplate(t *testing.T) {
	t.Parallel()
	for tmpl, ok := range map[string]bool{"tool {workdir}": true, "tool {prompt_fiel}": false, "": false, "awk '{print $1}'": true, "x=1; echo ${x} {run}": true} {
		if err := CheckTemplate(tmpl); (err == nil) != ok {
			t.Errorf("CheckTemplate(%q) = %v, want ok=%v", tmpl, err, ok)
		}
	}
}
