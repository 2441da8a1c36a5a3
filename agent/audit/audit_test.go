package audit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/agent"
)

// TestParseRecordedTrajectories reads the agent package's recorded
// outputs of Claude Code, Codex and mini-SWE-agent into their steps.
func TestParseRecordedTrajectories(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("..", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	steps, f := ParseLines("stdout.log", read("claude-stream.jsonl"), 0)
	if f != FormatClaude || len(steps) != 2 || steps[0].Tool != "Read" || steps[0].Input != "inventory/stock.py" ||
		steps[1].Tool != "Edit" || steps[1].Index != 1 || steps[0].Source != "stdout.log:3" {
		t.Errorf("claude: %s %+v", f, steps)
	}
	steps, f = ParseLines("stdout.log", read("codex.jsonl"), 5)
	if f != FormatCodex || len(steps) != 2 || steps[0].Input != "bash -lc 'cat taskq/retry.py'" || steps[0].Index != 5 ||
		steps[1].Tool != "file_change" || steps[1].Input != "taskq/retry.py" {
		t.Errorf("codex: %s %+v", f, steps)
	}
	steps, ok := ParseMini("trajectory/trajectory.json", read("mini.traj.json"), 0)
	if !ok || len(steps) != 3 || steps[0].Input != "ls" || steps[1].Input != "sed -i s/x/y/ a.py" || steps[2].Source != "trajectory/trajectory.json#messages[6]" {
		t.Errorf("mini: %v %+v", ok, steps)
	}
	if _, f := ParseLines("stdout.log", read("claude-result.json"), 0); f != "" {
		t.Errorf("a lone result envelope has no steps, got format %q", f)
	}
}

// TestCheckRules: what each kind catches, and what ordinary work does not
// trigger.
func TestCheckRules(t *testing.T) {
	ctx := Context{Datasets: []string{"/data/bench/dataset.csv"}, Hidden: []string{"/data/bench", "/out"}, Workdirs: []string{"/out/.work"}, Repo: "tidyledger/ledgerkit"}
	for _, c := range []struct {
		tool, input string
		want        []string
	}{
		{"Bash", "git log --all --oneline", []string{KindFutureHistory}},
		{"Bash", "git --no-pager log --branches -p", []string{KindFutureHistory}},
		{"Bash", "git reflog", []string{KindFutureHistory}},
		{"command_execution", "bash -lc 'git for-each-ref'", []string{KindFutureHistory}},
		{"Bash", "git cat-file --batch-check --batch-all-objects", []string{KindFutureHistory}},
		{"Bash", "git branch -a", []string{KindFutureHistory}},
		{"Bash", "git tag", []string{KindFutureHistory}},
		{"Bash", "git show origin/main:src/x.py", []string{KindFutureHistory}},
		{"Read", ".git/packed-refs", []string{KindFutureHistory}},
		{"Bash", "git fetch upstream", []string{KindUpstream}},
		{"Bash", "git clone https://github.com/tidyledger/ledgerkit /tmp/x", []string{KindUpstream}},
		{"WebFetch", "https://github.com/tidyledger/ledgerkit/pull/15", []string{KindUpstream}},
		{"WebSearch", "ledgerkit rounding bug fix", []string{KindNetwork}},
		{"Bash", "curl -s https://example.org/x", []string{KindNetwork}},
		{"Bash", "cat /data/bench/dataset.csv", []string{KindDataset, KindHidden}},
		{"Bash", "python -c 'from datasets import load_dataset; load_dataset(\"princeton-nlp/SWE-bench\")'", []string{KindDataset}},
		{"Bash", "grep -r FAIL_TO_PASS /", []string{KindReference}},
		{"Bash", "ls /out/runs", []string{KindHidden}},
		// ordinary work
		{"Bash", "ls /out/.work/x/ws", nil},
		{"Bash", "git status && git diff", nil},
		{"Bash", "git log --oneline -5", nil},
		{"Bash", "git add -A && git commit -m fix", nil},
		{"Bash", "python -m pytest tests -q", nil},
		{"Read", "src/origin/parser.py", nil},
		{"Edit", "ledgerkit/money.py", nil},
		{"Bash", "pip install -e .", nil},
		{"Bash", "echo 'see https://docs.python.org/3/library/decimal.html' >> NOTES.md", nil},
		{"Bash", "python -c 'import urllib.request; print(urllib.request.urlopen(\"http://x\").read())'", []string{KindNetwork}},
	} {
		var got []string
		for _, f := range Check(Step{Index: 3, Tool: c.tool, Input: c.input}, ctx) {
			got = append(got, f.Kind)
			if f.Step == nil || *f.Step != 3 || f.Input != c.input {
				t.Errorf("%q: finding does not cite the step: %+v", c.input, f)
			}
		}
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s %q: %v, want %v", c.tool, c.input, got, c.want)
		}
	}
}

// TestWorkspaceFindings: the base state has none; fetched history has.
func TestWorkspaceFindings(t *testing.T) {
	base := &agent.GitState{Refs: []string{"refs/heads/master"}, ReflogLines: 2}
	if f := WorkspaceFindings(base); len(f) != 0 {
		t.Errorf("base: %+v", f)
	}
	fetched := &agent.GitState{Refs: []string{"refs/heads/master", "refs/remotes/upstream/main", "refs/tags/v1.2"}, Remotes: []string{"upstream"}, Packs: 1, FetchHead: true}
	if f := WorkspaceFindings(fetched); len(f) != 4 {
		t.Errorf("fetched: %d findings, want 4 (remote, refs, FETCH_HEAD, pack): %+v", len(f), f)
	}
}
