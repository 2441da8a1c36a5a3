#!/usr/bin/env bash
# Installs everything the bundled sample's test commands need, so that they run
# offline afterwards:
#   - Node: jest, ts-jest, typescript, mocha from env/node/package-lock.json (npm ci)
#   - Python: pytest (pip, only when python3 cannot import it)
#   - Java: the Maven plugins and JUnit 5 artifacts of every Java sample repo,
#     resolved into ~/.m2 by one online `mvn test` per repository at its base commit
# Idempotent and fast when done: each step is skipped when its stamp (a hash of
# its inputs) matches. Registries used: npm, PyPI, Maven Central.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
sample="$(cd "$here/.." && pwd)"
stamps="${XDG_CACHE_HOME:-$HOME/.cache}/polynfi/sample-env"
mkdir -p "$stamps"

log() { printf 'setup.sh: %s\n' "$*" >&2; }

# Node toolchain.
node_dir="$here/node"
node_hash="$(cat "$node_dir/package.json" "$node_dir/package-lock.json" | sha256sum | cut -c1-16)"
if [[ -f "$node_dir/node_modules/.polynfi-$node_hash" ]]; then
	log "node: up to date"
else
	log "node: npm ci in $node_dir"
	(cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error)
	touch "$node_dir/node_modules/.polynfi-$node_hash"
fi

# Python: pytest only.
if python3 -c 'import pytest' 2>/dev/null; then
	log "python: pytest present"
else
	log "python: pip install pytest"
	python3 -m pip install --quiet --disable-pip-version-check 'pytest>=7'
fi

# Java: warm ~/.m2 with everything `mvn -o test` needs, per repository.
for bundle in "$sample"/repos/*.bundle; do
	key="$(basename "$bundle" .bundle)"
	src="$sample/src/$key"
	[[ -f "$src/base/pom.xml" ]] || continue
	head="$(git bundle list-heads "$bundle" | awk '{print $1; exit}')"
	stamp="$stamps/maven-$key-$head"
	if [[ -f "$stamp" && -d "$HOME/.m2/repository" ]]; then
		log "maven $key: up to date"
		continue
	fi
	log "maven $key: resolving plugins and dependencies"
	work="$(mktemp -d)"
	git clone -q "$bundle" "$work/repo"
	(cd "$work/repo" && mvn -B -q -Dmaven.test.failure.ignore=true test >/dev/null)
	(cd "$work/repo" && mvn -o -B -q -Dmaven.test.failure.ignore=true test >/dev/null)
	rm -rf "$work"
	touch "$stamp"
done
log "done"
