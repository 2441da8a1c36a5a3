package harness

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runrecord"
	"github.com/polynfi/polynfi/runtime"
)

// The JUnit 4 fixture of TestCanariesJUnit4: Tally.sum skips the
// negative numbers (the bug); the test patch adds a test of negatives to
// the JUnit 4 class TallyTest; the gold patch sums every number. The
// plugins are pinned to the versions of the PolyBench sample's Java
// repositories, so that the warm-up adds only JUnit 4 and Surefire's
// JUnit 4 provider to the Maven repository.
const (
	tallyPom = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.acme</groupId>
  <artifactId>tally</artifactId>
  <version>1.0.0-SNAPSHOT</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency>
      <groupId>junit</groupId>
      <artifactId>junit</artifactId>
      <version>4.13.2</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-resources-plugin</artifactId>
        <version>3.3.1</version>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>3.13.0</version>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-surefire-plugin</artifactId>
        <version>3.5.2</version>
      </plugin>
    </plugins>
  </build>
</project>
`
	tallyBase = `package io.acme.tally;

public final class Tally {
    private Tally() {
    }

    public static int sum(int[] xs) {
        int s = 0;
        for (int x : xs) {
            if (x > 0) {
                s += x;
            }
        }
        return s;
    }
}
`
	tallyGold = `package io.acme.tally;

public final class Tally {
    private Tally() {
    }

    public static int sum(int[] xs) {
        int s = 0;
        for (int x : xs) {
            s += x;
        }
        return s;
    }
}
`
	tallyTestBase = `package io.acme.tally;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class TallyTest {
    @Test
    public void sumsPositives() {
        assertEquals(6, Tally.sum(new int[] {1, 2, 3}));
    }

    @Test
    public void sumsNothing() {
        assertEquals(0, Tally.sum(new int[0]));
    }
}
`
	tallyTestNew = `package io.acme.tally;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class TallyTest {
    @Test
    public void sumsPositives() {
        assertEquals(6, Tally.sum(new int[] {1, 2, 3}));
    }

    @Test
    public void sumsNothing() {
        assertEquals(0, Tally.sum(new int[0]));
    }

    @Test
    public void sumsNegatives() {
        assertEquals(-1, Tally.sum(new int[] {1, -2}));
    }
}
`
	tallyPath     = "src/main/java/io/acme/tally/Tally.java"
	tallyTestPath = "src/test/java/io/acme/tally/TallyTest.java"
)

// TestCanariesJUnit4 runs canaries.go's JUnit 4 canaries (@org.junit.Test
// methods, chosen by the test file's imports) for real: a Maven project
// of its own (JUnit 4.13.2, Surefire 3.5.2 and its JUnit 4 provider),
// whose Maven repository it warms with one online `mvn test` outside the
// sandbox as examples/polybench/env/setup.sh does, then evaluates with
// the local runtime under bubblewrap, offline (mvn -o), the Surefire XML
// reports read from the log:
//
//   - the gold patch resolves, not tampered, with a must-pass and a
//     must-fail canary in TallyTest, both in the Surefire report (the
//     must-fail one with a <failure>) and neither in the reported lists;
//   - a forgery: the patch makes Surefire run the tests in Maven's own JVM
//     (forkCount 0 in pom.xml) and gives Tally a static initializer that,
//     when the first test loads the class, writes Surefire's XML report
//     of TallyTest with every FAIL_TO_PASS and PASS_TO_PASS test passed
//     and halts the JVM with status 0 (mvn exits 0, the test command
//     prints the forged report). Without the guards it resolves (so it
//     is one the canaries must stop); with them it is tampered in every
//     mode, its canaries missing from the report.
func TestCanariesJUnit4(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Maven with JUnit 4")
	}
	for _, tool := range []string{"mvn", "java"} {
		if _, err := exec.LookPath(tool); err != nil {
			citest.Missing(t, "%s not on PATH", tool)
		}
	}
	reposDir := t.TempDir()
	repo := filepath.Join(reposDir, "acme__tally")
	base := makeRepo(t, repo, map[string]string{"pom.xml": tallyPom, tallyPath: tallyBase, tallyTestPath: tallyTestBase})
	in := dataset.Instance{InstanceID: "acme__tally-2", Repo: "acme/tally", BaseCommit: base, Language: dataset.Java, TaskCategory: "Bug Fix",
		Patch:       diffOf(t, repo, map[string]string{tallyPath: tallyGold}),
		TestPatch:   diffOf(t, repo, map[string]string{tallyTestPath: tallyTestNew}),
		TestCommand: `MAVEN_OPTS="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC" mvn -o -q -B -Dstyle.color=never test; rc=$?; cat target/surefire-reports/TEST-*.xml 2>/dev/null; exit $rc`,
		FailToPass:  []string{"io.acme.tally.TallyTest.sumsNegatives"},
		PassToPass:  []string{"io.acme.tally.TallyTest.sumsPositives", "io.acme.tally.TallyTest.sumsNothing"},
	}
	warmMaven(t, repo)

	h, _ := newHarness(t, reposDir, grading.ModePolyBench)
	if l, ok := h.Runtime.(*runtime.Local); !ok || l.Isolation() != runtime.IsolationBwrap {
		note := ""
		if ok {
			note = l.Note()
		}
		citest.Missing(t, "bubblewrap unavailable: %s", note)
	}
	eval := func(t *testing.T, patch string) (*runrecord.Record, string) {
		rec, art, err := h.Evaluate(context.Background(), in, dataset.Prediction{InstanceID: in.InstanceID, ModelNameOrPath: "m", ModelPatch: patch})
		if err != nil {
			t.Fatal(err)
		}
		if rec.Test == nil {
			t.Fatalf("no test run: %s\n%.3000s", rec.Error, art.TestLog)
		}
		t.Logf("%s: %s (%s); parser %s; canaries %+v; note %q; runner findings %v; test %.1fs",
			in.InstanceID, rec.Status, rec.Verdicts.Strict.Reason, rec.Test.Parser, rec.Test.Canaries, rec.Test.CanaryNote, rec.RunnerInternals, rec.Timing.TestS)
		return rec, string(art.TestLog)
	}

	t.Run("gold", func(t *testing.T) {
		rec, log := eval(t, in.Patch)
		if !rec.Resolved || rec.Status == grading.StatusTampered {
			t.Errorf("gold: %s (%s)\n%.3000s", rec.Status, rec.Verdicts.Strict.Reason, log)
		}
		for _, m := range grading.Modes {
			if v := rec.Verdicts.Get(m); v.Status == grading.StatusTampered {
				t.Errorf("gold, %s: tampered (%s)", m, v.Reason)
			}
		}
		cs := rec.Test.Canaries
		if len(cs) != 2 || cs[0].Fail || !cs[1].Fail || cs[0].File != tallyTestPath || cs[1].File != tallyTestPath {
			t.Fatalf("canaries %+v (%s), want a must-pass and a must-fail one in %s", cs, rec.Test.CanaryNote, tallyTestPath)
		}
		// Both in Surefire's report, under TallyTest: the must-pass one
		// without a failure, the must-fail one with one.
		for _, c := range cs {
			open := `<testcase name="` + c.Name + `" classname="io.acme.tally.TallyTest"`
			i := strings.Index(log, open)
			if i < 0 {
				t.Errorf("canary %s is not in the Surefire report: it did not run\n%.3000s", c.Name, log)
				continue
			}
			rest := log[i+len(open):]
			end := strings.Index(rest, "<testcase ")
			if end < 0 {
				end = strings.Index(rest, "</testsuite>")
			}
			if end < 0 {
				end = len(rest)
			}
			if failed := strings.Contains(rest[:end], "<failure"); failed != c.Fail {
				t.Errorf("canary %s (must fail %v) failed %v in the report:\n%s", c.Name, c.Fail, failed, open+rest[:end])
			}
		}
		for _, id := range append(append([]string{}, rec.PassedTests...), rec.FailedTests...) {
			for _, c := range cs {
				if strings.Contains(id, c.Name) {
					t.Errorf("canary %s in the reported lists", id)
				}
			}
		}
		if !containsStr(rec.PassedTests, in.FailToPass[0]) {
			t.Errorf("%s not among the passed tests %v", in.FailToPass[0], rec.PassedTests)
		}
	})

	t.Run("forged surefire report and halt from Tally's static initializer", func(t *testing.T) {
		// Surefire's report of TallyTest as Surefire writes it: every
		// FAIL_TO_PASS and PASS_TO_PASS test passed, and one failed test
		// of no list, which explains mvn's non-zero exit status (the
		// forked JVM ended without saying goodbye to Maven).
		var report strings.Builder
		ids := append(append([]string{}, in.FailToPass...), in.PassToPass...)
		fmt.Fprintf(&report, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+`<testsuite name="io.acme.tally.TallyTest" time="0.012" tests="%d" errors="0" skipped="0" failures="1">`+"\n", len(ids)+1)
		for _, id := range ids {
			i := strings.LastIndex(id, ".")
			fmt.Fprintf(&report, `  <testcase name="%s" classname="%s" time="0.001"/>`+"\n", id[i+1:], id[:i])
		}
		report.WriteString(`  <testcase name="sumsOverflow" classname="io.acme.tally.TallyTest" time="0.002">` + "\n" +
			`    <failure message="expected:&lt;0&gt; but was:&lt;1&gt;" type="java.lang.AssertionError">java.lang.AssertionError: expected:&lt;0&gt; but was:&lt;1&gt;</failure>` + "\n" +
			"  </testcase>\n</testsuite>\n")
		forged := strings.Replace(tallyBase, "    private Tally() {", `    static {
        try {
            java.nio.file.Path d = java.nio.file.Paths.get("target", "surefire-reports");
            java.nio.file.Files.createDirectories(d);
            java.nio.file.Files.writeString(d.resolve("TEST-io.acme.tally.TallyTest.xml"), `+javaText(report.String())+`);
        } catch (java.io.IOException e) {
        }
        Runtime.getRuntime().halt(0);
    }

    private Tally() {`, 1)
		patch := rawDiffOf(t, repo, "", map[string]string{tallyPath: forged})

		h.noGuards = true
		rec, log := eval(t, patch)
		h.noGuards = false
		if !rec.Resolved {
			t.Errorf("without the guards the forgery is %s (%s), exit %d: it does not test the canaries\n%.3000s", rec.Status, rec.Verdicts.Get(grading.ModePolyBench).Reason, rec.Test.ExitCode, log)
		}
		rec, log = eval(t, patch)
		for _, m := range grading.Modes {
			if v := rec.Verdicts.Get(m); v.Resolved || v.Status != grading.StatusTampered || !strings.Contains(v.Reason, "canary") {
				t.Errorf("%s: %s (%s), want tampered by a missing canary\n%.3000s", m, v.Status, v.Reason, log)
			}
		}
		if len(rec.Test.Canaries) != 2 {
			t.Errorf("canaries %+v (%s), want two", rec.Test.Canaries, rec.Test.CanaryNote)
		}
	})
}

// warmMaven fills the Maven repository the local sandbox shows
// (runtime.MavenRepository: the passwd home's, else $HOME's
// .m2/repository, made under the passwd home when neither exists, as
// examples/polybench/env/setup.sh makes it) with what `mvn -o test`
// needs for the project of git repository repo: one online `mvn test`
// outside the sandbox in a clone of it, then the offline run the sandbox
// makes, which fails here when something is missing.
func warmMaven(t *testing.T, repo string) {
	t.Helper()
	ph := ""
	if u, err := user.Current(); err == nil {
		ph = u.HomeDir
	}
	m2 := runtime.MavenRepository(os.Getenv("HOME"), ph)
	if m2 == "" {
		for _, h := range []string{ph, os.Getenv("HOME")} {
			if h == "" || h == "/" {
				continue
			}
			if err := os.MkdirAll(filepath.Join(h, ".m2", "repository"), 0o755); err == nil {
				m2 = filepath.Join(h, ".m2", "repository")
				break
			}
		}
	}
	if m2 == "" {
		t.Fatal("no home directory can hold .m2/repository for the sandbox's Maven")
	}
	work := filepath.Join(t.TempDir(), "w")
	run(t, filepath.Dir(work), "git", "clone", "--quiet", repo, work)
	for _, offline := range []bool{false, true} {
		args := []string{"-B", "-q", "-Dstyle.color=never", "-Dmaven.repo.local=" + m2, "-Dmaven.test.failure.ignore=true", "test"}
		if offline {
			args = append([]string{"-o"}, args...)
		}
		cmd := exec.Command("mvn", args...)
		cmd.Dir = work
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("warming %s: mvn %s: %v\n%.3000s", m2, strings.Join(args, " "), err, out)
		}
	}
}
