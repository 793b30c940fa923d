#!/usr/bin/env bash
# Installs every n8n version of versions.json (or only those whose label or version is given),
# one after the other: two at once would compete for the 2 cores and ~1.3-2.2 GB each.
# Usage: scripts/n8n/install-matrix.sh [LABEL|VERSION ...]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
node -e '
	const wanted = process.argv.slice(2);
	for (const v of require(process.argv[1]).versions)
		if (!wanted.length || wanted.includes(v.label) || wanted.includes(v.n8n)) console.log(v.n8n);
' "$here/versions.json" "$@" | while read -r version; do
	"$here/install-n8n.sh" "$version"
done
