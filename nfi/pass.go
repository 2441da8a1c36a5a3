package nfi

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/polynfi/polynfi/nfi/pyast"
	"github.com/polynfi/polynfi/syntax"
)

// Pass is one rule's view of one file while the engine scores it. A Pass is
// used by one goroutine only.
type Pass struct {
	Rule   *Rule
	Tree   *syntax.Tree
	Module *pyast.Module // nil for a file that is not Python
	// Path is the file's path as given to Engine.Score.
	Path string
	// State is scratch space for the rule, nil at the start of every file.
	State any

	limit    float64
	options  map[string]any
	diags    []Diagnostic
	value    float64
	hasValue bool
	row      int // the 0-based row of the last Report: where the next one's search starts
}

// Limit returns the threshold in force for this rule (the catalog default or
// the configured value). It is 0 for non-threshold rules.
func (p *Pass) Limit() float64 { return p.limit }

// Exceeds reports whether value breaks the rule's limit (false for non-threshold rules).
func (p *Pass) Exceeds(value float64) bool {
	if p.Rule.Limit == nil {
		return false
	}
	return !p.Rule.Limit.Cmp.Holds(value, p.limit)
}

// Option returns a configured per-rule option (from [tool.polynfi.options."ID"]).
func (p *Pass) Option(name string) (any, bool) {
	v, ok := p.options[name]
	return v, ok
}

// BoolOption returns a boolean option, or def when unset or not a bool.
func (p *Pass) BoolOption(name string, def bool) bool {
	if v, ok := p.options[name].(bool); ok {
		return v
	}
	return def
}

// Reportf records a violation at node n.
func (p *Pass) Reportf(n syntax.NodeID, format string, args ...any) {
	p.Report(n, sprintf(format, args...))
}

// Report records a violation at node n with the message msg as it is
// (Reportf(n, "%s", msg) without the formatting: for messages a rule
// concatenates, one allocation instead of one per argument and the result).
// As with Reportf's format, msg must not be a view of the tree's source.
func (p *Pass) Report(n syntax.NodeID, msg string) {
	// the rows are searched from the last report's (rules mostly report
	// in source order), and the diagnostic written in place
	sr, sc, er, ec := p.Tree.SpanFrom(n, p.row)
	p.row = int(sr)
	p.diags = append(p.diags, Diagnostic{})
	d := &p.diags[len(p.diags)-1]
	d.RuleID, d.Message = p.Rule.ID, msg
	d.Line, d.Column, d.EndLine, d.EndColumn = int(sr)+1, int(sc)+1, int(er)+1, int(ec)+1
}

// Grow makes room for n more violations, for a rule that knows how many
// it is about to record (one allocation instead of a growing buffer's).
func (p *Pass) Grow(n int) { p.diags = slices.Grow(p.diags, n) }

// ReportAt records a violation at a 1-based line and column with the
// message msg as it is.
func (p *Pass) ReportAt(line, column int, msg string) {
	p.diags = append(p.diags, Diagnostic{RuleID: p.Rule.ID, Line: line, Column: column, Message: msg})
}

// ReportAtf records a violation at a 1-based line and column.
func (p *Pass) ReportAtf(line, column int, format string, args ...any) {
	p.diags = append(p.diags, Diagnostic{RuleID: p.Rule.ID, Line: line, Column: column, Message: sprintf(format, args...)})
}

// Measure records the file-level measured value of a threshold rule (for
// reports): for AtMost rules the maximum of all calls is kept, for AtLeast and
// Above the minimum. It does not decide pass or fail; diagnostics do.
func (p *Pass) Measure(v float64) {
	if !p.hasValue {
		p.value, p.hasValue = v, true
		return
	}
	if p.Rule.Limit != nil && p.Rule.Limit.Cmp != AtMost {
		p.value = min(p.value, v)
	} else {
		p.value = max(p.value, v)
	}
}

// Diagnostics returns what has been reported so far.
func (p *Pass) Diagnostics() []Diagnostic { return p.diags }

// sprintf is fmt.Sprintf(format, args...) with fast paths for the
// messages rules report most: a format without verbs and arguments is
// returned as it is (so a rule must never pass a zero-copy view of the
// source as the format: it would outlive the tree); verbs %s of a string or
// []byte, %d of an int and %%, without flags, width or precision, and
// exactly one argument per verb, are formatted here. Anything else is left
// to fmt.Sprintf, so the result is always fmt's.
func sprintf(format string, args ...any) string {
	if len(args) == 0 && strings.IndexByte(format, '%') < 0 {
		return format
	}
	var buf [160]byte
	b := buf[:0]
	next := 0      // the next argument
	rest := format // the format after what b holds
	for {
		j := strings.IndexByte(rest, '%')
		if j < 0 {
			b = append(b, rest...)
			break
		}
		b = append(b, rest[:j]...)
		if j+1 == len(rest) {
			return fmt.Sprintf(format, args...)
		}
		verb := rest[j+1]
		rest = rest[j+2:]
		if verb == '%' {
			b = append(b, '%')
			continue
		}
		if next == len(args) {
			return fmt.Sprintf(format, args...)
		}
		switch v := args[next].(type) {
		case string:
			if verb != 's' {
				return fmt.Sprintf(format, args...)
			}
			b = append(b, v...)
		case []byte:
			if verb != 's' {
				return fmt.Sprintf(format, args...)
			}
			b = append(b, v...)
		case int:
			if verb != 'd' {
				return fmt.Sprintf(format, args...)
			}
			b = strconv.AppendInt(b, int64(v), 10)
		default:
			return fmt.Sprintf(format, args...)
		}
		next++
	}
	if next != len(args) {
		return fmt.Sprintf(format, args...)
	}
	return string(b)
}
