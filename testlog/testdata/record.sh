#!/usr/bin/env bash
# Re-records the real test logs under logs/ by running each framework on the
# fixture projects under projects/. Each log is built the way the harness
# builds it (stderr, then stdout, then "Container exited with status code N").
# The absolute fixture directory is replaced by /workspace and the repository
# root by /polynfi, so that logs do not depend on where it is checked out.
#
# Needs: python3 + pytest, node + the sample's npm env
# (examples/polybench/env/setup.sh), mvn + JDK 17, go.
# After recording: go test ./testlog -update   (then review the golden diffs)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
node_env="$(cd "$here/../../examples/polybench/env/node" && pwd)/node_modules"
logs="$here/logs"
root="$(cd "$here/../.." && pwd)"
mkdir -p "$logs"
export TZ=UTC PYTHONHASHSEED=0 LC_ALL=C.UTF-8 NO_COLOR=1 FORCE_COLOR=0

# record NAME DIR CMD...: run CMD in DIR and write logs/NAME.log
record() {
	local name="$1" dir="$2"
	shift 2
	local out err rc
	out="$(mktemp)" err="$(mktemp)"
	set +e
	(cd "$dir" && "$@") >"$out" 2>"$err"
	rc=$?
	set -e
	{
		cat "$err" "$out"
		echo "Container exited with status code $rc"
	} | sed -e "s#$dir#/workspace#g" -e "s#$root#/polynfi#g" >"$logs/$name.log"
	rm -f "$out" "$err"
	echo "recorded $name (exit $rc)"
}

p="$here/projects"
record pytest-rA "$p/pytest" python3 -m pytest -p no:cacheprovider -rA tests
record pytest-verbose "$p/pytest" python3 -m pytest -p no:cacheprovider -rA -v tests
record pytest-verbose-only "$p/pytest" python3 -m pytest -p no:cacheprovider -v tests
(cd "$p/pytest" && python3 -m pytest -p no:cacheprovider -q --junitxml="$logs/junit-pytest.xml" tests >/dev/null 2>&1 || true)
sed -i -e "s#$p/pytest#/workspace#g" -e "s#$root#/polynfi#g" "$logs/junit-pytest.xml"
record unittest "$p/unittest" python3 -m unittest -v calc.test_calc
record jest "$p/jest" env NODE_PATH="$node_env" "$node_env/.bin/jest" --ci --json --rootDir .
record mocha "$p/mocha" "$node_env/.bin/mocha" --reporter json test
record tap "$p/tap" node --test --test-reporter=tap range.test.mjs
record gotest "$p/gotest" go test -json ./...
rm -rf "$p/maven/target"
record surefire "$p/maven" mvn -B test
# Surefire files JUnit 5 tests of a class with @Nested members under the
# nested class's report; that report holds every test case of CircleTest.
sed "s#$p/maven#/workspace#g" "$p/maven/target/surefire-reports/TEST-org.example.shapes.CircleTest\$Zero.xml" >"$logs/junit-surefire.xml"
# PolyBench's Java commands print the Surefire XML reports into the log.
record surefire-xml "$p/maven" bash -c 'mvn -B -q test; rc=$?; cat target/surefire-reports/TEST-*.xml; exit $rc'
rm -rf "$p/maven/target"
