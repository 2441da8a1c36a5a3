#!/usr/bin/env bash
# pytest's wheels (and its dependencies') for Debian's python3, kept in a
# directory so that TestSetupNonRootNoSudo can run examples/polybench/env/
# setup.sh's virtual-environment route offline (PIP_NO_INDEX=1,
# PIP_FIND_LINKS=the directory). Idempotent and cached: a stamp names the
# pinned version. Registry: PyPI, through pip.
set -euo pipefail
dir="${POLYNFI_PYTEST_WHEELS:-/var/cache/polynfi/pytest-wheels}"
version=8.3.5
py=/usr/bin/python3
[[ -x "$py" ]] || py=python3
if [[ -f "$dir/.polynfi-pytest-$version" ]]; then
	echo "pytest-wheels: pytest $version in $dir"
	exit 0
fi
mkdir -p "$dir"
"$py" -m pip download --quiet --disable-pip-version-check --only-binary=:all: --dest "$dir" "pytest==$version"
touch "$dir/.polynfi-pytest-$version"
echo "pytest-wheels: pytest $version in $dir"
