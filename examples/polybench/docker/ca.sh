#!/bin/sh
# Trust the build machine's CA bundle (ca-certificates.crt in the build
# context) inside the image: one certificate per file, then
# update-ca-certificates (which also feeds Java's cacerts when a JDK is in).
set -eu
mkdir -p /usr/local/share/ca-certificates/polynfi-host
cd /usr/local/share/ca-certificates/polynfi-host
csplit -s -z -f host-ca- -b %03d.crt /tmp/ctx/ca-certificates.crt '/-----BEGIN CERTIFICATE-----/' '{*}'
update-ca-certificates >/dev/null 2>&1
