# polynfi: the two set-up commands of the README are `make demo` and `make test`.
GO ?= go
BIN := bin/polynfi
OUT ?= out/demo

.PHONY: build version demo test fuzz deps sample-env bench build-profile cold-build-notice docs cluster-up cluster-down

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

build:
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/polynfi

# Environment of the bundled samples: npm/Maven/PyPI packages, installed once.
sample-env:
	bash examples/polybench/env/setup.sh

# Everything the tests need: the oracles (ruff, radon) and the sample environment.
deps: sample-env
	python3 -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt

# The main job on the bundled default input: evaluate the reference (gold)
# patches of the bundled SWE-PolyBench-style sample and the bundled SWE-NFI
# tasks; reports land in $(OUT)/.
demo: cold-build-notice build sample-env
	$(BIN) eval --dataset examples/polybench/dataset.csv --predictions gold --out $(OUT)/polybench
	@if [ -f examples/nfi/tasks.jsonl ]; then $(BIN) eval --dataset examples/nfi/tasks.jsonl --predictions gold --out $(OUT)/nfi; fi

# Measured with `make build-profile` (README "Set-up").
cold-build-notice:
	@echo "make demo: a cold first build of polynfi takes about 3 minutes on an idle 2-core machine (~220 CPU-s), longer on a busy one; later builds reuse Go's build cache" >&2

test: deps
	$(GO) test -timeout 40m ./...
	$(GO) test -race -run 'TestScoreConcurrent|TestFlatten' ./nfi/catalog/ ./syntax/
	$(MAKE) fuzz

# Bounded fuzzing of every parser entry point (pyparse, tree-sitter, the
# node-level retrieval metrics), 2 minutes in all; FUZZTIME overrides each
# target's share.
FUZZTIME ?= 40s
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./syntax/pyparse/
	$(GO) test -run '^$$' -fuzz '^FuzzTreeSitter$$' -fuzztime $(FUZZTIME) ./syntax/
	$(GO) test -run '^$$' -fuzz '^FuzzFileNodes$$' -fuzztime $(FUZZTIME) ./retrieval/

# BenchmarkStartup (cmd/polynfi) reports the size of bin/polynfi and the
# wall time of `polynfi --version` and of a one-line `polynfi score`.
bench: build
	POLYNFI_BIN=$(abspath $(BIN)) $(GO) test -run '^$$' -bench . -benchtime 3x ./...

# A cold build of bin/polynfi in an empty build cache: CPU and wall time,
# binary size, the costliest actions and the CPU by module.
build-profile:
	LDFLAGS='$(STRIP)' bash .ci/build-profile.sh

docs: build
	$(BIN) rules --format markdown > docs/rules.md

# A real single-node Kubernetes cluster on this machine (root; Docker running):
# builds Kubernetes from source once (cached in /var/cache/polynfi-k8s), then
# starts etcd, the control plane, containerd and kubelet. KUBECONFIG is
# /var/lib/polynfi-k8s/admin.kubeconfig. See README "Scale out on Kubernetes".
cluster-up:
	bash .ci/k8s.sh up

cluster-down:
	bash .ci/k8s.sh down
