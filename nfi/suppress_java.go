package nfi

import (
	"bytes"
	"strings"

	"github.com/polynfi/polynfi/syntax"
)

// Java's suppressions, honoured in Java files when the Engine honours
// suppressions, in PMD's and Checkstyle's habits:
//
//   - a comment containing `NOPMD` silences every finding starting on its
//     line (PMD "Suppressing warnings", the NOPMD marker; PMD also reads
//     text after the marker as a reason, ignored here);
//   - `@SuppressWarnings("PMD")` on a declaration (type, method,
//     constructor, field, local variable, parameter) silences the findings
//     inside it of every rule but those reproducing a Checkstyle check only; `@SuppressWarnings("PMD.RuleName")` the polynfi rules whose
//     Oracle.PMD names RuleName; `@SuppressWarnings("all")` everything (PMD
//     honours it too). An array (`{"PMD.A", "PMD.B"}`) lists several;
//   - `@SuppressWarnings("checkstyle:modulename")` (Checkstyle's
//     SuppressWarningsHolder form, the module's name in any case, with or
//     without its "Check" suffix) silences the rules whose
//     Oracle.Checkstyle names that module;
//   - a polynfi rule ID (`@SuppressWarnings("JAVA-LOG-P01")`) silences
//     that rule.
//
// Source: PMD 7 documentation, "Suppressing warnings"
// (docs.pmd-code.org/latest/pmd_userdocs_suppressing_warnings.html);
// Checkstyle SuppressWarningsHolder.

// javaSuppression is one @SuppressWarnings annotation: the byte range of
// the declaration it is on and the names it lists.
type javaSuppression struct {
	start, end uint32
	names      []string
}

// suppressJava marks the diagnostics of fs that NOPMD comments and
// @SuppressWarnings annotations silence, then recomputes the verdicts and
// S_p as suppress does.
func (e *Engine) suppressJava(path string, tree *syntax.Tree, t *langTable, fs *FileScore) {
	perFile := e.perFileIgnored(path)
	var nopmd map[int]bool
	var anns []javaSuppression
	if bytes.Contains(tree.Source, []byte("NOPMD")) {
		nopmd = map[int]bool{}
		for i := range tree.Nodes {
			n := &tree.Nodes[i]
			if int(n.KindID) < len(t.isComment) && t.isComment[n.KindID] && bytes.Contains(tree.Source[n.StartByte:n.EndByte], []byte("NOPMD")) {
				nopmd[int(tree.Row(n.StartByte))+1] = true
			}
		}
	}
	if bytes.Contains(tree.Source, []byte("SuppressWarnings")) {
		anns = suppressWarnings(tree)
	}
	if len(nopmd) == 0 && len(anns) == 0 && len(perFile) == 0 {
		return
	}
	lines := tree.LineStarts()
	var passed [numAspects]int
	for i := range fs.Rules {
		rr := &fs.Rules[i]
		r, _ := e.Catalog.Lookup(rr.ID)
		silenced := 0
		for j := range rr.Diagnostics {
			d := &rr.Diagnostics[j]
			switch {
			case perFile[rr.ID]:
				d.Suppressed = SuppressedPerFile
			case nopmd[d.Line]:
				d.Suppressed = SuppressedNOPMD
			case r != nil && len(anns) > 0 && d.Line >= 1 && d.Line <= len(lines):
				at := lines[d.Line-1] + uint32(max(d.Column-1, 0))
				for _, a := range anns {
					if a.start <= at && at < a.end && javaNamesRule(a.names, r) {
						d.Suppressed = SuppressedAnnotation
						break
					}
				}
			}
			if d.Suppressed != "" {
				silenced++
			}
		}
		fs.Suppressed += silenced
		rr.Passed = silenced == len(rr.Diagnostics)
		if rr.Passed {
			passed[rr.Aspect]++
		}
	}
	fs.Scores = Scores{}
	for _, a := range Aspects {
		if t.total[a] > 0 {
			fs.Scores.set(a, float64(passed[a])/float64(t.total[a]))
		}
	}
}

// suppressWarnings returns the @SuppressWarnings annotations of the file,
// each with the range of the declaration it annotates (the parent of its
// modifiers) and the string values it lists.
func suppressWarnings(tree *syntax.Tree) []javaSuppression {
	var out []javaSuppression
	for i := range tree.Nodes {
		n := syntax.NodeID(i)
		if tree.Kind(n) != "annotation" {
			continue
		}
		name := tree.Text(tree.ChildByField(n, "name"))
		if !bytes.Equal(name, []byte("SuppressWarnings")) && !bytes.Equal(name, []byte("java.lang.SuppressWarnings")) {
			continue
		}
		mods := tree.Parent(n)
		if mods == syntax.NoNode || tree.Kind(mods) != "modifiers" {
			continue
		}
		decl := tree.Parent(mods)
		if decl == syntax.NoNode {
			continue
		}
		var names []string
		args := tree.ChildByField(n, "arguments")
		for j := args; args != syntax.NoNode && j < tree.Node(args).End; j++ {
			if tree.Kind(j) == "string_fragment" {
				names = append(names, string(tree.Text(j)))
			}
		}
		nd := tree.Node(decl)
		out = append(out, javaSuppression{start: nd.StartByte, end: nd.EndByte, names: names})
	}
	return out
}

// javaNamesRule reports whether a @SuppressWarnings list silences rule r.
func javaNamesRule(names []string, r *Rule) bool {
	for _, s := range names {
		switch {
		case s == "all" || s == r.ID:
			return true
		case s == "PMD":
			// PMD's rules: those with a PMD oracle, and those with no
			// linter's (a Checkstyle rule is Checkstyle's to silence)
			if len(r.Oracle.PMD) > 0 || len(r.Oracle.Checkstyle) == 0 {
				return true
			}
		case strings.HasPrefix(s, "PMD."):
			for _, ref := range r.Oracle.PMD {
				if ref[strings.LastIndexByte(ref, '/')+1:] == s[4:] {
					return true
				}
			}
		case strings.HasPrefix(strings.ToLower(s), "checkstyle:"):
			want := strings.TrimSuffix(strings.ToLower(s[len("checkstyle:"):]), "check")
			for _, m := range r.Oracle.Checkstyle {
				if strings.ToLower(m) == want {
					return true
				}
			}
		}
	}
	return false
}
