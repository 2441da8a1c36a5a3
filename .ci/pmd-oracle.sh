#!/usr/bin/env bash
# Installs the Java oracles of nfi/rules/java's agreement test and benchmark
# into one cache directory (never the user's ~/.m2): PMD 7.27.0 (pmd-java and
# pmd-cli, main class net.sourceforge.pmd.cli.PmdCli) and Checkstyle 12.3.1,
# their jars copied by maven-dependency-plugin 3.8.1 (Debian's Maven default
# plugin is too old for copy-dependencies of these poms). It also assembles
# the corpus: the -sources.jar artifacts of well-known libraries from Maven
# Central, unpacked into $dir/corpus; nothing of it is committed.
# Idempotent: a stamp skips it on the next run. Needs java (17+) and mvn.
set -euo pipefail
dir="${POLYNFI_PMD_ORACLE:-$HOME/.cache/polynfi/pmd-7.27.0}"
if [ -f "$dir/.polynfi-stamp" ]; then
  exit 0
fi
if ! command -v mvn >/dev/null || ! command -v java >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq maven openjdk-17-jdk-headless >/dev/null
  else
    echo "pmd-oracle: install java (17+) and maven" >&2; exit 1
  fi
fi
rm -rf "$dir"
mkdir -p "$dir/lib" "$dir/corpus" "$dir/jars" "$dir/build"
repo="$dir/m2"
dep=org.apache.maven.plugins:maven-dependency-plugin:3.8.1
cat > "$dir/build/pom.xml" <<'POM'
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>polynfi</groupId><artifactId>pmd-oracle</artifactId><version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>net.sourceforge.pmd</groupId><artifactId>pmd-java</artifactId><version>7.27.0</version></dependency>
    <dependency><groupId>net.sourceforge.pmd</groupId><artifactId>pmd-cli</artifactId><version>7.27.0</version></dependency>
    <dependency><groupId>com.puppycrawl.tools</groupId><artifactId>checkstyle</artifactId><version>12.3.1</version></dependency>
  </dependencies>
</project>
POM
mvn -B -q -f "$dir/build/pom.xml" -Dmaven.repo.local="$repo" \
  "$dep:copy-dependencies" -DoutputDirectory="$dir/lib" -DincludeScope=runtime
# Corpus: published sources of widely used libraries.
for a in org.apache.commons:commons-lang3:3.17.0 com.google.guava:guava:33.4.0-jre \
  com.fasterxml.jackson.core:jackson-core:2.18.2 commons-io:commons-io:2.18.0 \
  org.apache.commons:commons-collections4:4.4 com.google.code.gson:gson:2.11.0 \
  junit:junit:4.13.2 org.apache.commons:commons-text:1.13.0; do
  mvn -B -q -f "$dir/build/pom.xml" -Dmaven.repo.local="$repo" "$dep:copy" \
    -Dartifact="$a:jar:sources" -DoutputDirectory="$dir/jars"
done
for j in "$dir"/jars/*-sources.jar; do
  d="$dir/corpus/$(basename "$j" -sources.jar)"
  mkdir -p "$d" && (cd "$d" && jar xf "$j") && find "$d" -type f ! -name '*.java' -delete
done
rm -rf "$dir/m2" "$dir/jars" "$dir/build"
java -cp "$dir/lib/*" net.sourceforge.pmd.cli.PmdCli --version
touch "$dir/.polynfi-stamp"
