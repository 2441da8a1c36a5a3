// Package citest holds the one rule for tests that need a tool the machine
// may lack: outside CI they skip, saying what is missing; in CI (CI=true)
// a missing tool is a failure, because a test that backs a claim must not
// skip silently there.
package citest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// InCI reports whether the CI environment variable says we run in CI.
func InCI() bool {
	v, err := strconv.ParseBool(os.Getenv("CI"))
	return err == nil && v
}

// Missing skips tb with the message, or fails it when InCI.
func Missing(tb testing.TB, format string, args ...any) {
	tb.Helper()
	msg := fmt.Sprintf(format, args...)
	if InCI() {
		tb.Fatalf("CI=true and a required tool is missing: %s", msg)
	}
	tb.Skip(msg)
}

// Kubeconfig returns the kubeconfig of the local test cluster
// (k8s/cluster/up.sh): $POLYNFI_K8S_KUBECONFIG, else
// /var/lib/polynfi-k8s/admin.kubeconfig. Without one it is Missing. With
// POLYNFI_K8S_TESTS=separate it skips: .ci/run runs make test that way and
// the cluster's tests afterwards (.ci/k8s.sh test), with the cluster up.
func Kubeconfig(tb testing.TB) string {
	tb.Helper()
	if os.Getenv("POLYNFI_K8S_TESTS") == "separate" {
		tb.Skip("POLYNFI_K8S_TESTS=separate: run by .ci/k8s.sh test")
	}
	p := os.Getenv("POLYNFI_K8S_KUBECONFIG")
	if p == "" {
		p = "/var/lib/polynfi-k8s/admin.kubeconfig"
	}
	if _, err := os.Stat(p); err != nil {
		Missing(tb, "no local Kubernetes cluster (%v): make cluster-up (.ci/k8s.sh up in CI)", err)
	}
	return p
}

// Oracle returns the directory an oracle installer (script, such as
// ".ci/pmd-oracle.sh") filled with a pinned linter and its corpus: $env
// when set, else ~/.cache/polynfi/<name> (name such as "pmd-7.27.0"). The
// installer writes .polynfi-stamp last; without it the oracle is Missing.
func Oracle(tb testing.TB, env, name, script string) string {
	tb.Helper()
	dir := os.Getenv(env)
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "polynfi", name)
	}
	if _, err := os.Stat(filepath.Join(dir, ".polynfi-stamp")); err != nil {
		Missing(tb, "%s is not installed (bash %s, or set %s)", dir, script, env)
	}
	return dir
}
