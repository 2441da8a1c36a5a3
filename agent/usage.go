package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/polynfi/polynfi/runtime"
)

// Usage is what one agent run consumed, as the agent itself reported it.
// A nil field is unknown (the agent did not report it), never 0. TokensIn
// counts every input token the model processed (cached ones included),
// TokensOut every output token; CostUSD is in US dollars; AgentDurationS is
// the duration the agent reported (polynfi measures wall time itself, see
// Record.DurationS).
type Usage struct {
	TokensIn       *int64   `json:"tokens_in"`
	TokensOut      *int64   `json:"tokens_out"`
	CostUSD        *float64 `json:"cost_usd"`
	Turns          *int64   `json:"num_turns,omitempty"`
	AgentDurationS *float64 `json:"agent_duration_s,omitempty"`
	// Notes say what the reader found odd (an error envelope, a trajectory
	// that does not parse, approximate figures).
	Notes []string `json:"notes,omitempty"`
}

// Tokens returns TokensIn + TokensOut; ok is false unless both are known.
func (u Usage) Tokens() (n int64, ok bool) {
	if u.TokensIn == nil || u.TokensOut == nil {
		return 0, false
	}
	return *u.TokensIn + *u.TokensOut, true
}

func i64(n int64) *int64     { return &n }
func f64(x float64) *float64 { return &x }
func addI(p **int64, n int64) {
	if *p == nil {
		*p = i64(n)
	} else {
		**p += n
	}
}

// Output is what a finished run left for a Reader: its captured streams
// (bounded) and the files it wrote into its output directory ({out_dir}),
// paths relative to it.
type Output struct {
	Stdout, Stderr []byte
	Files          []runtime.File

	change   *change // taken in the instance's container (Runner.collectInImage)
	collectS float64 // the time that took
}

// Reader reads one agent's usage from its output. Line is called with each
// complete stdout line (without its newline) as the agent prints it, from
// one goroutine; Live returns what the lines so far report (for budgets
// while the agent runs); Finish is called once after the agent exited or
// was killed and returns the final usage.
type Reader interface {
	Line(line []byte)
	Live() Usage
	Finish(out Output) Usage
}

// lineWriter splits a stream into lines for a Reader and calls check after
// each. Lines longer than maxLine are passed on cut (a reader then sees no
// valid JSON in them).
type lineWriter struct {
	r     Reader
	check func()
	buf   []byte
}

const maxLine = 32 << 20

func (w *lineWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			if len(w.buf) < maxLine {
				w.buf = append(w.buf, p[:min(len(p), maxLine-len(w.buf))]...)
			}
			break
		}
		w.buf = append(w.buf, p[:i]...)
		w.flush()
		p = p[i+1:]
	}
	return n, nil
}

func (w *lineWriter) flush() {
	line := bytes.TrimRight(w.buf, "\r")
	if len(bytes.TrimSpace(line)) > 0 {
		w.r.Line(line)
		if w.check != nil {
			w.check()
		}
	}
	w.buf = w.buf[:0]
}

// close passes on a last line without a newline.
func (w *lineWriter) close() {
	if len(w.buf) > 0 {
		w.flush()
	}
}

// ---- Claude Code ----

// claudeReader reads Claude Code's headless output: with --output-format
// json one result envelope, with stream-json one JSON object a line whose
// last is the same envelope. Envelope fields used: total_cost_usd, usage
// (input_tokens, cache_creation_input_tokens, cache_read_input_tokens,
// output_tokens), duration_ms, num_turns, is_error, subtype. While streaming,
// Live sums the usage of the "assistant" messages, once per message.id:
// Claude Code prints one assistant frame per content block, each repeating
// its message's id and usage (the last frame of an id carries its final
// usage, so it replaces the earlier ones).
//
// Source: Claude Code headless mode documentation (claude -p
// --output-format json|stream-json; SDKResultMessage in the Agent SDK).
type claudeReader struct {
	envelope map[string]any
	byID     map[string][2]int64 // message.id -> input, output tokens
	order    []string
	anon     int // assistant frames without an id, each counted
	live     Usage
}

func (r *claudeReader) Line(line []byte) {
	m, ok := jsonObject(line)
	if !ok {
		return
	}
	switch m["type"] {
	case "result":
		r.envelope = m
	case "assistant":
		msg, _ := m["message"].(map[string]any)
		u, ok := msg["usage"].(map[string]any)
		if !ok {
			return
		}
		in, out, _ := claudeTokens(u)
		id, _ := msg["id"].(string)
		if id == "" {
			r.anon++
			id = fmt.Sprintf("\x00%d", r.anon)
		}
		if r.byID == nil {
			r.byID = map[string][2]int64{}
		}
		if _, seen := r.byID[id]; !seen {
			r.order = append(r.order, id)
		}
		r.byID[id] = [2]int64{in, out}
		var tin, tout int64
		for _, id := range r.order {
			tin += r.byID[id][0]
			tout += r.byID[id][1]
		}
		r.live.TokensIn, r.live.TokensOut = i64(tin), i64(tout)
	}
}

func (r *claudeReader) Live() Usage {
	if r.envelope != nil {
		return claudeEnvelope(r.envelope)
	}
	return r.live
}

func (r *claudeReader) Finish(out Output) Usage {
	if r.envelope == nil {
		// A pretty-printed envelope spans lines: try the whole stream.
		if m, ok := jsonObject(bytes.TrimSpace(out.Stdout)); ok && m["type"] == "result" {
			r.envelope = m
		}
	}
	if r.envelope == nil {
		u := r.live
		u.Notes = append(u.Notes, "no Claude Code result envelope on stdout (--output-format json)")
		return u
	}
	return claudeEnvelope(r.envelope)
}

// claudeTokens sums an Anthropic usage object: input = input_tokens +
// cache_creation_input_tokens + cache_read_input_tokens; output =
// output_tokens. ok is false when input_tokens or output_tokens is absent.
func claudeTokens(u map[string]any) (in, out int64, ok bool) {
	a, okA := num(u["input_tokens"])
	b, okB := num(u["output_tokens"])
	c, _ := num(u["cache_creation_input_tokens"])
	d, _ := num(u["cache_read_input_tokens"])
	return int64(a + c + d), int64(b), okA && okB
}

func claudeEnvelope(m map[string]any) Usage {
	var u Usage
	if um, ok := m["usage"].(map[string]any); ok {
		if in, out, ok := claudeTokens(um); ok {
			u.TokensIn, u.TokensOut = i64(in), i64(out)
		}
	}
	if c, ok := num(m["total_cost_usd"]); ok {
		u.CostUSD = f64(c)
	} else if c, ok := num(m["cost_usd"]); ok { // older releases
		u.CostUSD = f64(c)
	}
	if n, ok := num(m["num_turns"]); ok {
		u.Turns = i64(int64(n))
	}
	if d, ok := num(m["duration_ms"]); ok {
		u.AgentDurationS = f64(d / 1000)
	}
	if e, _ := m["is_error"].(bool); e {
		st, _ := m["subtype"].(string)
		u.Notes = append(u.Notes, "Claude Code reported an error: "+st)
	}
	return u
}

// ---- Codex ----

// codexReader reads `codex exec --json`: one JSON event a line. A
// {"type":"turn.completed","usage":{"input_tokens","cached_input_tokens",
// "output_tokens"}} event carries the thread's running totals, not the
// turn's own (Codex fills it from the last token count's total usage), so
// the last one is the run's usage: events replace each other, they are
// not summed. input_tokens already includes the cached ones. Codex
// reports no cost: CostUSD stays unknown. A "turn.failed" or "error"
// event becomes a note. (A resumed thread's totals include its earlier
// runs; polynfi never resumes one.)
//
// Source: openai/codex codex-rs/exec/src/exec_events.rs (ThreadEvent:
// turn.completed carries Usage) and event_processor_with_jsonl_output.rs
// (the usage is the last total token usage).
type codexReader struct{ u Usage }

func (r *codexReader) Line(line []byte) {
	m, ok := jsonObject(line)
	if !ok {
		return
	}
	switch m["type"] {
	case "turn.completed":
		um, _ := m["usage"].(map[string]any)
		if in, ok := num(um["input_tokens"]); ok {
			r.u.TokensIn = i64(int64(in))
		}
		if out, ok := num(um["output_tokens"]); ok {
			r.u.TokensOut = i64(int64(out))
		}
		addI(&r.u.Turns, 1)
	case "turn.failed", "error":
		msg := ""
		if e, ok := m["error"].(map[string]any); ok {
			msg, _ = e["message"].(string)
		} else if s, ok := m["message"].(string); ok {
			msg = s
		}
		r.u.Notes = append(r.u.Notes, fmt.Sprintf("codex %s: %s", m["type"], msg))
	}
}

func (r *codexReader) Live() Usage { return r.u }

func (r *codexReader) Finish(Output) Usage {
	u := r.u
	if u.TokensIn == nil && u.TokensOut == nil {
		u.Notes = append(u.Notes, "no turn.completed event on stdout (codex exec --json)")
	}
	return u
}

// ---- Aider ----

// aiderRe matches Aider's per-message report, e.g. "Tokens: 4.5k sent,
// 1.2k cache write, 3.0k cache hit, 429 received. Cost: $0.0018 message,
// $0.0018 session." (releases before prompt caching: "Tokens: 3,120 sent,
// 88 received. Cost: $0.0041 request, $0.01 session."). Source: Aider
// base_coder.py (calculate_and_show_tokens_and_cost).
var aiderRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`Tokens: ([0-9.,]+[kKmM]?) sent(?:, ([0-9.,]+[kKmM]?) cache write)?(?:, ([0-9.,]+[kKmM]?) cache hit)?, ([0-9.,]+[kKmM]?) received\.(?: Cost: \$([0-9.,]+) (?:message|request), \$([0-9.,]+) session\.)?`)
})

// aiderReader sums Aider's "Tokens: ... sent, ... received." reports
// (sent + cache write + cache hit as input) and takes the last "$X
// session" as the cost. Aider rounds token counts above 1,000 ("2.3k"), so
// its figures are approximate and a note says so.
type aiderReader struct {
	u       Usage
	rounded bool
}

func (r *aiderReader) Line(line []byte) {
	for _, m := range aiderRe().FindAllSubmatch(line, -1) {
		var in int64
		for _, g := range [][]byte{m[1], m[2], m[3]} {
			if len(g) > 0 {
				n, approx := aiderNum(string(g))
				in += n
				r.rounded = r.rounded || approx
			}
		}
		out, approx := aiderNum(string(m[4]))
		r.rounded = r.rounded || approx
		addI(&r.u.TokensIn, in)
		addI(&r.u.TokensOut, out)
		addI(&r.u.Turns, 1)
		if len(m[6]) > 0 {
			if c, err := strconv.ParseFloat(strings.ReplaceAll(string(m[6]), ",", ""), 64); err == nil {
				r.u.CostUSD = f64(c)
			}
		}
	}
}

// aiderNum parses "450", "12,450", "2.3k", "1.2M"; approx is true for a
// suffixed (rounded) number.
func aiderNum(s string) (n int64, approx bool) {
	s = strings.ReplaceAll(s, ",", "")
	mult := 1.0
	switch {
	case strings.HasSuffix(s, "k") || strings.HasSuffix(s, "K"):
		mult, s, approx = 1e3, s[:len(s)-1], true
	case strings.HasSuffix(s, "m") || strings.HasSuffix(s, "M"):
		mult, s, approx = 1e6, s[:len(s)-1], true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, true
	}
	return int64(math.Round(f * mult)), approx
}

func (r *aiderReader) Live() Usage { return r.u }

func (r *aiderReader) Finish(Output) Usage {
	u := r.u
	if u.TokensIn == nil {
		u.Notes = append(u.Notes, "no Aider token report on stdout")
	} else if r.rounded {
		u.Notes = append(u.Notes, "token counts approximate: Aider rounds them (2.3k)")
	}
	return u
}

// ---- mini-SWE-agent ----

// miniReader reads mini-SWE-agent's trajectory file (written with -o into
// {out_dir}: the first *.traj.json, trajectory.json or *.traj found):
// info.model_stats.instance_cost (USD) and api_calls (turns). Tokens are
// not in model_stats; they are summed from the messages' extra.response
// .usage (prompt_tokens, completion_tokens) when every model response
// carries one, and unknown otherwise.
//
// Source: mini-SWE-agent docs/usage/output_files.md (trajectory_format
// mini-swe-agent-1.1) and agents/default.py (serialize).
type miniReader struct{}

func (miniReader) Line([]byte) {}
func (miniReader) Live() Usage { return Usage{} }

func (miniReader) Finish(out Output) Usage {
	var traj *runtime.File
	for i := range out.Files {
		b := path.Base(out.Files[i].Path)
		if strings.HasSuffix(b, ".traj.json") || b == "trajectory.json" || strings.HasSuffix(b, ".traj") {
			traj = &out.Files[i]
			break
		}
	}
	if traj == nil {
		return Usage{Notes: []string{"no mini-SWE-agent trajectory in the output directory"}}
	}
	var doc struct {
		Info struct {
			ModelStats map[string]any `json:"model_stats"`
		} `json:"info"`
		Messages []map[string]any `json:"messages"`
	}
	if err := json.Unmarshal(traj.Data, &doc); err != nil {
		return Usage{Notes: []string{fmt.Sprintf("trajectory %s: %v", traj.Path, err)}}
	}
	var u Usage
	if c, ok := num(doc.Info.ModelStats["instance_cost"]); ok {
		u.CostUSD = f64(c)
	}
	if n, ok := num(doc.Info.ModelStats["api_calls"]); ok {
		u.Turns = i64(int64(n))
	}
	var in, outT int64
	responses, withUsage := 0, 0
	for _, m := range doc.Messages {
		if m["role"] != "assistant" {
			continue
		}
		responses++
		extra, _ := m["extra"].(map[string]any)
		resp, _ := extra["response"].(map[string]any)
		um, _ := resp["usage"].(map[string]any)
		p, ok1 := num(um["prompt_tokens"])
		c, ok2 := num(um["completion_tokens"])
		if ok1 && ok2 {
			withUsage++
			in += int64(p)
			outT += int64(c)
		}
	}
	if responses > 0 && withUsage == responses {
		u.TokensIn, u.TokensOut = i64(in), i64(outT)
	} else {
		u.Notes = append(u.Notes, "tokens unknown: the trajectory's model responses carry no usage")
	}
	return u
}

// ---- any command ----

// usageFileReader reads the optional usage file of a custom agent:
// {out_dir}/usage.json, {"tokens_in": N, "tokens_out": N, "cost_usd": X}
// (each optional). Without it every figure is unknown.
type usageFileReader struct{}

// UsageFile is the file a custom agent may write into {out_dir} to report
// its usage.
const UsageFile = "usage.json"

func (usageFileReader) Line([]byte) {}
func (usageFileReader) Live() Usage { return Usage{} }

func (usageFileReader) Finish(out Output) Usage {
	for _, f := range out.Files {
		if f.Path != UsageFile {
			continue
		}
		m, ok := jsonObject(f.Data)
		if !ok {
			return Usage{Notes: []string{UsageFile + " is not a JSON object"}}
		}
		var u Usage
		if n, ok := num(m["tokens_in"]); ok && n >= 0 {
			u.TokensIn = i64(int64(n))
		}
		if n, ok := num(m["tokens_out"]); ok && n >= 0 {
			u.TokensOut = i64(int64(n))
		}
		if c, ok := num(m["cost_usd"]); ok && c >= 0 {
			u.CostUSD = f64(c)
		}
		return u
	}
	return Usage{}
}

// ---- helpers ----

func jsonObject(b []byte) (map[string]any, bool) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return nil, false
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return nil, false
	}
	return m, true
}

func num(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
	case float64:
		return x, true
	}
	return 0, false
}

// ReadAll feeds a recorded stdout to r line by line and returns Finish's
// usage: what a run with this output would have recorded.
func ReadAll(r Reader, out Output) Usage {
	lw := &lineWriter{r: r}
	_, _ = lw.Write(out.Stdout)
	lw.close()
	return r.Finish(out)
}
