package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/polynfi/polynfi/runtime"
)

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReaders reads recorded output in each agent's documented format
// (files under testdata/, written for these tests) and checks every figure,
// including the ones that must stay unknown.
func TestReaders(t *testing.T) {
	t.Parallel()
	type want struct {
		in, out *int64
		cost    *float64
		turns   *int64
		dur     *float64
		note    string // a substring of one note, "" for none
	}
	cases := []struct {
		name   string
		preset string
		stdout string // fixture on stdout
		file   string // fixture in {out_dir}
		want   want
	}{
		// input = 412 + 10240 + 55310 (cache creation and reads are input tokens too).
		{"claude json envelope", "claude", "claude-result.json", "", want{i64(65962), i64(2891), f64(0.1287), i64(7), f64(48.213), ""}},
		// The envelope's figures: 202 + 4500 + 8400 input.
		{"claude stream-json", "claude", "claude-stream.jsonl", "", want{i64(13102), i64(451), f64(0.0318), i64(3), f64(15.32), ""}},
		{"claude error envelope", "claude", "claude-error.json", "", want{i64(3000), i64(12000), f64(0.91), i64(30), f64(120), "error_max_turns"}},
		{"claude no envelope", "claude", "aider.txt", "", want{note: "no Claude Code result envelope"}},
		// turn.completed carries the thread's running totals: the last one
		// counts (cached input included), not the sum; codex reports no cost.
		{"codex events", "codex", "codex.jsonl", "", want{i64(24117), i64(1302), nil, i64(2), nil, ""}},
		{"codex failed turn", "codex", "codex-failed.jsonl", "", want{note: "turn.failed"}},
		// 2300 + 1500 + 3120 + 2000 sent, 450 + 88 received; the last session cost.
		{"aider report", "aider", "aider.txt", "", want{i64(8920), i64(538), f64(0.01), i64(2), nil, "approximate"}},
		// Releases before prompt caching: exact counts, "$X request".
		{"aider request report", "aider", "aider-request.txt", "", want{i64(7317), i64(258), f64(0.04), i64(2), nil, ""}},
		{"aider nothing", "aider", "claude-result.json", "", want{note: "no Aider token report"}},
		{"codex nothing", "codex", "aider.txt", "", want{note: "no turn.completed"}},
		{"mini trajectory", "mini-swe-agent", "", "mini.traj.json", want{i64(6200), i64(255), f64(0.0731), i64(3), nil, ""}},
		{"mini without usage", "mini-swe-agent", "", "mini-nousage.traj.json", want{nil, nil, f64(0.5), i64(2), nil, "tokens unknown"}},
		{"mini no trajectory", "mini-swe-agent", "", "", want{note: "no mini-SWE-agent trajectory"}},
		{"cmd usage.json", "cmd", "", "usage.json", want{i64(1200), i64(300), f64(0.02), nil, nil, ""}},
		{"cmd nothing", "cmd", "claude-result.json", "", want{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := LookupPreset(c.preset)
			if err != nil {
				t.Fatal(err)
			}
			var out Output
			if c.stdout != "" {
				out.Stdout = readFixture(t, c.stdout)
			}
			switch c.file {
			case "":
			case "usage.json":
				out.Files = []runtime.File{{Path: "usage.json", Data: []byte(`{"tokens_in": 1200, "tokens_out": 300, "cost_usd": 0.02}`)}}
			default:
				out.Files = []runtime.File{{Path: "trajectory.json", Data: readFixture(t, c.file)}}
			}
			u := ReadAll(p.NewReader(), out)
			got := want{u.TokensIn, u.TokensOut, u.CostUSD, u.Turns, u.AgentDurationS, ""}
			exp := c.want
			exp.note = ""
			if diff := cmp.Diff(exp, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("usage (-want +got):\n%s", diff)
			}
			if c.want.note != "" && !strings.Contains(strings.Join(u.Notes, "\n"), c.want.note) {
				t.Errorf("notes %q: want one containing %q", u.Notes, c.want.note)
			}
			if c.want.note == "" && len(u.Notes) > 0 {
				t.Errorf("unexpected notes %q", u.Notes)
			}
		})
	}
}

// TestReaderLive checks that the usage a budget sees while the agent runs
// grows line by line for the streaming formats.
func TestReaderLive(t *testing.T) {
	t.Parallel()
	p, _ := LookupPreset("codex")
	r := p.NewReader()
	var seen []int64
	lw := &lineWriter{r: r, check: func() {
		if n, ok := r.Live().Tokens(); ok {
			seen = append(seen, n)
		}
	}}
	data := readFixture(t, "codex.jsonl")
	// Feed in odd-sized chunks, as a pipe delivers them.
	for len(data) > 0 {
		n := min(len(data), 37)
		lw.Write(data[:n])
		data = data[n:]
	}
	lw.close()
	if diff := cmp.Diff([]int64{19385, 19385, 19385, 25419}, seen); diff != "" {
		t.Errorf("live totals after each line once known (-want +got):\n%s", diff)
	}
}

// TestClaudeLiveOncePerMessage: Claude Code's stream-json prints one
// assistant frame per content block, each repeating its message's id and
// usage; while the agent runs (no result envelope yet) each message counts
// once, so a budget is not reached early.
func TestClaudeLiveOncePerMessage(t *testing.T) {
	t.Parallel()
	p, _ := LookupPreset("claude")
	r := p.NewReader()
	data := readFixture(t, "claude-stream.jsonl")
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	lw := &lineWriter{r: r}
	for _, l := range lines[:len(lines)-1] { // without the result envelope
		lw.Write([]byte(l + "\n"))
	}
	u := r.Live()
	if u.TokensIn == nil || *u.TokensIn != 13102 || *u.TokensOut != 451 {
		t.Errorf("live usage %v/%v, want 13102/451 (msg_01A once)", u.TokensIn, u.TokensOut)
	}
	if u.CostUSD != nil {
		t.Errorf("cost %v before the envelope: want unknown", *u.CostUSD)
	}
	if fin := r.Finish(Output{Stdout: []byte(strings.Join(lines[:len(lines)-1], "\n"))}); !strings.Contains(strings.Join(fin.Notes, " "), "no Claude Code result envelope") || fin.CostUSD != nil {
		t.Errorf("finish without an envelope: %+v", fin)
	}
}

func TestAiderNum(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{"450": 450, "12,450": 12450, "2.3k": 2300, "47k": 47000, "1.2M": 1200000} {
		if got, _ := aiderNum(in); got != want {
			t.Errorf("aiderNum(%q) = %d, want %d", in, got, want)
		}
	}
}
