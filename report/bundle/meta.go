package bundle

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/polynfi/polynfi/dataset"
)

// Meta is what a submitter says of the system in the bundle's
// metadata.yaml (report --bundle-* flags); polynfi cannot know it. A field
// left unset is written null (a list: empty) with a comment saying what to
// fill in.
//
// The two leaderboards publish different metadata.yaml shapes:
//
//   - SWE-PolyBench (branch "submission", README.md "SWE-PolyBench
//     Submission"): flat keys name, oss ("true if your system is
//     open-source"), site ("URL/link to more information about your
//     system") and pass_rate ("XX.XX% (123/500)"); published entries also
//     carry logo (a list of image URLs) and authors (one string), e.g.
//     evaluation/PBVerified/20251208_atlassian-rovo-dev/metadata.yaml and
//     evaluation/PBVerified/20251130_prometheus_gpt-5/metadata.yaml.
//   - SWE-bench (SWE-bench/experiments, checklist.md and the entries under
//     evaluation/<split>/): info {name, site, report (the technical report
//     or blog post, "info / report"), authors, logo (one URL)} and tags
//     {checked (set by the maintainers: written false), model (the LMs
//     used), org, os_model, os_system, system {attempts: "1", or "2+" for
//     a best@k system}}. assets (the S3 copies of logs/ and trajs/) is
//     filled in by the maintainers and not written.
//
// A run of a SWE-bench-schema dataset gets SWE-bench's shape, any other
// harness run SWE-PolyBench's. Report, Org, LMs, OSModel and Attempts
// exist only in SWE-bench's: given for another run they are refused.
type Meta struct {
	Name     string   // --bundle-name: the leaderboard entry's name (default: the model_name_or_path)
	OSS      string   // --bundle-oss: "true" or "false": the system is open source (oss; tags.os_system)
	Site     string   // --bundle-site: an http(s) URL with more about the system
	Logos    []string // --bundle-logo: image URLs (SWE-bench: at most one)
	Authors  string   // --bundle-authors: the people who made the submission, one line
	Report   string   // --bundle-report: URL of the technical report or blog post (SWE-bench)
	Orgs     []string // --bundle-org: organisations (SWE-bench tags.org)
	LMs      []string // --bundle-lm: the language models the system uses (SWE-bench tags.model)
	OSModel  string   // --bundle-os-model: "true" or "false": the models' weights are open (SWE-bench)
	Attempts string   // --bundle-attempts: "1" or "2+" (SWE-bench tags.system.attempts)
}

// Given reports whether any --bundle-* flag was set.
func (m *Meta) Given() bool {
	return m.Name != "" || m.OSS != "" || m.Site != "" || len(m.Logos) > 0 || m.Authors != "" || m.Report != "" ||
		len(m.Orgs) > 0 || len(m.LMs) > 0 || m.OSModel != "" || m.Attempts != ""
}

// Check validates the values (a usage error naming the flag and the value
// when one is wrong): booleans are true or false, URLs absolute http(s)
// with a host, texts one line and not blank.
func (m *Meta) Check() error {
	for _, b := range []struct{ flag, v string }{{"--bundle-oss", m.OSS}, {"--bundle-os-model", m.OSModel}} {
		if b.v != "" && b.v != "true" && b.v != "false" {
			return usagef("%s %q: want true or false", b.flag, b.v)
		}
	}
	urls := []struct{ flag, v string }{{"--bundle-site", m.Site}, {"--bundle-report", m.Report}}
	for _, l := range m.Logos {
		urls = append(urls, struct{ flag, v string }{"--bundle-logo", l})
	}
	for _, u := range urls {
		if u.v == "" && u.flag != "--bundle-logo" {
			continue
		}
		if err := checkHTTPURL(u.v); err != nil {
			return usagef("%s %q: %v", u.flag, u.v, err)
		}
	}
	texts := []struct{ flag, v string }{{"--bundle-name", m.Name}, {"--bundle-authors", m.Authors}}
	for _, o := range m.Orgs {
		texts = append(texts, struct{ flag, v string }{"--bundle-org", o})
	}
	for _, l := range m.LMs {
		texts = append(texts, struct{ flag, v string }{"--bundle-lm", l})
	}
	for _, t := range texts {
		if t.v == "" && (t.flag == "--bundle-name" || t.flag == "--bundle-authors") {
			continue
		}
		if strings.TrimSpace(t.v) == "" {
			return usagef("%s %q: want a non-blank value", t.flag, t.v)
		}
		if strings.ContainsFunc(t.v, unicode.IsControl) {
			return usagef("%s %q: want one line of text (no line break or control character)", t.flag, t.v)
		}
	}
	if m.Attempts != "" && m.Attempts != "1" && m.Attempts != "2+" {
		return usagef(`--bundle-attempts %q: want "1" (one attempt per instance) or "2+" (best@k), as SWE-bench's checklist.md defines them`, m.Attempts)
	}
	return nil
}

// checkHTTPURL accepts an absolute http or https URL with a host.
func checkHTTPURL(s string) error {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return fmt.Errorf("not a URL (%v)", err)
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("want an absolute http(s) URL such as https://example.com/agent (scheme %q)", u.Scheme)
	case u.Host == "":
		return fmt.Errorf("want an absolute http(s) URL such as https://example.com/agent (no host)")
	case strings.ContainsFunc(s, unicode.IsSpace):
		return fmt.Errorf("a URL holds no spaces")
	}
	return nil
}

// checkSchema refuses the SWE-bench-only fields for a run whose
// metadata.yaml has SWE-PolyBench's shape, and several logos for
// SWE-bench's (info.logo is one URL).
func (m *Meta) checkSchema(schema dataset.Schema) error {
	if schema == dataset.SchemaSWEBench {
		if len(m.Logos) > 1 {
			return usagef("--bundle-logo given %d times: SWE-bench's metadata.yaml holds one logo (info.logo)", len(m.Logos))
		}
		return nil
	}
	for _, f := range []struct {
		flag string
		set  bool
	}{{"--bundle-report", m.Report != ""}, {"--bundle-org", len(m.Orgs) > 0}, {"--bundle-lm", len(m.LMs) > 0},
		{"--bundle-os-model", m.OSModel != ""}, {"--bundle-attempts", m.Attempts != ""}} {
		if f.set {
			return usagef("%s: SWE-bench's metadata.yaml field, and this is a %s-schema run, whose bundle has SWE-PolyBench's metadata.yaml (name, oss, site, pass_rate, logo, authors)", f.flag, schemaName(schema))
		}
	}
	return nil
}

func schemaName(s dataset.Schema) string {
	if s == "" {
		return "polybench"
	}
	return string(s)
}

// missing names the metadata fields left unset, as the leaderboard spells
// them, for the README's "Before submitting".
func (m *Meta) missing(schema dataset.Schema) []string {
	var out []string
	add := func(unset bool, name string) {
		if unset {
			out = append(out, name)
		}
	}
	if schema == dataset.SchemaSWEBench {
		add(m.Site == "", "info.site")
		add(m.Report == "", "info.report")
		add(m.Authors == "", "info.authors")
		add(len(m.LMs) == 0, "tags.model")
		add(len(m.Orgs) == 0, "tags.org")
		add(m.OSModel == "", "tags.os_model")
		add(m.OSS == "", "tags.os_system")
		add(m.Attempts == "", "tags.system.attempts")
		return out
	}
	add(m.OSS == "", "oss")
	add(m.Site == "", "site")
	return out
}

// metadataYAML renders the bundle's metadata.yaml for a run of the given
// schema: model is the entry's default name, passRate SWE-PolyBench's
// "XX.XX% (n/N)", head a comment above the keys ("" for none).
func (m *Meta) metadataYAML(schema dataset.Schema, model, passRate, head string) ([]byte, error) {
	name := m.Name
	if name == "" {
		name = model
	}
	var doc *yaml.Node
	if schema == dataset.SchemaSWEBench {
		info := ymap(
			"name", ystr(name),
			"site", yopt(m.Site, "URL with more information about your system"),
			"report", yopt(m.Report, "URL of the technical report or blog post describing the system (required)"),
			"authors", yopt(m.Authors, "the people who produced the submission"),
			"logo", yopt(first(m.Logos), "URL of a logo image"))
		tags := ymap(
			"checked", ybool("false"),
			"model", yseq(m.LMs, "the language models the system uses"),
			"org", yseq(m.Orgs, "the organisations behind the system"),
			"os_model", yoptBool(m.OSModel, "true if the models' weights are open"),
			"os_system", yoptBool(m.OSS, "true if the system is open source"),
			"system", ymap("attempts", yoptQuoted(m.Attempts, `"1", or "2+" if the system picks one of several attempts (best@k)`)))
		doc = ymap("info", info, "tags", tags)
	} else {
		kv := []any{
			"name", ystr(name),
			"oss", yoptBool(m.OSS, "true if your system is open-source"),
			"site", yopt(m.Site, "URL with more information about your system"),
			"pass_rate", ystr(passRate),
		}
		if len(m.Logos) > 0 {
			kv = append(kv, "logo", yseq(m.Logos, ""))
		}
		if m.Authors != "" {
			kv = append(kv, "authors", ystr(m.Authors))
		}
		doc = ymap(kv...)
	}
	doc.HeadComment = head
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// ymap is a YAML mapping of alternating keys (strings) and value nodes, in
// that order.
func ymap(kv ...any) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(kv); i += 2 {
		n.Content = append(n.Content, ystr(kv[i].(string)), kv[i+1].(*yaml.Node))
	}
	return n
}

// ystr is a string scalar; the encoder quotes it when YAML would read it
// as something else (true, null, 1.0, ...).
func ystr(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

func ybool(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: s}
}

func ynull(comment string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null", LineComment: comment}
}

// yopt is s, or null with a comment saying what to fill in.
func yopt(s, comment string) *yaml.Node {
	if s == "" {
		return ynull(comment)
	}
	return ystr(s)
}

// yoptQuoted is yopt written double-quoted (SWE-bench's "1" and "2+").
func yoptQuoted(s, comment string) *yaml.Node {
	n := yopt(s, comment)
	if s != "" {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// yoptBool is a checked "true"/"false" as a YAML boolean, or null.
func yoptBool(s, comment string) *yaml.Node {
	if s == "" {
		return ynull(comment)
	}
	return ybool(s)
}

// yseq is a list of strings; an empty one is written [] with the comment.
func yseq(items []string, comment string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode}
	for _, s := range items {
		n.Content = append(n.Content, ystr(s))
	}
	if len(items) == 0 {
		n.Style = yaml.FlowStyle
		n.LineComment = comment
	}
	return n
}
