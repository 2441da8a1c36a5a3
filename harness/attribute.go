package harness

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
)

// Validation is what `polynfi validate` found for one instance: whether
// its environment holds (gold resolves every time, FAIL_TO_PASS fails and
// PASS_TO_PASS passes without a patch) and, when not, why.
type Validation struct {
	InstanceID string `json:"instance_id"`
	Holds      bool   `json:"holds"`
	Reason     string `json:"reason,omitempty"`
}

// reInfraSignature matches log lines that say the environment, not the
// code under test, is broken: the test runner or an interpreter missing,
// a dependency that cannot be resolved offline, a full disk.
var reInfraSignature = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)(?:^|: )(?:(?:/[^ :]*/)?bash: (?:line \d+: )?[^ ]*(?:pytest|mvn|jest|mocha|node|python3?|java)[^ ]*: (?:command not found|No such file or directory)|No module named (?:pytest|_pytest)\b|Cannot find module '(?:jest|mocha|ts-jest)[^']*'|Could not resolve dependencies for project|Cannot access [^ ]+(?: \([^)]*\))? in offline mode|No space left on device)`)
})

// exitNotFound is the shell's exit status for a command it could not find
// or execute (bash: "command not found", "No such file or directory").
const exitNotFound = 127

// lastLine returns the last line of b that holds more than blanks, "" when
// none.
func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimRight(string(b), " \t\r\n"), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// logLastLine is the last line of a test command's output: of stderr when
// the command exited exitNotFound (the shell's message), else of stdout,
// else of stderr.
func logLastLine(l testCommandLog) string {
	if l.ExitCode == exitNotFound {
		if s := lastLine(l.Stderr); s != "" {
			return s
		}
	}
	if s := lastLine(l.Stdout); s != "" {
		return s
	}
	return lastLine(l.Stderr)
}

// attribute decides who is to blame when a run parsed to no test at all
// (l is the run's output, log the whole marked log): strict mode marks it
// infra_failure, "no test ran", when the stored validation says the
// instance's environment does not hold, the command exited 127 (the shell
// found no program to run: a missing toolchain), or the log carries a
// known infrastructure signature (reInfraSignature); the reason then ends
// with the last line of the output. Otherwise the patch broke the build
// or removed the tests and the instance is unresolved, the patch's fault.
// The other modes already say unresolved.
func (h *Harness) attribute(v *grading.Verdicts, in dataset.Instance, l testCommandLog, log []byte) {
	if v.Strict.Status != grading.StatusInfraFailure {
		return
	}
	last := fmt.Sprintf("; last line of the log: %q", logLastLine(l))
	if val, ok := h.Validation[in.InstanceID]; ok && !val.Holds {
		v.Strict.Reason = "no test ran: the log parsed to no test and the environment failed validation: " + val.Reason + last
		return
	}
	if l.ExitCode == exitNotFound {
		v.Strict.Reason = "no test ran: the test command exited 127 (a program it runs was not found: a missing toolchain, not the patch)" + last
		return
	}
	if m := reInfraSignature().Find(log); m != nil {
		v.Strict.Reason = "no test ran: the log parsed to no test and says the environment is broken: " + string(m) + last
		return
	}
	v.Strict.Status = grading.StatusUnresolved
	if _, ok := h.Validation[in.InstanceID]; ok {
		v.Strict.Reason = "the log parsed to no test although the environment passed validation: the patch broke the build or removed the tests"
	} else {
		v.Strict.Reason = "the log parsed to no test and carries no sign of a broken environment: the patch broke the build or removed the tests (no stored validation)"
	}
}
