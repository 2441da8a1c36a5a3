# polybench_python_base as polynfi ships it: Python 3 with git and patch;
# instance Dockerfiles install their own requirements. Needs a registry.
FROM python:3.11-slim-bookworm
RUN apt-get update && apt-get install -y --no-install-recommends git patch && rm -rf /var/lib/apt/lists/* \
    && pip install --no-cache-dir pytest
