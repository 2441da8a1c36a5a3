#!/usr/bin/env bash
# Installs the test runners whose real output the log-reading parity tests
# read (testlog TestRunnerLogsRealRuns): PHP and PHPUnit, Ruby with
# minitest, test-unit and RSpec, doctest and Catch2 (headers), googletest
# and CMake (ctest), g++. Go and Rust (cargo) come with the machine's
# toolchains. Idempotent: does nothing when all are there. About 40 s of
# apt on a fresh machine.
set -euo pipefail
need=()
command -v php >/dev/null 2>&1 || need+=(php-cli)
command -v phpunit >/dev/null 2>&1 || need+=(phpunit)
command -v ruby >/dev/null 2>&1 || need+=(ruby)
command -v rspec >/dev/null 2>&1 || need+=(ruby-rspec)
[ -d /usr/lib/ruby/vendor_ruby/minitest ] || ruby -e 'require "minitest"' 2>/dev/null || need+=(ruby-minitest)
ruby -e 'require "test/unit"' 2>/dev/null || need+=(ruby-test-unit)
[ -f /usr/include/doctest/doctest.h ] || need+=(doctest-dev)
[ -f /usr/include/catch2/catch.hpp ] || need+=(catch2)
[ -f /usr/include/gtest/gtest.h ] || need+=(libgtest-dev)
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v g++ >/dev/null 2>&1 || need+=(g++)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
echo "runners.sh: php $(php -r 'echo PHP_VERSION;'), ruby $(ruby -e 'print RUBY_VERSION'), cmake $(cmake --version | awk 'NR==1{print $3}')" >&2
