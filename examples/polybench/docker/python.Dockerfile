# polybench_python_base of the bundled sample: Debian's Python 3 and pytest.
FROM polynfi-fixture/bookworm:1
ENV DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends python3 python3-pytest git patch ca-certificates >/dev/null \
    && rm -rf /var/lib/apt/lists/*
