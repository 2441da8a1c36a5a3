#!/usr/bin/env bash
# Reads `go build -v` output (stdin: the package import paths as Go
# compiles them, and any error) and reports how far the build is, on
# stderr: "make build: compiled N packages, elapsed Ts" every
# BUILD_PROGRESS_EVERY seconds (10; 1 on a terminal, on one line that is
# rewritten), then "make build: compiled N packages in Ts". A warm build
# compiles nothing and prints nothing. Every other line (compiler errors,
# "# package" headers) is passed through at once. The build's exit status
# is the pipeline's (make runs it with -o pipefail).
every=${BUILD_PROGRESS_EVERY:-}
tty=0
if [ -t 2 ]; then tty=1; fi
if [ -z "$every" ]; then
	if ((tty)); then every=1; else every=10; fi
fi
n=0
start=$SECONDS
last=$SECONDS
partial=
report() {
	if ((tty)); then
		printf '\rmake build: compiled %d packages, elapsed %ds' "$n" $((SECONDS - start)) >&2
	else
		printf 'make build: compiled %d packages, elapsed %ds\n' "$n" $((SECONDS - start)) >&2
	fi
	last=$SECONDS
}
while :; do
	line=
	if IFS= read -r -t 1 line; then
		line=$partial$line
		partial=
		if [[ $line =~ ^[A-Za-z0-9_.~+/-]+$ ]]; then
			n=$((n + 1))
		else
			((tty && n > 0)) && printf '\n' >&2
			printf '%s\n' "$line" >&2
		fi
	elif (($? > 128)); then
		partial=$partial$line # timed out: keep what came of a line
	else
		[ -n "$partial$line" ] && printf '%s\n' "$partial$line" >&2
		break
	fi
	if ((n > 0 && SECONDS - last >= every)); then report; fi
done
if ((n > 0)); then
	((tty)) && printf '\n' >&2
	printf 'make build: compiled %d packages in %ds\n' "$n" $((SECONDS - start)) >&2
fi
exit 0
