# polynfi: the two set-up commands of the README are `make demo` and `make test`.
GO ?= go
BIN := bin/polynfi
OUT ?= out/demo
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c

.PHONY: build version demo test check slowest fuzz deps sample-env bench build-profile bench-vs-ruff cold-build-notice docs cluster-up cluster-down

# The version `polynfi --version` and every report print: the newest v* tag
# (git describe, "-dirty" for a changed tree), else a Go pseudo-version of
# the last commit (v0.0.0-<commit time>-<hash>). Go's own VCS stamping is
# not relied on: it is off when GOFLAGS has -buildvcs=false.
VERSION ?= $(shell git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null || TZ=UTC git log -1 --format='v0.0.0-%cd-%h' --date=format-local:%Y%m%d%H%M%S --abbrev=12 2>/dev/null || echo v0.0.0-unknown)
# STRIP drops the DWARF debug information and the symbol table (-s -w): a
# smaller binary (about a quarter) and a faster link. Panics and pprof
# still name functions, files and lines (the pcln table stays); for a
# binary delve can debug, `make build STRIP=`.
STRIP ?= -s -w
LDFLAGS := $(STRIP) -X github.com/polynfi/polynfi/internal/cli.version=$(VERSION)

version:
	@echo $(VERSION)

# BUILD_PKG is the main package built into $(BIN). `go build -v` names
# each package as it is compiled: .ci/buildprogress.sh counts them into
# "compiled N packages, elapsed Ts" lines (every 10 s, live on a
# terminal; BUILD_PROGRESS_EVERY=seconds), so a cold build is never
# silent; a warm build compiles nothing and prints nothing.
BUILD_PKG ?= ./cmd/polynfi
build:
	$(GO) build -v -ldflags '$(LDFLAGS)' -o $(BIN) $(BUILD_PKG) 2>&1 | bash .ci/buildprogress.sh

# Environment of the bundled samples: npm/Maven/PyPI packages, installed once.
sample-env:
	bash examples/polybench/env/setup.sh

# Everything the tests need: the oracles (ruff, radon) and the sample environment.
# pip refused (PEP 668): into the sample's virtual environment when
# setup.sh made one, else one line says what to install and make goes on
# (the tests that need an oracle say so by name).
deps: sample-env
	@python3 -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt 2>out-deps.err || \
		{ [ -x '$(SAMPLE_VENV)/bin/python3' ] && python3 -m pip --python '$(SAMPLE_VENV)/bin/python3' install --quiet --disable-pip-version-check -r requirements-dev.txt 2>>out-deps.err && \
			echo "make deps: requirements-dev.txt in $(SAMPLE_VENV) (pip refused the system python3; make test puts it first on PATH)" >&2; } || \
		{ echo "make deps: pip could not install requirements-dev.txt ($$(tail -n 1 out-deps.err)); install them yourself: python3 -m pip install --user -r requirements-dev.txt, or in a virtual environment on PATH" >&2; }; rm -f out-deps.err

# The main job on the bundled default input: evaluate the reference (gold)
# patches of the bundled SWE-PolyBench-style sample and the bundled SWE-NFI
# tasks; reports land in $(OUT)/.
# A python3 that refuses pip gets pytest in SAMPLE_VENV (setup.sh): its
# bin goes first on PATH for the runs, when it exists.
SAMPLE_VENV := $(abspath examples/polybench/env/venv)
VENV_PATH = PATH="$$( [ -x '$(SAMPLE_VENV)/bin/python3' ] && printf '%s:' '$(SAMPLE_VENV)/bin' )$$PATH"
demo: cold-build-notice build sample-env
	$(VENV_PATH) $(BIN) eval --dataset examples/polybench/dataset.csv --predictions gold --out $(OUT)/polybench
	@if [ -f examples/nfi/tasks.jsonl ]; then $(VENV_PATH) $(BIN) eval --dataset examples/nfi/tasks.jsonl --predictions gold --out $(OUT)/nfi; fi

# Measured with `make build-profile` (README "Set-up"). Said only when
# $(BIN) is missing or older than a Go source, go.mod or go.sum (what a
# build would change); an up-to-date binary builds from the cache at once.
cold-build-notice:
	@if [ ! -x '$(BIN)' ] || [ -n "$$(find . \( -path ./.git -o -path ./out -o -path ./bin -o -path ./node_modules \) -prune -o \( -name '*.go' -o -name go.mod -o -name go.sum \) -newer '$(BIN)' -print -quit)" ]; then \
		echo "make demo: a cold first build of polynfi takes about 1.5 minutes on an idle 2-core machine (~150 CPU-s), longer on a busy one; later builds reuse Go's build cache" >&2; fi

# make test: three go test runs and the bounded fuzzing, each to the end
# even when one fails, each package under its own -timeout (go's panic
# then names the test that hung):
#   1. every package but the slow tests (TEST_TIMEOUT per package), in the
#      foreground: ~23 min on an idle 2-core machine, the harness package
#      (~18 min, its container tests) the longest;
#   2. in the background at the same time, one after another:
#      a. the slow tests (SLOW_TESTS: harness's adversarial Docker tests and
#         the multi-language sample's real runs, local and Docker; ~16 min,
#         mostly waiting on containers), with their own SLOW_TIMEOUT;
#      b. the race detector over the tests that drive the worker pools
#         (RACE_TESTS in RACE_PKGS: harness.Run, the agent runner, the local
#         runtime, image builds, nfi.Engine.ScoreFiles (the NFI batch), the
#         syntax flattener, mine's miners, the SWE-NFI suite's runs
#         (nfisuite), the NFI driver's git comparison and metrics workers;
#         ~2.5 min, most of it the race build);
#      c. the bounded fuzzing of the parsers (make fuzz, ~4.5 min), one
#         fuzzing process per target (FUZZFLAGS, unless set) at nice
#         FUZZ_NICE, so that the foreground's tests come first.
#    The foreground waits on containers and sandboxes much of the time, so
#    2 ends about when 1 does: make test takes ~23 min instead of 1, then
#    the race run, then the fuzzing one after another (~30 min).
# Each go test -json stream is kept in out/test*.json (make slowest reads
# them) and summed up by internal/testreport: one line per package, the
# output of what failed. The background's summaries (out/test-slow.txt,
# out/test-race.txt, out/fuzz.txt; what go printed on stderr in
# out/*.err) print after the foreground's, each with the seconds since
# make test started. An interrupt (Ctrl-C, SIGTERM) stops the background
# too: it runs in a process group of its own, killed on the way out.
TEST_PKGS ?= ./...
TEST_TIMEOUT ?= 25m
SLOW_TIMEOUT ?= 55m
SLOW_TESTS ?= ^(TestAdversarialRunnersDocker|TestAdversarialDocker|TestBundledMultilangSample|TestMultilangPublishedShapes)$$
SLOW_PKGS ?= ./harness/
RACE_TESTS ?= ^(TestRunResumesAndReevaluatesChangedPatches|TestRunCancelled|TestStoreLock|TestTotalBudget|TestHangingAgentTreeKilled|TestLocalExitCodes|TestLocalTimeoutKillsGrandchildren|TestBwrapIsolation|TestBasesTaskDirsAndFailures|TestScoreConcurrent|TestFlatten|TestMineHistory|TestMineCancel|TestInterruptAndResume|TestGitComparisonConcurrent)$$
RACE_PKGS ?= ./harness/ ./agent/ ./runtime/ ./images/ ./nfi/catalog/ ./syntax/ ./mine/ ./nfisuite/ ./nfi/driver/
FUZZ_NICE ?= 10
# SUBMAKE is $(MAKE) by another name: a recipe line that names $(MAKE)
# itself runs even under make -n, and test's one line is the whole suite.
SUBMAKE = $(MAKE)
TESTREPORT := bin/testreport
test: deps $(TESTREPORT)
	@mkdir -p out; rm -f out/*.failed out/*.err; rc=0; start=$$SECONDS; \
	export $(VENV_PATH); \
	echo "== in the background, one after another: go test of the slow tests $(SLOW_TESTS) (-timeout $(SLOW_TIMEOUT)), go test -race of the worker pools, make fuzz ($(FUZZTIME) per parser entry point); summaries in out/test-slow.txt, out/test-race.txt, out/fuzz.txt"; \
	gotest() { name=$$1; shift; \
		{ $(GO) test -json "$$@" 2>out/$$name.err | tee out/$$name.json | $(TESTREPORT) summary > out/$$name.txt 2>&1; } || touch out/$$name.failed; \
		echo "== $$name: done $$((SECONDS-start)) s after make test started" >> out/$$name.txt; }; \
	set -m; \
	( gotest test-slow -timeout $(SLOW_TIMEOUT) -run '$(SLOW_TESTS)' $(SLOW_PKGS); \
	  gotest test-race -race -timeout $(TEST_TIMEOUT) -run '$(RACE_TESTS)' $(RACE_PKGS); \
	  nice -n $(or $(FUZZ_NICE),0) $(SUBMAKE) --no-print-directory fuzz FUZZFLAGS='$(or $(FUZZFLAGS),-parallel=1)' > out/fuzz.txt 2>&1 || touch out/fuzz.failed; \
	  echo "== fuzz: done $$((SECONDS-start)) s after make test started" >> out/fuzz.txt ) & bg=$$!; \
	set +m; \
	trap 'kill -TERM -- -$$bg 2>/dev/null; exit 130' INT TERM HUP; \
	echo "== go test (every package, -timeout $(TEST_TIMEOUT) each; not $(SLOW_TESTS))"; \
	$(GO) test -json -timeout $(TEST_TIMEOUT) -skip '$(SLOW_TESTS)' $(TEST_PKGS) | tee out/test.json | $(TESTREPORT) summary || rc=1; \
	echo "== go test (every package): done $$((SECONDS-start)) s after make test started"; \
	wait $$bg || rc=1; \
	for step in test-slow:"go test (the slow tests $(SLOW_TESTS))" test-race:"go test -race (the worker pools)" fuzz:"go test -fuzz (every parser entry point, $(FUZZTIME) each)"; do \
		f=$${step%%:*}; echo "== $${step#*:}"; cat out/$$f.txt; [ ! -s out/$$f.err ] || cat out/$$f.err; [ ! -e out/$$f.failed ] || rc=1; \
	done; \
	exit $$rc

$(TESTREPORT): $(wildcard internal/testreport/*.go internal/testreport/cmd/testreport/*.go)
	$(GO) build -o $@ ./internal/testreport/cmd/testreport

# The edit-test loop, under 5 minutes on 2 cores with a warm build cache:
# go vet of every package and the -short tests of the packages that need
# no sandbox, container or cluster (tests that take long skip under -short).
CHECK_PKGS := ./clones/ ./dataset/ ./diff/ ./internal/atomicfile/ ./internal/gitexec/ ./internal/plural/ ./internal/safepath/ ./internal/testreport/ ./mine/ ./nfi/... ./report/ ./retrieval/ ./review/ ./sample/ ./syntax/... ./testlog/
check:
	$(GO) vet ./...
	$(GO) test -short -timeout 5m $(CHECK_PKGS)

# The 20 slowest tests of the last make test (out/test*.json).
slowest: $(TESTREPORT)
	@ls out/test*.json >/dev/null 2>&1 || { echo "no out/test*.json: run make test first" >&2; exit 2; }
	$(TESTREPORT) slowest -n 20 out/test*.json

# Bounded fuzzing of every parser entry point (pyparse, jsparse,
# tree-sitter, the node-level retrieval metrics), 160 s in all; FUZZTIME
# overrides each target's share.
FUZZTIME ?= 40s
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) $(FUZZFLAGS) ./syntax/pyparse/
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) $(FUZZFLAGS) ./syntax/jsparse/
	$(GO) test -run '^$$' -fuzz '^FuzzTreeSitter$$' -fuzztime $(FUZZTIME) $(FUZZFLAGS) ./syntax/
	$(GO) test -run '^$$' -fuzz '^FuzzFileNodes$$' -fuzztime $(FUZZTIME) $(FUZZFLAGS) ./retrieval/

# BenchmarkStartup (cmd/polynfi) reports the size of bin/polynfi and the
# wall time of `polynfi --version` and of a one-line `polynfi score`.
bench: build
	POLYNFI_BIN=$(abspath $(BIN)) $(GO) test -run '^$$' -bench . -benchtime 3x ./...

# polynfi score (92 rules) against the catalog's own Ruff invocation, one
# core, CPU time and peak RSS, medians of BENCH_REPS runs, on the standard
# library and site-packages of python3, a 42-file project and one generated
# 50 MB file (bench/vs_ruff.py says how). Prints the ratios. About 4 minutes
# with BENCH_REPS=3 (mostly the two tools on site-packages and compiling the
# 50 MB file); not part of make test.
BENCH_REPS ?= 3
bench-vs-ruff: build
	python3 bench/vs_ruff.py --polynfi $(BIN) --reps $(BENCH_REPS)

# A cold build of bin/polynfi in an empty build cache: CPU and wall time,
# binary size, the costliest actions and the CPU by module.
build-profile:
	LDFLAGS='$(STRIP)' bash .ci/build-profile.sh

# docs/rules.md: the Python rules of the default catalog, as
# TestRulesDocUpToDate checks them (`polynfi rules --format markdown` also
# lists the Java, JavaScript and TypeScript rules; those are in
# docs/rules-java.md and docs/rules-jsts.md).
docs:
	$(GO) test ./internal/cli -run '^TestRulesDocUpToDate$$' -update

# A real single-node Kubernetes cluster on this machine (root; Docker running):
# builds Kubernetes from source once (cached in /var/cache/polynfi-k8s), then
# starts etcd, the control plane, containerd and kubelet. KUBECONFIG is
# /var/lib/polynfi-k8s/admin.kubeconfig. See README "Scale out on Kubernetes".
cluster-up:
	bash .ci/k8s.sh up

cluster-down:
	bash .ci/k8s.sh down
