package driver

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/nfi"
)

// Finding is one diagnostic of a reported file with where to show it.
type Finding struct {
	Path  string // FileScore.Path
	Loc   string // path for locations (see artifactURI)
	Diag  nfi.Diagnostic
	Rule  *nfi.Rule
	State string // baseline state against the before version; "" for score
}

// Suppressed reports a finding silenced by a suppression.
func (f Finding) Suppressed() bool { return f.Diag.Suppressed != "" }

// Findings returns the after version's findings by file, then line,
// with their baseline state; with --new-code only those on added or
// changed lines.
func (c *Comparison) Findings() []Finding {
	var out []Finding
	for i := range c.Out.After {
		fa := &c.Out.After[i]
		start := len(out)
		for j, d := range Diagnostics(fa) {
			if c.base.newCode && !c.base.inNewCode(i, d.Line, d.EndLine) {
				continue
			}
			out = append(out, Finding{Path: fa.Path, Loc: c.afterPath(fa.Path), Diag: d, State: c.base.States[i][j]})
		}
		// within a file, in line order (rule order for one position)
		sort.SliceStable(out[start:], func(a, b int) bool {
			da, db := out[start+a].Diag, out[start+b].Diag
			return da.Line < db.Line || da.Line == db.Line && da.Column < db.Column
		})
	}
	return out
}

// FileFindings returns the findings of scored files (score).
func FileFindings(files []nfi.FileScore) []Finding {
	var out []Finding
	for i := range files {
		for _, d := range Diagnostics(&files[i]) {
			out = append(out, Finding{Path: files[i].Path, Loc: files[i].Path, Diag: d})
		}
	}
	return out
}

// suppressedCount counts the suppressed findings of files.
func suppressedCount(files []nfi.FileScore) int {
	n := 0
	for _, f := range files {
		n += f.Suppressed
	}
	return n
}

// WriteUnused lists unused suppressions (text formats).
func WriteUnused(w io.Writer, files []nfi.FileScore) {
	for _, f := range files {
		for _, u := range f.UnusedSuppressions {
			what := "# noqa: " + u.Code
			switch {
			case u.File && u.Code == "":
				what = "# polynfi: noqa"
			case u.File:
				what = "# polynfi: noqa: " + u.Code
			}
			fmt.Fprintf(w, "unused suppression: %s:%d: %s silences nothing\n", textesc.Terminal(f.Path), u.Line, textesc.Terminal(what))
		}
	}
}

// WriteDiff writes a comparison in format (or its statistics): the
// Formatter of NewFormatter, the text format for a name it does not know.
func WriteDiff(w io.Writer, format string, statistics bool, eng *nfi.Engine, c *Comparison, maxShown int) error {
	f, err := NewFormatter(format, eng, maxShown, statistics)
	if err != nil {
		f = TextFormatter{Engine: eng, MaxShown: maxShown}
	}
	return f.Write(w, c)
}

// WriteStatistics prints the number of findings per rule, most first: in
// a comparison the new ones and all of the after version; suppressed
// findings are not counted. Source of the idea: ruff check --statistics.
func WriteStatistics(w io.Writer, format string, eng *nfi.Engine, fs []Finding, compare bool) error {
	type row struct {
		ID, Name, Aspect string
		Count            int `json:"count"`
		New              int `json:"new,omitempty"`
	}
	byID := map[string]*row{}
	for _, f := range fs {
		if f.Suppressed() {
			continue
		}
		r := byID[f.Diag.RuleID]
		if r == nil {
			r = &row{ID: f.Diag.RuleID}
			if rule, ok := eng.Catalog.Lookup(f.Diag.RuleID); ok {
				r.Name, r.Aspect = rule.Name, rule.Aspect.Code()
			}
			byID[f.Diag.RuleID] = r
		}
		r.Count++
		if f.State == BaselineNew {
			r.New++
		}
	}
	rows := make([]*row, 0, len(byID))
	for _, r := range byID {
		rows = append(rows, r)
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].Count != rows[j].Count {
			return rows[i].Count > rows[j].Count
		}
		return rows[i].ID < rows[j].ID
	})
	if format == "json" {
		return writeJSON(w, map[string]any{"polynfi_version": Version(), "statistics": rows})
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if compare {
		fmt.Fprintln(tw, "NEW\tCOUNT\tRULE\tNAME")
	} else {
		fmt.Fprintln(tw, "COUNT\tRULE\tNAME")
	}
	for _, r := range rows {
		if compare {
			fmt.Fprintf(tw, "%d\t%d\t%s\t%s\n", r.New, r.Count, r.ID, r.Name)
		} else {
			fmt.Fprintf(tw, "%d\t%s\t%s\n", r.Count, r.ID, r.Name)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, ProvenanceLine(eng))
	return err
}

// ghEscape escapes a workflow command's message; ghProp also a property
// value. Source: GitHub Actions toolkit, command.ts (escapeData,
// escapeProperty).
func ghEscape(s string) string { return textesc.GitHubData(s) }

func ghProp(s string) string { return textesc.GitHubProperty(s) }

// WriteGitHub writes GitHub Actions workflow commands: a warning
// annotation per finding that counts (in a comparison, only new and
// updated ones), an error per invalid (after) file, an error per tripped
// gate and a closing notice, each once (ghAnnotations). Paths are relative
// to the working directory (the runner's checkout). Source: GitHub Docs,
// "Workflow commands for GitHub Actions" (::warning / ::error / ::notice).
func WriteGitHub(w io.Writer, fs []Finding, invalid []nfi.InvalidFile, compare bool, failed []string, notice string) error {
	var g ghAnnotations
	g.findings(fs, invalid, compare, failed)
	return g.write(w, notice)
}

// GitHubMaxPerLevel is how many annotations of one level (error, warning)
// GitHub shows for a step; polynfi writes no more than that and sums up
// the rest in a notice. Source: GitHub Docs, "Workflow commands for GitHub
// Actions" (limits: 10 warning and 10 error annotations per step).
const GitHubMaxPerLevel = 10

// ghAnnotation is one workflow command's annotation.
type ghAnnotation struct {
	level, file        string // error, warning, notice; file "" for none
	line, col, endLine int    // 0: not given
	title, msg         string
}

// ghAnnotations collects annotations, each once: a second one with the
// same level, file, line, title and message is dropped, and so is a gate's
// error that repeats an error already on a file (covered).
type ghAnnotations struct {
	list    []ghAnnotation
	seen    map[ghAnnotation]bool
	covered map[string]bool
}

func (g *ghAnnotations) add(a ghAnnotation) {
	if g.seen == nil {
		g.seen = map[ghAnnotation]bool{}
	}
	if g.seen[a] {
		return
	}
	g.seen[a] = true
	g.list = append(g.list, a)
}

// findings adds the invalid files, the findings that count and the gates
// that tripped (those not covered by a file's annotation).
func (g *ghAnnotations) findings(fs []Finding, invalid []nfi.InvalidFile, compare bool, failed []string) {
	for _, f := range invalid {
		if f.Version == nfi.VersionBefore {
			continue
		}
		line, col, msg := 1, 1, f.Status
		if f.Error != nil {
			line, col, msg = max(f.Error.Line, 1), max(f.Error.Column, 1), f.Status+": "+f.Error.Message
		}
		g.add(ghAnnotation{level: "error", file: artifactURI(f.Path), line: line, col: col,
			title: "polynfi: file cannot be scored", msg: msg + " (the comparison is undefined)"})
	}
	for _, f := range fs {
		if f.Suppressed() || (compare && f.State != BaselineNew && f.State != BaselineUpdated) {
			continue
		}
		d := f.Diag
		g.add(ghAnnotation{level: "warning", file: artifactURI(f.Loc), line: d.Line, col: d.Column, endLine: d.EndLine,
			title: "polynfi " + d.RuleID, msg: d.Message})
	}
	for _, s := range failed {
		if g.covered[s] {
			continue
		}
		g.add(ghAnnotation{level: "error", title: "polynfi gate", msg: s})
	}
}

// write writes the annotations, at most ghMaxPerLevel of each level, then
// a notice counting those left out (when any), then notice (when not "").
func (g *ghAnnotations) write(w io.Writer, notice string) error {
	shown := map[string]int{}
	omitted := map[string]int{}
	for _, a := range g.list {
		if a.level != "notice" && shown[a.level] >= GitHubMaxPerLevel {
			omitted[a.level]++
			continue
		}
		shown[a.level]++
		fmt.Fprintf(w, "::%s ", a.level)
		var props []string
		if a.file != "" {
			props = append(props, "file="+ghProp(a.file))
			if a.line > 0 {
				props = append(props, fmt.Sprintf("line=%d", a.line))
			}
			if a.col > 0 {
				props = append(props, fmt.Sprintf("col=%d", a.col))
			}
			if a.endLine > 0 {
				props = append(props, fmt.Sprintf("endLine=%d", a.endLine))
			}
		}
		props = append(props, "title="+ghProp(a.title))
		fmt.Fprintf(w, "%s::%s\n", strings.Join(props, ","), ghEscape(a.msg))
	}
	if omitted["error"]+omitted["warning"] > 0 {
		var parts []string
		for _, l := range []string{"error", "warning"} {
			if omitted[l] > 0 {
				parts = append(parts, plural(omitted[l], l))
			}
		}
		fmt.Fprintf(w, "::notice title=%s::%s\n", ghProp("polynfi: more annotations"),
			ghEscape(fmt.Sprintf("%s more not annotated (GitHub shows %d errors and %d warnings per step); --format text, sarif or markdown lists them all",
				strings.Join(parts, " and "), GitHubMaxPerLevel, GitHubMaxPerLevel)))
	}
	if notice != "" {
		fmt.Fprintf(w, "::notice title=%s::%s\n", ghProp("polynfi "+Version()), ghEscape(notice))
	}
	return nil
}

// DiffNotice summarizes a comparison in one line.
func DiffNotice(c *Comparison) string {
	var parts []string
	for _, a := range nfi.Aspects {
		if v, ok := c.Out.Improvement.Points(a); ok {
			parts = append(parts, fmt.Sprintf("%s %+.1f", a.Code(), v))
		}
	}
	ip := "I_p undefined (a file cannot be scored)"
	switch {
	case len(c.Out.Invalid) == 0 && len(c.Out.Before) == 0 && len(c.Out.After) == 0:
		ip = "no scored file changed"
	case len(c.Out.Invalid) == 0 && !c.Out.Valid:
		ip = "no I_p (one version has no Python file)"
	}
	if c.Out.Valid {
		ip = "I_p (pp): " + strings.Join(parts, ", ")
	}
	return fmt.Sprintf("%s; findings: %d new, %d fixed", ip, c.Out.Findings[BaselineNew], c.Out.Findings["absent"])
}

// GitLabIssue is one entry of a GitLab Code Quality report.
// Source: GitLab Docs, "Code Quality" report format (description,
// check_name, fingerprint, severity, location.path, location.lines.begin,
// the fields GitLab reads); type and categories make each entry a Code
// Climate issue as well (Code Climate engine spec, SPEC.md "Issues");
// engine_name is the field Code Climate's CLI adds to name the analyzer,
// and engine_version (polynfi's addition; GitLab ignores fields it does
// not read) the polynfi version that wrote the report.
type GitLabIssue struct {
	Type          string         `json:"type"`
	Description   string         `json:"description"`
	CheckName     string         `json:"check_name"`
	Categories    []string       `json:"categories"`
	Fingerprint   string         `json:"fingerprint"`
	Severity      string         `json:"severity"`
	Location      GitLabLocation `json:"location"`
	EngineName    string         `json:"engine_name"`
	EngineVersion string         `json:"engine_version"`
}

// codeClimateCategory is the Code Climate category of a rule ID's aspect:
// documentation is Clarity, error handling Bug Risk, library constraints
// (deprecated and outdated APIs) Compatibility, style Style, logic
// patterns Complexity; a file that cannot be scored is a Bug Risk.
func codeClimateCategory(ruleID string) string {
	switch {
	case strings.HasPrefix(ruleID, "DOC-"):
		return "Clarity"
	case strings.HasPrefix(ruleID, "LIB-"):
		return "Compatibility"
	case strings.HasPrefix(ruleID, "STY-"):
		return "Style"
	case strings.HasPrefix(ruleID, "LOG-"):
		return "Complexity"
	}
	return "Bug Risk"
}

// GitLabLocation is where a GitLabIssue is (path, first line).
type GitLabLocation struct {
	Path  string `json:"path"`
	Lines struct {
		Begin int `json:"begin"`
		End   int `json:"end,omitempty"`
	} `json:"lines"`
}

// WriteGitLab writes a GitLab Code Quality report: every finding that
// counts ("minor"), every invalid file ("blocker"). The fingerprint hashes
// path, rule, message and the occurrence number of that triple, so that it
// survives lines moving (GitLab compares the fingerprints of the base and
// head reports itself).
func WriteGitLab(w io.Writer, fs []Finding, invalid []nfi.InvalidFile, loc func(string) string) error {
	issues := []GitLabIssue{}
	seen := map[string]int{}
	add := func(path, Check, msg, sev string, begin, end int) {
		key := path + "\x00" + Check + "\x00" + msg
		seen[key]++
		h := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d", key, seen[key])))
		is := GitLabIssue{Type: "issue", Description: Check + " " + msg, CheckName: Check, Categories: []string{codeClimateCategory(Check)},
			Fingerprint: hex.EncodeToString(h[:16]), Severity: sev, EngineName: "polynfi", EngineVersion: Version()}
		is.Location.Path = artifactURI(path)
		is.Location.Lines.Begin = max(begin, 1)
		if end > begin {
			is.Location.Lines.End = end
		}
		issues = append(issues, is)
	}
	for _, f := range invalid {
		if f.Version == nfi.VersionBefore {
			continue
		}
		line, msg := 1, f.Status
		if f.Error != nil {
			line, msg = f.Error.Line, f.Status+": "+f.Error.Message
		}
		p := f.Path
		if loc != nil {
			p = loc(f.Path)
		}
		add(p, invalidFileRule, msg, "blocker", line, 0)
	}
	for _, f := range fs {
		if !f.Suppressed() {
			add(f.Loc, f.Diag.RuleID, f.Diag.Message, "minor", f.Diag.Line, f.Diag.EndLine)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(issues)
}

// JUnit XML. Source: the JUnit XML shape read by Jenkins, GitLab and
// GitHub test reporters (testsuites > testsuite > testcase with failure,
// error or skipped; properties).
type JUnitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Props    []JUnitProp  `xml:"properties>property"`
	Suites   []JUnitSuite `xml:"testsuite"`
}

// JUnitProp is one <property> of the suite.
type JUnitProp struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// JUnitSuite is one <testsuite>: a file.
type JUnitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []JUnitCase `xml:"testcase"`
}

// JUnitCase is one <testcase>: a rule of a file.
type JUnitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Failure   *JUnitMessage `xml:"failure,omitempty"`
	Error     *JUnitMessage `xml:"error,omitempty"`
	Skipped   *JUnitMessage `xml:"skipped,omitempty"`
}

// JUnitMessage is a <failure> or <error> with its text.
type JUnitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes one test suite per file and one test case per rule:
// a rule with findings that count fails (in a comparison, only when some
// finding is new or updated; a rule that only keeps findings the before
// version had is skipped, "failing before the change too"); an invalid
// file is one errored case.
func WriteJUnit(w io.Writer, eng *nfi.Engine, files []nfi.FileScore, c *Comparison) error {
	doc := JUnitSuites{Name: "polynfi", Props: []JUnitProp{{"polynfi_version", Version()}, {"catalog", eng.Catalog.Version}, {"suppressions", SuppressionMode(eng)}}}
	for i, f := range files {
		s := JUnitSuite{Name: f.Path}
		if !f.Valid {
			msg := f.Status
			if f.Error != nil {
				msg = fmt.Sprintf("%s at %d:%d: %s", f.Status, f.Error.Line, f.Error.Column, f.Error.Message)
			}
			s.Cases = append(s.Cases, JUnitCase{Name: invalidFileRule, ClassName: f.Path, Error: &JUnitMessage{Message: msg, Type: f.Status}})
			s.Tests, s.Errors = 1, 1
		}
		states := map[int]string{}
		if c != nil && f.Valid {
			for j := range Diagnostics(&files[i]) {
				states[j] = c.base.States[i][j]
			}
		}
		k := 0
		for _, r := range f.Rules {
			tc := JUnitCase{Name: r.ID, ClassName: f.Path}
			if rule, ok := eng.Catalog.Lookup(r.ID); ok {
				tc.Name = r.ID + " " + rule.Name
			}
			var lines []string
			fresh := c == nil
			for _, d := range r.Diagnostics {
				st := states[k]
				k++
				if d.Suppressed != "" || (c != nil && c.base.newCode && !c.base.inNewCode(i, d.Line, d.EndLine)) {
					continue
				}
				if st == BaselineNew || st == BaselineUpdated {
					fresh = true
				}
				lines = append(lines, fmt.Sprintf("%s:%d:%d: %s", f.Path, d.Line, d.Column, d.Message))
			}
			s.Tests++
			switch {
			case len(lines) == 0:
			case fresh:
				tc.Failure = &JUnitMessage{Message: fmt.Sprintf("%s: %s", r.ID, plural(len(lines), "finding")), Type: r.ID, Text: strings.Join(lines, "\n")}
				s.Failures++
			default:
				tc.Skipped = &JUnitMessage{Message: "failing before the change too", Text: strings.Join(lines, "\n")}
				s.Skipped++
			}
			s.Cases = append(s.Cases, tc)
		}
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Errors += s.Errors
		doc.Suites = append(doc.Suites, s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// mdCode makes text safe inside a Markdown code span in a table cell
// (backslash escapes are not processed in code spans, but GFM splits table
// cells at "|" before code spans, so "\|" is needed and works).
func mdCode(s string) string { return textesc.MarkdownCode(s) }

// mdEscape makes text safe inside a Markdown table cell or line
// (textesc.Markdown).
func mdEscape(s string) string { return textesc.Markdown(s) }

// writeDiffMarkdown writes a pull-request summary: verdict, per-aspect
// S_p before and after with I_p, findings counts, the first new findings,
// invalid files and tripped gates.
func writeDiffMarkdown(w io.Writer, eng *nfi.Engine, c *Comparison, maxShown int) error {
	out := c.Out
	verdict := "✅ no aspect regressed"
	switch {
	case len(out.Invalid) > 0:
		verdict = "❌ comparison undefined: a file cannot be scored"
	case len(out.Before) == 0 && len(out.After) == 0:
		verdict = "✅ no scored file changed"
	case !out.Valid:
		verdict = "✅ no I_p: one version has no Python file (only added or only deleted files)"
	case len(out.Gates) > 0:
		verdict = "❌ quality gate failed"
	case out.Improvement.Negative():
		verdict = "⚠️ some aspect regressed"
	}
	fmt.Fprintf(w, "## polynfi: non-functional quality of this change\n\n%s — %s changed", verdict, plural(len(out.After)+len(out.Removed), "Python file"))
	if out.Git != nil {
		fmt.Fprintf(w, " since `%s` (%s)", mdCode(out.Git.Base), ShortID(out.Git.MergeBase))
	}
	fmt.Fprint(w, ".\n\n")
	rows := scoredAspects(&out)
	if len(rows) > 0 {
		fmt.Fprintln(w, "| Aspect | S_p before | S_p after | I_p (pp) |")
		fmt.Fprintln(w, "|---|---:|---:|---:|")
	}
	for _, a := range rows {
		b, okb := out.Delta.Before.Get(a)
		af, oka := out.Delta.After.Get(a)
		cell := func(v float64, ok bool) string {
			if !ok {
				return "–"
			}
			return fmt.Sprintf("%.3f", v)
		}
		ip := "–"
		if v, ok := out.Improvement.Points(a); ok {
			ip = fmt.Sprintf("%+.1f", v)
			if v < 0 {
				ip = "**" + ip + "**"
			}
		}
		fmt.Fprintf(w, "| %s (%s) | %s | %s | %s |\n", a.Code(), a, cell(b, okb), cell(af, oka), ip)
	}
	scope := ""
	if out.NewCode {
		scope = " (on added or changed lines)"
	}
	fmt.Fprintf(w, "\n**Findings%s:** %d new, %d updated, %d unchanged, %d fixed.\n", scope,
		out.Findings[BaselineNew], out.Findings[BaselineUpdated], out.Findings[BaselineUnchanged], out.Findings["absent"])
	if len(out.Invalid) > 0 {
		fmt.Fprintln(w, "\n**Files that cannot be scored** (the comparison is undefined):")
		for _, f := range out.Invalid {
			msg := f.Status
			if f.Error != nil {
				msg = fmt.Sprintf("%s at %d:%d: %s", f.Status, f.Error.Line, f.Error.Column, f.Error.Message)
			}
			fmt.Fprintf(w, "- %s `%s`: %s\n", f.Version, mdCode(f.Path), mdEscape(msg))
		}
	}
	var fresh []Finding
	for _, f := range c.Findings() {
		if f.State == BaselineNew && !f.Suppressed() {
			fresh = append(fresh, f)
		}
	}
	if len(fresh) > 0 {
		fmt.Fprintf(w, "\n<details open><summary>New findings (%d)</summary>\n\n", len(fresh))
		fmt.Fprintln(w, "| Location | Rule | Message |")
		fmt.Fprintln(w, "|---|---|---|")
		for i, f := range fresh {
			if i == maxShown {
				fmt.Fprintf(w, "\n… and %d more.\n", len(fresh)-maxShown)
				break
			}
			name := ""
			if r, ok := eng.Catalog.Lookup(f.Diag.RuleID); ok {
				name = " " + r.Name
			}
			fmt.Fprintf(w, "| `%s:%d` | %s%s | %s |\n", mdCode(f.Path), f.Diag.Line, f.Diag.RuleID, mdEscape(name), mdEscape(f.Diag.Message))
		}
		fmt.Fprint(w, "\n</details>\n")
	}
	if len(out.FileRegressions) > 0 {
		fmt.Fprintln(w, "\n**Files whose own S_p fell** (the regression gate judges each file, whatever the mean does):")
		for _, r := range out.FileRegressions {
			fmt.Fprintf(w, "- %s\n", mdEscape(r.String()))
		}
	}
	if len(out.NewSuppressions) > 0 {
		fmt.Fprintln(w, "\n**Findings silenced by suppressions this change adds** (they count for the gates unless `--allow-new-suppressions`):")
		for _, s := range out.NewSuppressions {
			fmt.Fprintf(w, "- `%s:%d` %s %s\n", mdCode(s.Path), s.Line, s.Rule, mdEscape(s.Message))
		}
	}
	if out.SettingsFromBase != "" {
		fmt.Fprintf(w, "\n**Settings:** this change edits them; both versions were scored with the before version's (`%s`). The new settings apply once merged.\n", mdCode(out.SettingsFromBase))
	}
	if len(out.Unscored) > 0 || len(out.ExcludedSplits) > 0 {
		fmt.Fprintln(w, "\n**Excluded files this change adds:**")
		for _, p := range out.ExcludedSplits {
			fmt.Fprintf(w, "- `%s`: scored all the same (its code comes from a scored file)\n", mdCode(p))
		}
		for _, p := range out.Unscored {
			fmt.Fprintf(w, "- `%s`: not scored\n", mdCode(p))
		}
	}
	if len(out.Gates) > 0 {
		fmt.Fprintln(w, "\n**Gates failed:**")
		for _, g := range out.Gates {
			fmt.Fprintf(w, "- %s\n", mdEscape(g))
		}
	}
	fmt.Fprintf(w, "\n<sub>polynfi %s · catalog %s · suppressions %s · S_p = passed/total rules per aspect (SWE-NFI Eq. 1), I_p = S_p(after) − S_p(before) (Eq. 2)</sub>\n",
		mdEscape(Version()), eng.Catalog.Version, SuppressionMode(eng))
	return nil
}

// writeJSON writes v as indented JSON, "<" and ">" unescaped.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // "<=" stays "<=", not "\u003c="
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
