#!/usr/bin/env bash
# Installs the JavaScript/TypeScript oracles of nfi/rules/jsts's agreement
# test and benchmark, project-local (npm --prefix, never global): ESLint
# 10.15.0, typescript-eslint 8.73.0, TypeScript 6.0.3 and oxlint 1.95.0.
# It also fetches the corpus packages (npm pack: their published sources)
# into $dir/corpus; the test lints and scores them there, nothing of them is
# committed. Idempotent: a stamp skips it on the next run.
set -euo pipefail
dir="${POLYNFI_ESLINT_ORACLE:-$HOME/.cache/polynfi/eslint-10.15.0}"
if [ -f "$dir/.polynfi-stamp" ]; then
  exit 0
fi
rm -rf "$dir"
mkdir -p "$dir/corpus"
cd "$dir"
echo '{"private": true}' > package.json
npm install --silent --no-audit --no-fund --ignore-scripts \
  eslint@10.15.0 typescript-eslint@8.73.0 typescript@6.0.3 oxlint@1.95.0 >/dev/null
# Corpus: packages that publish their JavaScript or TypeScript sources.
cd corpus
# one npm pack for all of them: npm fetches them concurrently (one call per
# package cost some 25 s each, most of it registry round trips)
npm pack --silent lodash@4.17.21 express@4.21.2 rxjs@7.8.1 zod@3.24.1 typescript@6.0.3 \
  axios@1.7.9 commander@12.1.0 yargs@17.7.2 moment@2.30.1 date-fns@4.1.0 \
  immer@10.1.1 mobx@6.13.5 vue@3.5.13 @angular/core@19.0.5 preact@10.25.4 \
  eslint@10.15.0 ajv@8.17.1 chalk@5.4.1 webpack@5.97.1 prettier@3.4.2 >/dev/null
for f in *.tgz; do
  d="${f%.tgz}"
  mkdir -p "$d" && tar -xzf "$f" -C "$d" && rm "$f"
done
touch "$dir/.polynfi-stamp"
