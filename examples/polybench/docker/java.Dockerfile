# polybench_java_base of the bundled sample: OpenJDK 17 and Maven; instance
# images resolve their Maven artifacts into /root/.m2 while they build.
FROM polynfi-fixture/bookworm:1
ENV DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8
RUN mkdir -p /usr/share/man/man1 && apt-get update -qq \
    && apt-get install -y -qq --no-install-recommends openjdk-17-jdk-headless maven git patch ca-certificates ca-certificates-java >/dev/null \
    && rm -rf /var/lib/apt/lists/*
COPY ca.sh ca-certificates.crt /tmp/ctx/
RUN sh /tmp/ctx/ca.sh && rm -rf /tmp/ctx
