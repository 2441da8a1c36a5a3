# polybench_multilang_base of the bundled multi-language sample, one shared
# image tagged polybench_{go,rust,c,cpp,php,ruby}_base by bases.sh: Debian 12's
# Go 1.19, Rust 1.63 + cargo, CMake + GCC + googletest + doctest, PHP 8.2 +
# PHPUnit 9, Ruby 3.1 + RSpec (with its JUnit formatter) + minitest. Nothing
# from a language registry: the sample's projects need no crates, modules,
# gems or Composer packages.
FROM polynfi-fixture/bookworm:1
ENV DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends \
        git patch ca-certificates make \
        golang-go \
        rustc cargo \
        cmake gcc g++ libgtest-dev doctest-dev \
        php-cli php-xml php-mbstring phpunit \
        ruby ruby-rspec ruby-rspec-junit-formatter ruby-minitest \
        >/dev/null \
    && rm -rf /var/lib/apt/lists/*
