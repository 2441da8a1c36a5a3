package mine

import "testing"

func TestIsBotBranch(t *testing.T) {
	for ref, want := range map[string]bool{
		"org/dependabot/pip/requests-2.0": true,
		"org/renovate/pytest-8.x":         true,
		"org/pre-commit-ci-update-config": true,
		"pallets/github-actions":          false, // a person's branch about CI
		"pallets/pre-commit-ci-schedule":  false,
		"someone/fix-docstrings":          false,
	} {
		if got := isBotBranch(ref); got != want {
			t.Errorf("isBotBranch(%q) = %v, want %v", ref, got, want)
		}
	}
}
