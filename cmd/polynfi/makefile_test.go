package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
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

// TestColdBuildNoticeOnlyWhenStale: the cold-build notice of `make demo`
// is said when the binary is missing or older than the sources, and not
// when it is up to date (a cached build takes seconds).
func TestColdBuildNoticeOnlyWhenStale(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Fatalf("make is required: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "polynfi")
	notice := func() bool {
		t.Helper()
		cmd := exec.Command("make", "--no-print-directory", "cold-build-notice", "BIN="+bin)
		cmd.Dir = "../.."
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("make cold-build-notice: %v: %s", err, stderr.String())
		}
		return coldBuild.MatchString(stderr.String())
	}
	if !notice() {
		t.Errorf("no notice with the binary missing")
	}
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Newer than every source of the checkout.
	future := time.Now().Add(time.Hour)
	if err := os.Chtimes(bin, future, future); err != nil {
		t.Fatal(err)
	}
	if notice() {
		t.Errorf("notice with an up-to-date binary")
	}
	// Older than every source: stale.
	past := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(bin, past, past); err != nil {
		t.Fatal(err)
	}
	if !notice() {
		t.Errorf("no notice with a binary older than the sources")
	}
}
