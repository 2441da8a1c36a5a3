# polybench_javascript_base and polybench_typescript_base of the bundled
# sample: Debian's Node 18 and npm, and the sample's Node packages (jest,
# ts-jest, typescript, mocha) where the test commands look for them,
# $POLYNFI_DATASET_DIR/env/node/node_modules.
FROM polynfi-fixture/bookworm:1
ENV DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends nodejs npm git patch ca-certificates >/dev/null \
    && rm -rf /var/lib/apt/lists/*
COPY ca.sh ca-certificates.crt /tmp/ctx/
RUN sh /tmp/ctx/ca.sh && rm -rf /tmp/ctx
ENV POLYNFI_DATASET_DIR=/opt/polynfi-sample
COPY package.json package-lock.json /opt/polynfi-sample/env/node/
RUN cd /opt/polynfi-sample/env/node && NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt npm ci --no-audit --no-fund --loglevel=error
