package grading

import (
	"strings"

	"github.com/polynfi/polynfi/testlog"
)

// ExpectedIDs normalizes a dataset's FAIL_TO_PASS or PASS_TO_PASS ids to the
// spelling of the results read by framework fw:
//   - the Dockerfile's WORKDIR is removed from the front of ids ("/testbed/"
//     in "/testbed/test/a.test.ts->adds": SWE-PolyBench's Jest ids carry the
//     container's absolute test path, polynfi's are relative to the work
//     tree);
//   - for pytest, SWE-bench's node ids ("t.py::C::test") become the
//     "t.py:C:test" form of testlog;
//   - for unittest, the verbose form SWE-bench's Django and unittest data use
//     ("test_x (pkg.mod.Class)") becomes "pkg.mod.Class:test_x:".
//
// Ids in another form (a Django docstring line, sympy's bare test names)
// are kept and will only match an identical parsed id.
func ExpectedIDs(ids []string, fw, workdir string) []string {
	out := make([]string, len(ids))
	prefix := ""
	if workdir != "" && workdir != "/" {
		prefix = strings.TrimSuffix(workdir, "/") + "/"
	}
	for i, id := range ids {
		if prefix != "" {
			id = strings.TrimPrefix(id, prefix)
		}
		switch fw {
		case string(testlog.Pytest):
			if strings.Contains(id, "::") {
				id = testlog.PolyBenchPytestID(id)
			}
		case string(testlog.Unittest):
			id = testlog.UnittestIDFromVerbose(id)
		}
		out[i] = id
	}
	return out
}
