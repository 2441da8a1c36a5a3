package harness

import (
	"strconv"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/runrecord"
)

// TestAttributeNoTestRan: a run that parsed to no test is the environment's
// failure in strict mode, "no test ran" with the log's last line, when the
// shell could not find the toolchain (exit 127), even where the stored
// validation holds, and when Maven cannot resolve a plugin offline; a run
// with no such sign stays the patch's fault.
func TestAttributeNoTestRan(t *testing.T) {
	t.Parallel()
	in := dataset.Instance{InstanceID: "o__r-1"}
	holds := &Harness{Validation: map[string]Validation{"o__r-1": {InstanceID: "o__r-1", Holds: true}}}
	mocha := "bash: line 2: /data/env/node/node_modules/.bin/mocha: No such file or directory"
	maven := "[ERROR] Plugin org.apache.maven.plugins:maven-resources-plugin:3.3.1 or one of its dependencies could not be resolved: Cannot access central (https://repo.maven.apache.org/maven2) in offline mode and the artifact org.apache.maven.plugins:maven-resources-plugin:jar:3.3.1 has not been downloaded from it before. -> [Help 1]"
	for _, c := range []struct {
		name     string
		h        *Harness
		l        testCommandLog
		want     grading.Status
		wantLast string
	}{
		{"missing toolchain, validation holds", holds,
			testCommandLog{ExitCode: 127, Stderr: []byte("+ mytool --json test\nbash: line 2: mytool: command not found\n")},
			grading.StatusInfraFailure, "bash: line 2: mytool: command not found"},
		{"missing toolchain by path, no validation", &Harness{},
			testCommandLog{ExitCode: 127, Stderr: []byte("+ /data/env/node/node_modules/.bin/mocha --reporter json test\n" + mocha + "\n\n")},
			grading.StatusInfraFailure, mocha},
		{"maven plugin offline", &Harness{},
			testCommandLog{ExitCode: 1, Stdout: []byte(maven + "\n[ERROR] \n[ERROR] Re-run Maven using the -X switch to enable full debug logging.\n")},
			grading.StatusInfraFailure, "[ERROR] Re-run Maven using the -X switch to enable full debug logging."},
		{"no sign: the patch's fault", holds,
			testCommandLog{ExitCode: 1, Stdout: []byte("SyntaxError: invalid syntax\n")},
			grading.StatusUnresolved, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := grading.Verdicts{Strict: grading.Verdict{Status: grading.StatusInfraFailure}}
			log := append(append([]byte{}, c.l.Stdout...), c.l.Stderr...)
			c.h.attribute(&v, in, c.l, log)
			if v.Strict.Status != c.want {
				t.Fatalf("strict %s (%s), want %s", v.Strict.Status, v.Strict.Reason, c.want)
			}
			if c.want != grading.StatusInfraFailure {
				return
			}
			if !strings.HasPrefix(v.Strict.Reason, "no test ran: ") || !strings.Contains(v.Strict.Reason, "last line of the log: "+strconv.Quote(c.wantLast)) {
				t.Errorf("reason %q, want \"no test ran: ...\" ending with the last line %q", v.Strict.Reason, c.wantLast)
			}
		})
	}
}

// TestValidateNoTestRan: validation of an instance whose runs never ran a
// test says "no test ran", not that the gold patch fails or that
// PASS_TO_PASS tests fail without it.
func TestValidateNoTestRan(t *testing.T) {
	t.Parallel()
	in := dataset.Instance{InstanceID: "o__r-1", FailToPass: []string{"t1"}, PassToPass: []string{"t2", "t3"}}
	jobs := ValidationJobs([]dataset.Instance{in}, 2)
	why := "no test ran: the test command exited 127 (a program it runs was not found: a missing toolchain, not the patch); last line of the log: \"bash: mvn: command not found\""
	none := func() *runrecord.Record {
		return &runrecord.Record{Status: grading.StatusUnresolved, Verdicts: grading.Verdicts{
			PolyBench: grading.Verdict{Status: grading.StatusUnresolved},
			Strict: grading.Verdict{Status: grading.StatusInfraFailure, Reason: why,
				PassToPass: grading.TestsStatus{Failure: []string{"t2", "t3"}}}}}
	}
	vs := Validate(jobs, []*runrecord.Record{none(), none(), none()}, 2)
	if len(vs) != 1 {
		t.Fatalf("%d validations, want 1", len(vs))
	}
	v := vs[0]
	if v.Holds {
		t.Fatal("holds, want not")
	}
	if !strings.Contains(v.Reason, "no test ran with the gold patch (2 runs)") || !strings.Contains(v.Reason, "bash: mvn: command not found") {
		t.Errorf("reason %q, want it to say no test ran, with the log's last line", v.Reason)
	}
	for _, bad := range []string{"never resolved", "fail without the patch"} {
		if strings.Contains(v.Reason, bad) {
			t.Errorf("reason %q says %q: no test ran", v.Reason, bad)
		}
	}
}
