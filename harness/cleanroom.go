package harness

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/diff"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/runrecord"
)

// reBuildScript matches the base names of source-language files that build,
// configure or drive the tests rather than being the program: setup.py,
// noxfile.py, fabfile.py, tasks.py (invoke), dodo.py (doit), *.config.js
// and its kin (webpack, rollup, vite, jest, babel, eslint, prettier,
// karma...), .*rc.js files, Gruntfile.js, gulpfile.js, Gradle's build
// scripts (*.gradle, *.gradle.kts), Jenkinsfile, Cargo's build.rs.
var reBuildScript = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(setup\.py|noxfile\.py|fabfile\.py|tasks\.py|dodo\.py|.*\.config\.[cm]?[jt]s|\..*rc\.[cm]?[jt]s|[Gg]runtfile\.[cm]?[jt]s|[Gg]ulpfile\.[cm]?[jt]s|karma\.conf\.[cm]?[jt]s|.*\.gradle(\.kts)?|Jenkinsfile|build\.rs)$`)
})

// reBuildConfig matches the base names of build, packaging and tool
// configuration files: Python's (setup.cfg, pyproject.toml, tox.ini,
// MANIFEST.in, requirements*.txt, Pipfile, poetry.lock), JavaScript's
// (package.json and its lock files, tsconfig*.json, jsconfig.json), Java's
// (pom.xml, gradle.properties, gradlew, mvnw, build.xml), Go's (go.mod,
// go.sum, go.work), Rust's (Cargo.toml, Cargo.lock, rust-toolchain*),
// PHP's (composer.json/.lock, phpunit.xml*), Ruby's (Gemfile*, Rakefile,
// *.gemspec), C and C++'s (Makefile, CMakeLists.txt, *.cmake, meson.build,
// configure), Dockerfile, and shell or batch scripts (*.sh, *.bash, *.bat,
// *.cmd, *.ps1), which test commands and builds run.
var reBuildConfig = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(setup\.cfg|pyproject\.toml|tox\.ini|MANIFEST\.in|requirements.*\.txt|Pipfile(\.lock)?|poetry\.lock|package\.json|package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|pnpm-workspace\.yaml|tsconfig.*\.json|jsconfig\.json|pom\.xml|gradle\.properties|gradlew|mvnw|build\.xml|go\.mod|go\.sum|go\.work|Cargo\.toml|Cargo\.lock|rust-toolchain(\.toml)?|composer\.json|composer\.lock|phpunit\.xml(\.dist)?|Gemfile(\.lock)?|Rakefile|.*\.gemspec|[Mm]akefile|GNUmakefile|.*\.mk|CMakeLists\.txt|.*\.cmake|meson\.build|configure|Dockerfile.*|.*\.(sh|bash|bat|cmd|ps1))$`)
})

// IsSourcePath reports whether p (slash-separated, relative to the
// repository) is the program's: what the clean room keeps of a model
// patch. p is non-source, taken from base + test patch in the clean room,
// exactly when it is one of:
//
//   - a test file, test helper or runner configuration (isTestFile: test
//     names, files under test/, tests/, __tests__/ or src/test/,
//     conftest.py, pytest.ini, jest/mocha/vitest/karma/babel
//     configuration, sitecustomize.py, usercustomize.py, *.pth,
//     junit-platform.properties, .mvn/);
//   - a build script or build, packaging or tool configuration
//     (reBuildScript, reBuildConfig: setup.py, pyproject.toml,
//     package.json, pom.xml, *.gradle, Makefile, *.sh, ...);
//   - a runner plugin registration (anything under META-INF/services/,
//     where JUnit finds extensions and listeners);
//   - a CI or tool file: any path element that begins with "."
//     (.github/, .circleci/, .eslintrc.json, .npmrc).
//
// Everything else is source, whatever its extension: program files and
// the data, resources and documents the program ships (a JSON or CSV
// file the code reads, a properties file under src/main/resources, a
// README), since the clean room must grade the same program.
func IsSourcePath(p string) bool {
	base := path.Base(p)
	if isTestFile(p) || reBuildScript().MatchString(base) || reBuildConfig().MatchString(base) {
		return false
	}
	if strings.HasPrefix(p, "META-INF/services/") || strings.Contains(p, "/META-INF/services/") {
		return false
	}
	for _, el := range strings.Split(p, "/") {
		if strings.HasPrefix(el, ".") && el != "." && el != ".." {
			return false
		}
	}
	return true
}

// SourceOnly splits prediction p into the prediction of its source paths
// (IsSourcePath) and the paths it leaves out, sorted. ok is false, with the
// reason, when p's patch cannot be re-rendered without them (diff.Canonical:
// renames, binary files, modes).
func SourceOnly(p dataset.Prediction) (q dataset.Prediction, dropped []string, ok bool, reason string) {
	q = p
	if len(p.Files) > 0 {
		q.Files = map[string]string{}
		for f, c := range p.Files {
			if IsSourcePath(f) {
				q.Files[f] = c
			} else {
				dropped = append(dropped, f)
			}
		}
		sort.Strings(dropped)
		return q, dropped, true, ""
	}
	files, err := diff.Parse(p.ModelPatch)
	if err != nil {
		return p, nil, false, err.Error()
	}
	var kept []diff.File
	for _, f := range files {
		if IsSourcePath(f.Path()) && (f.OldPath == "" || IsSourcePath(f.OldPath)) {
			kept = append(kept, f)
		} else {
			dropped = append(dropped, f.Path())
		}
	}
	sort.Strings(dropped)
	if len(dropped) == 0 {
		return p, nil, true, ""
	}
	out, ok, why := diff.Canonical(kept)
	if !ok {
		return p, dropped, false, why
	}
	q.ModelPatch = out
	return q, dropped, true, ""
}

// cleanRoom runs rec's clean-room re-run (see CleanRoom) when its tests
// ran with the model patch applied, and makes rec tampered when the two
// disagree. A re-run that fails for the harness or the environment leaves
// rec's verdicts as they are, with the error in rec.CleanRoom.
func (h *Harness) cleanRoom(ctx context.Context, in dataset.Instance, p dataset.Prediction, rec *runrecord.Record) {
	if !rec.PatchApplied || rec.Test == nil {
		return
	}
	cr := &runrecord.CleanRoom{}
	rec.CleanRoom = cr
	t0 := time.Now()
	defer func() { cr.TotalS = time.Since(t0).Seconds() }()
	q, dropped, ok, why := SourceOnly(p)
	cr.Dropped = dropped
	switch {
	case !ok:
		cr.Skipped = "the model patch cannot be split: " + why
		return
	case len(dropped) == 0:
		cr.Skipped = "the model patch changes source paths only: the clean room would run what the run ran"
		return
	}
	if (len(q.Files) == 0 && strings.TrimSpace(q.ModelPatch) == "") || (len(p.Files) > 0 && len(q.Files) == 0) {
		// Nothing of the program changed: base + test patch alone.
		q.ModelPatch, q.Files = "", nil
	}
	cr.Ran = true
	sub := &runrecord.Record{Key: rec.Key, PolyBenchOutput: grading.PolyBenchOutput{PassedTests: []string{}, FailedTests: []string{}}}
	var art Artifacts
	var err error
	if q.Empty() {
		// The tests on base + test patch: the evaluation of no patch.
		err = h.evaluateEmpty(ctx, in, q, sub, &art)
	} else {
		err = h.evaluate(ctx, in, q, sub, &art, nil, false)
	}
	cr.TestS = sub.Timing.TestS
	if err != nil {
		cr.Error = err.Error()
		return
	}
	cr.Verdicts = &sub.Verdicts
	cr.Status = sub.Verdicts.Get(h.NativeMode).Status
	if cr.Status == grading.StatusInfraFailure || cr.Status == grading.StatusError || cr.Status == grading.StatusPatchFailed || cr.Status == grading.StatusPatchRejected {
		cr.Error = fmt.Sprintf("the clean room did not grade: %s %s", cr.Status, sub.Verdicts.Get(h.NativeMode).Reason)
		return
	}
	var differ []string
	for _, m := range []struct {
		name string
		a, b grading.Verdict
	}{{"polybench", rec.Verdicts.PolyBench, sub.Verdicts.PolyBench}, {"swebench", rec.Verdicts.SWEBench, sub.Verdicts.SWEBench}, {"strict", rec.Verdicts.Strict, sub.Verdicts.Strict}} {
		if m.a.Resolved != m.b.Resolved {
			differ = append(differ, fmt.Sprintf("%s %s in the run, %s in the clean room", m.name, word(m.a.Resolved), word(m.b.Resolved)))
		}
	}
	if len(differ) == 0 {
		return
	}
	cr.Tampered = true
	cr.Reason = fmt.Sprintf("clean room (without %s): %s", strings.Join(firstPaths(dropped, 3), ", "), strings.Join(differ, "; "))
	rec.Verdicts = grading.AllModes(grading.StatusTampered, cr.Reason)
}

// evaluateEmpty evaluates the tests on base + test patch alone, as
// validation's no-patch run does.
func (h *Harness) evaluateEmpty(ctx context.Context, in dataset.Instance, q dataset.Prediction, rec *runrecord.Record, art *Artifacts) error {
	hh := &Harness{Repos: h.Repos, Runtime: h.Runtime, Images: h.Images, Limits: h.Limits, RunKey: h.RunKey, ScratchDir: h.ScratchDir,
		Timeout: h.Timeout, Env: h.Env, Writable: h.Writable, ReadOnly: h.ReadOnly, NativeMode: h.NativeMode, RunID: h.RunID,
		RunEmpty: true, Validation: h.Validation}
	err := hh.evaluate(ctx, in, q, rec, art, nil, false)
	hh.removals.Wait()
	return err
}

func word(resolved bool) string {
	if resolved {
		return "resolved"
	}
	return "unresolved"
}

func firstPaths(ps []string, n int) []string {
	if len(ps) > n {
		return append(append([]string(nil), ps[:n]...), fmt.Sprintf("%d more", len(ps)-n))
	}
	return ps
}
