# polybench_java_base as polynfi ships it: a JDK 17, Maven and Gradle's
# wrapper prerequisites, git and patch. Needs a registry.
FROM eclipse-temurin:17-jdk-jammy
RUN apt-get update && apt-get install -y --no-install-recommends git patch maven unzip && rm -rf /var/lib/apt/lists/*
