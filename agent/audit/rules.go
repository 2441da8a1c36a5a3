package audit

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// Kinds of findings: what a run reached beyond its task.
const (
	// KindFutureHistory: the repository's history beyond the base commit
	// (every ref, the reflog, remote-tracking refs and tags, packed or
	// unreachable objects), where a later fix lives.
	KindFutureHistory = "future_history"
	// KindUpstream: the upstream repository, fetched or browsed (git
	// fetch, pull, clone, ls-remote, a remote added; a code host's URL or
	// API).
	KindUpstream = "upstream_fetch"
	// KindDataset: the benchmark's dataset (its file, its directory, its
	// published copies).
	KindDataset = "dataset_read"
	// KindReference: the reference solution or the held-back tests (the
	// gold patch, the test patch, the FAIL_TO_PASS / PASS_TO_PASS lists,
	// other runs' predictions).
	KindReference = "reference_read"
	// KindHidden: a path polynfi hid from the agent (Record.Hidden: the
	// dataset's directory, the output directory, the repositories).
	KindHidden = "hidden_path"
	// KindNetwork: the network, where the run allowed it (the agent's web
	// search or fetch tool; curl, wget, ssh and their kin; Python's
	// urllib.request, requests, http.client), other than a code host. A
	// URL that is only written somewhere (a comment, a note) is not.
	KindNetwork = "network"
	// KindWorkspace: what the run left in its workspace's .git that the
	// base does not hold (a remote, fetched refs, packs, alternates).
	KindWorkspace = "workspace_history"
)

// Kinds lists every kind in report order.
var Kinds = []string{KindFutureHistory, KindUpstream, KindDataset, KindReference, KindHidden, KindNetwork, KindWorkspace}

// Finding is one thing a run did beyond its task. Step is the index of
// the step that did it (Step.Index), nil for a finding about the
// workspace; Tool, Input and Source repeat the step's; Why says what the
// step reaches.
type Finding struct {
	Kind   string `json:"kind"`
	Step   *int   `json:"step,omitempty"`
	Tool   string `json:"tool,omitempty"`
	Input  string `json:"input,omitempty"`
	Source string `json:"source,omitempty"`
	Why    string `json:"why"`
}

type rule struct {
	kind string
	re   *regexp.Regexp
	why  string
}

// gitCmd matches a git invocation's subcommand with its options (global
// options such as -C DIR or --no-pager allowed), up to the end of the
// simple command.
const gitCmd = `\bgit(?:\s+(?:-C\s+\S+|-c\s+\S+|--[a-z-]+(?:=\S+)?))*\s+`
const rest = `[^|;&\n]*`

// rules are matched against each step's Input. A step yields at most one
// finding per kind (the first rule of the kind that matches).
var rules = sync.OnceValue(func() []rule {
	return []rule{
		{KindFutureHistory, regexp.MustCompile(gitCmd + `(?:log|rev-list|shortlog|whatchanged|show-branch|describe)\b` + rest + `\s--(?:all|branches|remotes|tags|reflog|glob|contains)\b`),
			"lists commits of every ref, beyond the base"},
		{KindFutureHistory, regexp.MustCompile(gitCmd + `(?:reflog|for-each-ref|show-ref|fsck|verify-pack|unpack-objects|fast-export|bundle)\b`),
			"reads refs, the reflog or the object store beyond the base commit"},
		{KindFutureHistory, regexp.MustCompile(gitCmd + `cat-file\b` + rest + `--batch-all-objects`), "lists every object of the store"},
		{KindFutureHistory, regexp.MustCompile(gitCmd + `branch\b` + rest + `\s(?:-a|-r|--all|--remotes|--contains)\b`), "lists remote-tracking or every branch"},
		{KindFutureHistory, regexp.MustCompile(gitCmd + `tag(?:\s*$|\s*[|;&]|\s+(?:-l|--list|--contains|-n)\b)`), "lists the tags"},
		{KindFutureHistory, regexp.MustCompile(`(?:(?:^|[\s:=]|\.\.)(?:origin|upstream)/[\w.-]+|FETCH_HEAD|ORIG_HEAD|refs/(?:remotes|tags|original|stash)\b|@\{\d+\}|--remotes\b)`), "names a ref beyond the base"},
		{KindFutureHistory, regexp.MustCompile(`\.git/(?:packed-refs|logs\b|objects/pack|objects/info|refs/|FETCH_HEAD|ORIG_HEAD|shallow)`), "reads the repository's refs, logs or packs directly"},

		{KindUpstream, regexp.MustCompile(gitCmd + `(?:fetch|pull|clone|ls-remote|remote\s+(?:add|set-url|update)|submodule\s+(?:update|add|init))\b`), "fetches from or adds a remote repository"},
		{KindUpstream, regexp.MustCompile(`\bgh\s+(?:repo|pr|api|issue|release|search|browse)\b`), "uses the code host's command-line client"},
		{KindUpstream, regexp.MustCompile(`(?i)\b(?:github\.com|api\.github\.com|raw\.githubusercontent\.com|codeload\.github\.com|gitlab\.com|bitbucket\.org|sourcegraph\.com)\b`), "names a code host"},

		{KindDataset, regexp.MustCompile(`(?i)(?:\bswe[-_ ]?bench\b|\bswe[-_]?polybench\b|\bpolybench\b|princeton-nlp|huggingface\.co/datasets|\bload_dataset\s*\(|hf_hub_download|\bPOLYNFI_DATASET_DIR\b|\.cache/huggingface)`), "reaches for a benchmark dataset"},

		{KindReference, regexp.MustCompile(`(?i)(?:\bFAIL_TO_PASS\b|\bPASS_TO_PASS\b|\btest_patch\b|\bgold_patch\b|\bmodel_patch\b|\bpredictions?\.jsonl\b|\bmodified_nodes\b)`), "reaches for the reference solution, the held-back tests or other runs' predictions"},

		{KindNetwork, regexp.MustCompile(`(?i)(?:\b(?:curl|wget|nc|ncat|telnet|ssh|scp|rsync|ftp|sftp|aria2c|lynx|w3m)\s|\burllib\.request\b|\brequests\.(?:get|post|head)\s*\(|\bhttp\.client\b|\bsocket\.create_connection\b)`), "uses the network"},
	}
})

// networkTools are agent tools that reach the web.
var networkTools = map[string]bool{"WebFetch": true, "WebSearch": true, "web_search": true, "fetch": true}

// Context is what the rules know of one run beyond its steps.
type Context struct {
	// Datasets are dataset files (paths): a step naming one, or its base
	// name, reads the dataset.
	Datasets []string
	// Hidden are host paths hidden from the agent (Record.Hidden; the
	// temporary directory is ignored). Workdirs are paths under them that
	// are the agent's own (its workspace): a step naming only those is not
	// a finding.
	Hidden   []string
	Workdirs []string
	// Repo is the instance's repository ("owner/name"): a step that names
	// it with a code host is said to fetch it.
	Repo string
}

// Check returns the findings of one step, at most one per kind.
func Check(s Step, c Context) []Finding {
	var out []Finding
	have := map[string]bool{}
	add := func(kind, why string) {
		if have[kind] {
			return
		}
		have[kind] = true
		i := s.Index
		out = append(out, Finding{Kind: kind, Step: &i, Tool: s.Tool, Input: s.Input, Source: s.Source, Why: why})
	}
	in := s.Input
	for _, d := range c.Datasets {
		if d == "" {
			continue
		}
		abs, _ := filepath.Abs(d)
		base := filepath.Base(d)
		if strings.Contains(in, abs) || strings.Contains(in, base) {
			add(KindDataset, "names the dataset file "+base)
		}
	}
	for _, r := range rules() {
		if have[r.kind] || !r.re.MatchString(in) {
			continue
		}
		if r.kind == KindNetwork && have[KindUpstream] {
			continue // a code host's URL is upstream, already said
		}
		why := r.why
		if r.kind == KindUpstream && c.Repo != "" && strings.Contains(strings.ToLower(in), strings.ToLower(c.Repo)) {
			why += " (the instance's repository " + c.Repo + ")"
		}
		add(r.kind, why)
	}
	if networkTools[s.Tool] && !have[KindUpstream] {
		add(KindNetwork, "uses the agent's web tool "+s.Tool)
	}
	for _, h := range c.Hidden {
		if h == "" || h == "/" || h == filepath.Clean("/tmp") {
			continue
		}
		if namesOutside(in, h, c.Workdirs) {
			add(KindHidden, "names "+h+", hidden from the agent")
		}
	}
	return out
}

// namesOutside reports whether s names path h (h itself or below it)
// anywhere but inside one of own.
func namesOutside(s, h string, own []string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], h)
		if j < 0 {
			return false
		}
		at := s[i+j:]
		next := at[len(h):]
		if next == "" || next[0] == '/' || !isPathByte(next[0]) {
			mine := false
			for _, o := range own {
				if o != "" && strings.HasPrefix(at, o) && (len(at) == len(o) || !isPathByte(at[len(o)]) || at[len(o)] == '/') {
					mine = true
				}
			}
			if !mine {
				return true
			}
		}
		i += j + len(h)
	}
}

func isPathByte(b byte) bool {
	return b == '/' || b == '.' || b == '-' || b == '_' || b == '~' || b == '+' ||
		(b >= '0' && b <= '9') || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z')
}
