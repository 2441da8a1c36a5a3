package harness

import (
	"regexp"
	"strings"

	"github.com/polynfi/polynfi/dataset"
)

// workspaceInLog finds the scratch work tree a stored log was run in
// (<store>/.work/inst-*/..., a few components deep), so that test ids can
// be made relative to it as they were at grading time.
var workspaceInLog = regexp.MustCompile(`/[^\s'"]*/\.work/inst-[A-Za-z0-9]+(?:/[A-Za-z0-9._-]+){0,3}`)

// Regrade re-parses a record's stored test log with the current parsers
// and grades it again in every mode against the instance's FAIL_TO_PASS
// and PASS_TO_PASS lists, without running anything. ok is false when the
// record cannot be re-graded from its log alone: no test ran (the patch
// did not apply, an error, an empty patch), or the results came from
// JUnit XML reports of the work tree, which are not stored (its parser
// is "junit"). The verdicts of a timed-out run stay timed out (Grade).
func Regrade(in dataset.Instance, rec *Record, log []byte) (v Verdicts, out PolyBenchOutput, framework string, ok bool) {
	if rec.Test == nil || rec.Test.Parser == "junit" {
		return Verdicts{}, PolyBenchOutput{}, "", false
	}
	// The work tree's path is not stored: every prefix of the scratch
	// path met in the log is tried, and the reading that names the most
	// expected tests wins (chooseReading), as at grading time.
	cands := logReadings(log, "")
	seen := map[string]bool{}
	for _, m := range workspaceInLog.FindAllString(string(log), 20) {
		for ws := m; strings.Contains(ws, "/.work/inst-"); ws = ws[:strings.LastIndex(ws, "/")] {
			if !seen[ws] {
				seen[ws] = true
				cands = append(cands, logReadings(log, ws)...)
			}
		}
	}
	fw, results, f2p, p2p := chooseReading(cands, in.FailToPass, in.PassToPass, dockerWorkdir(in.Dockerfile))
	v, out = Grade(f2p, p2p, RunOutcome{Results: results, ExitCode: rec.Test.ExitCode, TimedOut: rec.Test.TimedOut,
		Language: in.Language, Framework: fw, Log: log})
	return v, out, fw, true
}
