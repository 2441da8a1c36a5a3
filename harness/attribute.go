package harness

import (
	"regexp"

	"github.com/polynfi/polynfi/dataset"
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
var reInfraSignature = regexp.MustCompile(`(?m)(?:^|: )(?:bash: [^ ]*(?:pytest|mvn|jest|mocha|node|python3?|java)[^ ]*: (?:command not found|No such file or directory)|No module named (?:pytest|_pytest)\b|Cannot find module '(?:jest|mocha|ts-jest)[^']*'|Could not resolve dependencies for project|Cannot access [^ ]+ in offline mode|No space left on device)`)

// attribute decides who is to blame when a run parsed to no test at all:
// strict mode marks it infra_failure only when the stored validation says
// the instance's environment does not hold, or the log carries a known
// infrastructure signature (reInfraSignature); otherwise the patch broke
// the build or removed the tests and the instance is unresolved, the
// patch's fault. The other modes already say unresolved.
func (h *Harness) attribute(v *Verdicts, in dataset.Instance, log []byte) {
	if v.Strict.Status != StatusInfraFailure {
		return
	}
	if val, ok := h.Validation[in.InstanceID]; ok && !val.Holds {
		v.Strict.Reason = "the log parsed to no test and the environment failed validation: " + val.Reason
		return
	}
	if m := reInfraSignature.Find(log); m != nil {
		v.Strict.Reason = "the log parsed to no test and says the environment is broken: " + string(m)
		return
	}
	v.Strict.Status = StatusUnresolved
	if _, ok := h.Validation[in.InstanceID]; ok {
		v.Strict.Reason = "the log parsed to no test although the environment passed validation: the patch broke the build or removed the tests"
	} else {
		v.Strict.Reason = "the log parsed to no test and carries no sign of a broken environment: the patch broke the build or removed the tests (no stored validation)"
	}
}
