#!/usr/bin/env bash
# Installs everything the bundled sample's test commands need, so that they run
# offline afterwards:
#   - Node: jest, ts-jest, typescript, mocha from env/node/package-lock.json (npm ci)
#   - Python: pytest (pip, only when python3 cannot import it; a python3
#     that refuses pip (PEP 668) gets it in the virtual environment env/venv,
#     no root needed; apt's python3-pytest only when that fails too)
#   - Java: the Maven plugins and JUnit 5 artifacts of every Java sample repo,
#     resolved by one online `mvn test` per repository at its base commit into
#     Maven's local repository as Maven on this machine finds it: under the
#     passwd entry's home (Java's user.home comes from there, not from $HOME),
#     else under $HOME when there is no such entry or it cannot be written.
#     polynfi's sandbox shows the same directory at $HOME/.m2/repository
#     (runtime.MavenRepository), so that a $HOME other than the passwd home
#     (a fresh one under /tmp, an unwritable one) changes nothing.
#   - the toolchains of examples/multilang, from Debian packages when a
#     command is missing (apt-get, as root or through sudo): Go (golang-go,
#     only without a go on PATH), Rust (rustc, cargo), CMake, GCC, googletest,
#     doctest, PHP + PHPUnit, Ruby + RSpec + its JUnit formatter + minitest.
#     The sample's projects need no crates, modules, gems or Composer
#     packages. rustup's cargo works as well (the sandbox shows ~/.rustup).
# Not root and no sudo: what only a Debian package can give is named in one
# line ("missing: ...; as root: apt-get install ...") and the rest goes on;
# the script then ends 0 and the instances that need what is missing end as
# environment failures (no test ran), never as the patch's fault.
# POLYNFI_SETUP_STEPS picks steps (default "node python multilang maven").
# Idempotent and fast when done: each step is skipped when its stamp (a hash of
# its inputs, kept next to what it stamps) matches. npm's and pip's caches go
# to a temporary directory when $HOME cannot be written. Registries used: npm, PyPI, Maven
# Central, Debian's apt.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
sample="$(cd "$here/.." && pwd)"

log() { printf 'setup.sh: %s\n' "$*" >&2; }
steps=" ${POLYNFI_SETUP_STEPS:-node python multilang maven} "
step() { [[ "$steps" == *" $1 "* ]]; }
# What could not be installed without root: Debian packages, and why.
missing_pkgs=()
missing_why=()
root_or_sudo() { [[ $(id -u) -eq 0 ]] || command -v sudo >/dev/null 2>&1; }

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
if [[ -z "${HOME:-}" || ! -d "$HOME" || ! -w "$HOME" ]]; then
	log "HOME (${HOME:-unset}) cannot be written: npm's and pip's caches in $scratch"
	export npm_config_cache="$scratch/npm" PIP_NO_CACHE_DIR=1
fi
m2=""
for h in "$(getent passwd "$(id -u)" | cut -d: -f6 || true)" "${HOME:-}"; do
	if [[ -n "$h" && "$h" != / ]] && mkdir -p "$h/.m2/repository" 2>/dev/null && [[ -w "$h/.m2/repository" ]]; then
		m2="$h/.m2/repository"
		break
	fi
done

# Node toolchain.
node_dir="$here/node"
step node && node_hash="$(cat "$node_dir/package.json" "$node_dir/package-lock.json" | sha256sum | cut -c1-16)"
if ! step node; then
	:
elif [[ -f "$node_dir/node_modules/.polynfi-$node_hash" ]]; then
	log "node: up to date"
else
	log "node: npm ci in $node_dir"
	(cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error)
	touch "$node_dir/node_modules/.polynfi-$node_hash"
fi

# Python: pytest only. A python3 that refuses pip (PEP 668) gets it in a
# virtual environment, env/venv, without root; make demo and make test put
# env/venv/bin first on PATH (the sandbox shows a PATH directory's tree).
venv="$here/venv"
venv_pytest() {
	# A venv without pip that python3's own pip installs into (pip
	# --python: no copy of pip to install), else, when python3 has no pip,
	# a venv with its own (ensurepip).
	rm -rf "$venv"
	if python3 -m pip --version >/dev/null 2>&1; then
		python3 -m venv --without-pip "$venv" 2>>"$scratch/pip.err" &&
			python3 -m pip --python "$venv/bin/python" install --quiet --disable-pip-version-check 'pytest>=7' 2>>"$scratch/pip.err" && return 0
	elif python3 -m venv "$venv" >/dev/null 2>>"$scratch/pip.err"; then
		"$venv/bin/python" -m pip install --quiet --disable-pip-version-check 'pytest>=7' 2>>"$scratch/pip.err" && return 0
	fi
	rm -rf "$venv"
	return 1
}
if ! step python; then
	:
elif python3 -c 'import pytest' 2>/dev/null; then
	log "python: pytest present"
elif [[ -x "$venv/bin/python" ]] && "$venv/bin/python" -c 'import pytest' 2>/dev/null; then
	log "python: pytest present in $venv (make demo puts $venv/bin first on PATH)"
else
	log "python: pip install pytest"
	if python3 -m pip install --quiet --disable-pip-version-check 'pytest>=7' 2>"$scratch/pip.err"; then
		:
	elif log "python: pip refused (PEP 668, or no pip): pytest into the virtual environment $venv" && venv_pytest; then
		log "python: pytest in $venv; make demo and make test put $venv/bin first on PATH (by hand: PATH=$venv/bin:\$PATH polynfi eval ...)"
	elif ! root_or_sudo; then
		# A distribution's own python3 refuses pip (PEP 668, "externally
		# managed") or has none, and only root can add its package.
		why="$(tail -n 1 "$scratch/pip.err" | cut -c1-120)"
		grep -q externally-managed "$scratch/pip.err" && why="PEP 668: an externally managed Python"
		log "python: $(command -v python3) has no pytest and pip may not install it ($why); going on without it"
		missing_pkgs+=(python3-pytest)
		missing_why+=("pytest for the Python samples")
	else
		# PEP 668: the distribution's package, as root or through sudo.
		sudo=""
		[[ $(id -u) -eq 0 ]] || sudo="sudo"
		log "python: apt-get install python3-pytest"
		$sudo apt-get update -qq
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3-pytest >/dev/null
	fi
fi

# The multi-language sample's toolchains (examples/multilang): Debian
# packages for what is missing, checked command by command and header by
# header so that a machine that has them from elsewhere installs nothing.
need=()
if step multilang; then
command -v go >/dev/null 2>&1 || need+=(golang-go)
command -v cargo >/dev/null 2>&1 || need+=(cargo rustc)
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v g++ >/dev/null 2>&1 || need+=(g++ make)
[[ -f /usr/include/gtest/gtest.h ]] || need+=(libgtest-dev)
[[ -f /usr/include/doctest/doctest.h ]] || need+=(doctest-dev)
# (grep reads php's whole list: with grep -q, php could die of SIGPIPE and
# pipefail call the module missing)
command -v php >/dev/null 2>&1 && php -m 2>/dev/null | grep -x dom >/dev/null || need+=(php-cli php-xml php-mbstring)
command -v phpunit >/dev/null 2>&1 || need+=(phpunit)
command -v ruby >/dev/null 2>&1 || need+=(ruby)
command -v rspec >/dev/null 2>&1 || need+=(ruby-rspec)
ruby -e 'require "rspec_junit_formatter"' >/dev/null 2>&1 || need+=(ruby-rspec-junit-formatter)
ruby -e 'require "minitest"' >/dev/null 2>&1 || need+=(ruby-minitest)
fi
if ! step multilang; then
	:
elif ((${#need[@]})) && ! root_or_sudo; then
	# Only examples/multilang needs them (not the demo's samples): say what
	# is missing rather than stop.
	log "multilang: missing ${need[*]} (Debian packages; not root and no sudo)"
	missing_pkgs+=("${need[@]}")
	missing_why+=("the toolchains of examples/multilang")
elif ((${#need[@]})); then
	sudo=""
	[[ $(id -u) -eq 0 ]] || sudo="sudo"
	log "multilang: apt-get install ${need[*]}"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
else
	log "multilang: toolchains present"
fi

# Java: warm the Maven repository with everything `mvn -o test` needs, per
# repository; the stamp lives in the Maven repository itself, so that a
# removed or other repository is filled again.
for bundle in "$sample"/repos/*.bundle; do
	step maven || break
	key="$(basename "$bundle" .bundle)"
	src="$sample/src/$key"
	[[ -f "$src/base/pom.xml" ]] || continue
	head="$(git bundle list-heads "$bundle" | awk '{print $1; exit}')"
	if [[ -z "$m2" ]]; then
		log "maven: neither the passwd home nor HOME (${HOME:-unset}) can hold .m2/repository; the Java samples will not find their plugins (set HOME to a writable directory and run again)"
		break
	fi
	stamp="$m2/.polynfi-sample-$key-$head"
	if [[ -f "$stamp" ]]; then
		log "maven $key: up to date in $m2"
		continue
	fi
	log "maven $key: resolving plugins and dependencies into $m2"
	work="$scratch/$key"
	git clone -q "$bundle" "$work"
	(cd "$work" && mvn -B -q -Dstyle.color=never -Dmaven.repo.local="$m2" -Dmaven.test.failure.ignore=true test >/dev/null)
	# the offline run the sandbox makes: it fails here when something is missing
	(cd "$work" && mvn -o -B -q -Dstyle.color=never -Dmaven.repo.local="$m2" -Dmaven.test.failure.ignore=true test >/dev/null)
	rm -rf "$work"
	touch "$stamp"
done
if ((${#missing_pkgs[@]})); then
	# One line: exactly what to install, and what it is for.
	why="$(IFS=';'; echo "${missing_why[*]}" | sed 's/;/; /g')"
	echo "setup.sh: missing (not root and no sudo): install as root: apt-get install ${missing_pkgs[*]} ($why); the rest is set up and the instances that need these will end as environment failures" >&2
fi
log "done"
