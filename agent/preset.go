package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Preset is a known agent: the command that runs it headless and the
// reader of its output. Command is a template (see Expand); the prompt is
// always on the command's stdin as well.
type Preset struct {
	// Name is the --agent value, and the default model_name_or_path.
	Name string
	// Command is the command template run under `bash -c`.
	Command string
	// ModelFlag renders {model_args}: ModelFlag followed by the quoted
	// --model value, or nothing when no model is given.
	ModelFlag string
	// StateDirs are paths under the user's home the agent keeps its
	// login and sessions in; those that exist stay writable in the
	// sandbox.
	StateDirs []string
	// Env names variables the agent usually needs (API keys); they are
	// passed only when the user names them with --agent-env.
	Env []string
	// NewReader returns a reader of one run's output.
	NewReader func() Reader
	// Doc is one line for --help.
	Doc string
}

// GoldAgent is the --agent value of the oracle: it applies the reference
// solution (an NFI task's human after, an instance's gold patch) inside the
// same workspace an agent would get, with no process.
const GoldAgent = "gold"

// CommandAgent is the preset of a bare --agent-cmd: usage comes from
// {out_dir}/usage.json when the command writes one.
const CommandAgent = "cmd"

// Presets returns the known agents by name. Commands follow each agent's
// documented headless mode:
//   - claude: Claude Code, `claude -p --output-format stream-json
//     --verbose` (prompt on stdin; one JSON object a line, the result
//     envelope last, every tool call on the way, which `polynfi audit`
//     reads), permissions skipped because polynfi's sandbox confines it.
//   - codex: `codex exec --json --ephemeral` with the prompt read from
//     stdin ("-"), Codex's own sandbox off for the same reason, no session
//     files kept (a later run cannot read an earlier one's).
//   - aider: `aider --message-file` with confirmations answered yes, no
//     commits, plain output (its token report is read from stdout).
//   - mini-swe-agent: `mini -y --exit-immediately -t PROMPT -o
//     {out_dir}/trajectory.json`.
func Presets() map[string]Preset {
	ps := []Preset{
		{
			Name:      "claude",
			Command:   "claude -p --output-format stream-json --verbose --dangerously-skip-permissions {model_args}",
			ModelFlag: "--model",
			StateDirs: []string{".claude", ".claude.json", ".config/claude"},
			Env:       []string{"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX"},
			NewReader: func() Reader { return &claudeReader{} },
			Doc:       "Claude Code headless (result envelope: total_cost_usd, usage, duration_ms, num_turns)",
		},
		{
			Name:      "codex",
			Command:   "codex exec --json --ephemeral --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox {model_args} -",
			ModelFlag: "--model",
			StateDirs: []string{".codex"},
			Env:       []string{"OPENAI_API_KEY", "CODEX_HOME"},
			NewReader: func() Reader { return &codexReader{} },
			Doc:       "OpenAI Codex CLI (turn.completed usage events; no cost reported)",
		},
		{
			Name: "aider",
			Command: "aider --yes-always --no-auto-commits --no-dirty-commits --no-pretty --no-stream --no-check-update " +
				"--analytics-disable --no-show-model-warnings --no-gitignore {model_args} --message-file {prompt_file} {files}",
			ModelFlag: "--model",
			StateDirs: []string{".aider"},
			Env:       []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "AIDER_MODEL"},
			NewReader: func() Reader { return &aiderReader{} },
			Doc:       "Aider non-interactive (its Tokens:/Cost: report on stdout; counts rounded by Aider)",
		},
		{
			Name:      "mini-swe-agent",
			Command:   "mini -y --exit-immediately {model_args} -t {prompt} -o {out_dir}/trajectory.json",
			ModelFlag: "-m",
			StateDirs: []string{".config/mini-swe-agent"},
			Env:       []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "MSWEA_MODEL_NAME"},
			NewReader: func() Reader { return miniReader{} },
			Doc:       "mini-SWE-agent (trajectory info.model_stats: instance_cost, api_calls)",
		},
		{
			Name:      CommandAgent,
			NewReader: func() Reader { return usageFileReader{} },
			Doc:       "any command given with --agent-cmd (usage from {out_dir}/usage.json if it writes one)",
		},
	}
	out := map[string]Preset{}
	for _, p := range ps {
		out[p.Name] = p
	}
	return out
}

// PresetNames lists the --agent values, gold included, sorted.
func PresetNames() []string {
	var names []string
	for n := range Presets() {
		names = append(names, n)
	}
	names = append(names, GoldAgent)
	sort.Strings(names)
	return names
}

// LookupPreset returns the preset called name.
func LookupPreset(name string) (Preset, error) {
	p, ok := Presets()[name]
	if !ok {
		return Preset{}, fmt.Errorf("unknown agent %q: want one of %s", name, strings.Join(PresetNames(), ", "))
	}
	return p, nil
}

// stateDirs returns the preset's state paths under home that exist.
func (p Preset) stateDirs(home string) []string {
	var out []string
	if home == "" {
		return nil
	}
	for _, d := range p.StateDirs {
		full := filepath.Join(home, d)
		if _, err := os.Stat(full); err == nil {
			out = append(out, full)
		}
	}
	return out
}
