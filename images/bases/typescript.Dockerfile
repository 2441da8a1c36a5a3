# polybench_typescript_base as polynfi ships it: Node 18 with npm, yarn
# (corepack), git and patch. Needs a registry.
FROM node:18-bookworm
RUN apt-get update && apt-get install -y --no-install-recommends git patch && rm -rf /var/lib/apt/lists/* \
    && corepack enable
