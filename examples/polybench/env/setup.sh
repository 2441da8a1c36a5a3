#!/usr/bin/env bash
# Installs everything the bundled sample's test commands need, so that they run
# offline afterwards:
#   - Node: jest, ts-jest, typescript, mocha from env/node/package-lock.json (npm ci)
#   - Python: pytest (pip, only when python3 cannot import it)
#   - Java: the Maven plugins and JUnit 5 artifacts of every Java sample repo,
#     resolved by one online `mvn test` per repository at its base commit into
#     $HOME/.m2/repository: the repository Maven reads inside polynfi's sandbox,
#     where the sandbox user's home is polynfi's $HOME. Passed to Maven as
#     -Dmaven.repo.local, since Maven on the host would otherwise use the passwd
#     entry's home (Java's user.home), not $HOME. When $HOME cannot be written,
#     Maven's own default (the passwd home's ~/.m2/repository) is filled; the
#     sandbox reads that one when $HOME has none (runtime.MavenRepository).
# Idempotent and fast when done: each step is skipped when its stamp (a hash of
# its inputs, kept next to what it stamps) matches. Nothing is written under
# $HOME but the Maven repository; npm's and pip's caches go to a temporary
# directory when $HOME cannot be written. Registries used: npm, PyPI, Maven
# Central.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
sample="$(cd "$here/.." && pwd)"

log() { printf 'setup.sh: %s\n' "$*" >&2; }

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
if [[ -n "${HOME:-}" && -d "$HOME" && -w "$HOME" ]]; then
	m2="$HOME/.m2/repository"
else
	passwd_home="$(getent passwd "$(id -u)" | cut -d: -f6)"
	m2="$passwd_home/.m2/repository"
	log "HOME (${HOME:-unset}) cannot be written: npm and pip caches in $scratch, Maven repository $m2"
	export npm_config_cache="$scratch/npm" PIP_NO_CACHE_DIR=1
fi

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

# Java: warm the Maven repository with everything `mvn -o test` needs, per
# repository; the stamp lives in the Maven repository itself, so that a
# new $HOME (or a removed repository) is filled again.
for bundle in "$sample"/repos/*.bundle; do
	key="$(basename "$bundle" .bundle)"
	src="$sample/src/$key"
	[[ -f "$src/base/pom.xml" ]] || continue
	head="$(git bundle list-heads "$bundle" | awk '{print $1; exit}')"
	stamp="$m2/.polynfi-sample-$key-$head"
	if [[ -f "$stamp" ]]; then
		log "maven $key: up to date in $m2"
		continue
	fi
	log "maven $key: resolving plugins and dependencies into $m2"
	mkdir -p "$m2"
	work="$scratch/$key"
	git clone -q "$bundle" "$work"
	(cd "$work" && mvn -B -q -Dmaven.repo.local="$m2" -Dmaven.test.failure.ignore=true test >/dev/null)
	# the offline run the sandbox makes: it fails here when something is missing
	(cd "$work" && mvn -o -B -q -Dmaven.repo.local="$m2" -Dmaven.test.failure.ignore=true test >/dev/null)
	rm -rf "$work"
	touch "$stamp"
done
log "done"
