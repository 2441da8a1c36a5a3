package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// coldBuild matches the cold-build time `make demo` announces and the
// README states: "a cold first build ... takes about N minutes".
var coldBuild = regexp.MustCompile(`cold (?:first )?build[^.\n]* takes about (\d+) minutes`)

// TestDemoAnnouncesColdBuild: `make demo` says, before it starts
// building, how long a cold build takes, and says what the README says.
func TestDemoAnnouncesColdBuild(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Fatalf("make is required: %v", err)
	}
	cmd := exec.Command("make", "-n", "--no-print-directory", "demo")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("make -n demo: %v", err)
	}
	lines := strings.Split(string(out), "\n")
	announced, build := -1, -1
	var minutes string
	for i, l := range lines {
		if m := coldBuild.FindStringSubmatch(l); m != nil && announced < 0 {
			announced, minutes = i, m[1]
		}
		if strings.Contains(l, "go build") && build < 0 {
			build = i
		}
	}
	if build < 0 {
		t.Fatalf("make -n demo runs no go build:\n%s", out)
	}
	if announced < 0 || announced > build {
		t.Fatalf("make demo does not say how long a cold build takes before building (announce at line %d, go build at line %d):\n%s", announced, build, out)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := coldBuild.FindSubmatch(readme)
	if m == nil {
		t.Fatalf("README.md does not say how long a cold build takes (%s)", coldBuild)
	}
	if string(m[1]) != minutes {
		t.Errorf("make demo says about %s minutes, README.md says %s", minutes, m[1])
	}
}
