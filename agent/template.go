package agent

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Vars are the values a command template's placeholders take for one run.
type Vars struct {
	PromptFile string   // absolute path of the prompt text
	Prompt     string   // the prompt itself
	Workdir    string   // absolute path of the workspace (the command's cwd)
	OutDir     string   // absolute path of a directory for the agent's trajectory and logs
	InstanceID string   // the task's instance_id
	Run        int      // 0-based repeat index
	Model      string   // --model, "" when not given
	ModelFlag  string   // the preset's flag for {model_args}
	Files      []string // the task's target files (NFI tasks), relative to Workdir
}

// Placeholders documents every placeholder of a command template. Every
// value is inserted shell-quoted (the template runs under `bash -c`), so a
// placeholder is one word whatever it contains.
var Placeholders = map[string]string{
	"prompt_file": "absolute path of a file holding the prompt (outside the workspace)",
	"prompt":      "the prompt text itself",
	"workdir":     "absolute path of the workspace; also the command's working directory",
	"out_dir":     "absolute path of a directory for the agent's trajectory, logs and usage.json; kept in the run's record",
	"instance_id": "the task's instance_id",
	"run":         "the 0-based repeat index",
	"model":       "the --model value ('' when none)",
	"model_args":  "the preset's model flag and the --model value, or nothing when --model is not given",
	"files":       "the task's target files, one word each, relative to the workspace (NFI tasks; nothing for repository instances)",
}

var placeholderRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{([a-z_]+)\}`) })

// PlaceholderHelp renders Placeholders as "{name}: meaning" lines, sorted.
func PlaceholderHelp() string {
	var names []string
	for n := range Placeholders {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "  {%s}  %s\n", n, Placeholders[n])
	}
	return b.String()
}

// placeholders returns the [start, end) spans and names of the
// placeholders of tmpl; "${name}" is bash's, not a placeholder.
func placeholders(tmpl string) (spans [][2]int, names []string) {
	for _, m := range placeholderRe().FindAllStringSubmatchIndex(tmpl, -1) {
		if m[0] > 0 && tmpl[m[0]-1] == '$' {
			continue
		}
		spans = append(spans, [2]int{m[0], m[1]})
		names = append(names, tmpl[m[2]:m[3]])
	}
	return spans, names
}

// CheckTemplate returns an error naming the first unknown placeholder.
func CheckTemplate(tmpl string) error {
	if strings.TrimSpace(tmpl) == "" {
		return fmt.Errorf("empty agent command")
	}
	_, names := placeholders(tmpl)
	for _, n := range names {
		if _, ok := Placeholders[n]; !ok {
			var known []string
			for k := range Placeholders {
				known = append(known, "{"+k+"}")
			}
			sort.Strings(known)
			return fmt.Errorf("agent command: unknown placeholder {%s} (known: %s)", n, strings.Join(known, " "))
		}
	}
	return nil
}

// Expand renders a command template for one run: every {name} of
// Placeholders becomes its value, shell-quoted; other text (bash's own
// ${name} included) is kept as written. Unknown placeholders are an error
// (CheckTemplate).
func Expand(tmpl string, v Vars) (string, error) {
	if err := CheckTemplate(tmpl); err != nil {
		return "", err
	}
	spans, names := placeholders(tmpl)
	var b strings.Builder
	last := 0
	for i, sp := range spans {
		b.WriteString(tmpl[last:sp[0]])
		b.WriteString(value(names[i], v))
		last = sp[1]
	}
	b.WriteString(tmpl[last:])
	return b.String(), nil
}

// value is the shell-quoted value of placeholder name.
func value(name string, v Vars) string {
	switch name {
	case "prompt_file":
		return ShellQuote(v.PromptFile)
	case "prompt":
		return ShellQuote(v.Prompt)
	case "workdir":
		return ShellQuote(v.Workdir)
	case "out_dir":
		return ShellQuote(v.OutDir)
	case "instance_id":
		return ShellQuote(v.InstanceID)
	case "run":
		return fmt.Sprint(v.Run)
	case "model":
		return ShellQuote(v.Model)
	case "model_args":
		if v.Model == "" || v.ModelFlag == "" {
			return ""
		}
		return v.ModelFlag + " " + ShellQuote(v.Model)
	case "files":
		q := make([]string, len(v.Files))
		for i, f := range v.Files {
			q[i] = ShellQuote(f)
		}
		return strings.Join(q, " ")
	}
	return ""
}

// ShellQuote quotes s as one word for bash: single quotes, with each
// single quote closed, escaped and reopened. Words of safe characters
// stay bare.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:@,+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
