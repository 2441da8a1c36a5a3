package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Trajectory formats Steps reads.
const (
	FormatClaude = "claude-stream-json" // Claude Code --output-format stream-json: assistant tool_use blocks
	FormatCodex  = "codex-jsonl"        // codex exec --json: item.started / item.completed events
	FormatMini   = "mini-swe-agent"     // mini-SWE-agent's trajectory file: assistant messages' bash blocks
)

// Step is one action an agent took: a tool call or a command it ran.
// Index counts the steps of one run from 0 in the order the agent took
// them (across its trajectory's sources: stdout first, then the files of
// its output directory in path order); Source names where it was read
// ("stdout.log:12", a line; "trajectory/traj.json#messages[4]", a JSON
// element); Tool is the agent's own name of the tool ("Bash", "Read",
// "command_execution", "bash" for mini-SWE-agent's shell blocks); Input is
// what it was given, rendered as one string: the shell command, the path,
// the URL or the query, else the tool's input as compact JSON.
type Step struct {
	Index  int    `json:"index"`
	Source string `json:"source"`
	Tool   string `json:"tool"`
	Input  string `json:"input"`
}

// maxInput bounds a step's Input, in bytes.
const maxInput = 8 << 10

// jsonLines decodes the JSON objects of b, one a line, with their 1-based
// line numbers; lines that are not JSON objects are skipped.
func jsonLines(b []byte) (objs []map[string]any, lines []int) {
	for i, line := range bytes.Split(b, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var m map[string]any
		if json.Unmarshal(line, &m) == nil {
			objs = append(objs, m)
			lines = append(lines, i+1)
		}
	}
	return objs, lines
}

// detectLines names the JSON-lines format of objs ("" when none): Claude
// Code's stream (objects of type system, assistant, user or result with a
// message or a session id) or Codex's events (thread.*, turn.*, item.*).
func detectLines(objs []map[string]any) string {
	for _, m := range objs {
		t, _ := m["type"].(string)
		switch {
		case t == "assistant" || t == "user" || t == "system":
			if _, ok := m["message"]; ok || t == "system" {
				return FormatClaude
			}
		case strings.HasPrefix(t, "item.") || strings.HasPrefix(t, "thread.") || strings.HasPrefix(t, "turn."):
			return FormatCodex
		}
	}
	return ""
}

// ParseLines reads the steps of a JSON-lines trajectory (Claude Code's
// stream-json or Codex's JSON events) named source; format is "" when b
// holds neither. Steps are numbered from first.
func ParseLines(source string, b []byte, first int) (steps []Step, format string) {
	objs, lines := jsonLines(b)
	format = detectLines(objs)
	add := func(line int, tool, input string) {
		steps = append(steps, Step{Index: first + len(steps), Source: fmt.Sprintf("%s:%d", source, line), Tool: tool, Input: bound(input)})
	}
	seen := map[string]bool{}
	switch format {
	case FormatClaude:
		// One assistant frame per content block; a tool_use's id is unique.
		for i, m := range objs {
			if m["type"] != "assistant" {
				continue
			}
			msg, _ := m["message"].(map[string]any)
			content, _ := msg["content"].([]any)
			for _, c := range content {
				block, _ := c.(map[string]any)
				if block["type"] != "tool_use" {
					continue
				}
				if id, _ := block["id"].(string); id != "" {
					if seen[id] {
						continue
					}
					seen[id] = true
				}
				name, _ := block["name"].(string)
				in, _ := block["input"].(map[string]any)
				add(lines[i], name, renderInput(in))
			}
		}
	case FormatCodex:
		// An item is started and completed: counted once, at its first event.
		for i, m := range objs {
			t, _ := m["type"].(string)
			if t != "item.started" && t != "item.completed" && t != "item.updated" {
				continue
			}
			item, _ := m["item"].(map[string]any)
			id, _ := item["id"].(string)
			if id != "" {
				if seen[id] {
					continue
				}
				seen[id] = true
			}
			kind, _ := item["type"].(string)
			switch kind {
			case "command_execution":
				cmd, _ := item["command"].(string)
				add(lines[i], kind, cmd)
			case "file_change":
				var paths []string
				changes, _ := item["changes"].([]any)
				for _, c := range changes {
					if cm, ok := c.(map[string]any); ok {
						if p, ok := cm["path"].(string); ok {
							paths = append(paths, p)
						}
					}
				}
				add(lines[i], kind, strings.Join(paths, " "))
			case "web_search":
				q, _ := item["query"].(string)
				add(lines[i], kind, q)
			case "mcp_tool_call":
				add(lines[i], kind, renderInput(item))
			}
		}
	}
	return steps, format
}

// reBashBlock is one fenced shell block of an assistant message, as
// mini-SWE-agent asks its model to write (```bash ... ```).
var reBashBlock = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("(?s)```(?:bash|sh)?[ \t]*\n(.*?)```") })

// ParseMini reads the steps of a mini-SWE-agent trajectory file (a JSON
// object with "messages"): each fenced shell block of an assistant
// message is a step. ok is false when b is not such a file.
func ParseMini(source string, b []byte, first int) (steps []Step, ok bool) {
	var traj struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(b, &traj) != nil || traj.Messages == nil {
		return nil, false
	}
	for i, m := range traj.Messages {
		if m.Role != "assistant" {
			continue
		}
		var text string
		if json.Unmarshal(m.Content, &text) != nil {
			// a list of content parts: [{"type":"text","text":...}]
			var parts []struct {
				Text string `json:"text"`
			}
			if json.Unmarshal(m.Content, &parts) != nil {
				continue
			}
			for _, p := range parts {
				text += p.Text + "\n"
			}
		}
		for _, blk := range reBashBlock().FindAllStringSubmatch(text, -1) {
			steps = append(steps, Step{Index: first + len(steps), Source: fmt.Sprintf("%s#messages[%d]", source, i), Tool: "bash",
				Input: bound(strings.TrimSpace(blk[1]))})
		}
	}
	return steps, true
}

// inputKeys are the fields of a tool's input that say what it acts on, in
// the order they are preferred (Claude Code's tools: Bash command, Read,
// Edit and Write file_path, Grep and Glob pattern and path, WebFetch url,
// WebSearch query).
var inputKeys = []string{"command", "cmd", "file_path", "path", "notebook_path", "url", "query", "pattern"}

// renderInput renders a tool's input: its preferred fields' values joined
// by blanks (every one present, so that Grep's pattern and path both
// show), else the input as compact JSON with sorted keys.
func renderInput(in map[string]any) string {
	var parts []string
	for _, k := range inputKeys {
		switch v := in[k].(type) {
		case string:
			parts = append(parts, v)
		case []any:
			for _, x := range v {
				if s, ok := x.(string); ok {
					parts = append(parts, s)
				}
			}
		}
	}
	if len(parts) > 0 {
		return strings.Join(parts, " ")
	}
	b, _ := json.Marshal(in) // encoding/json sorts map keys
	return string(b)
}

func bound(s string) string {
	s = strings.ToValidUTF8(s, "?")
	if len(s) > maxInput {
		return strings.ToValidUTF8(s[:maxInput], "") + "..."
	}
	return s
}
