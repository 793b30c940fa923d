#!/usr/bin/env bash
# n8n's community package scanner (@n8n/scan-community-package) over this package, the way it scans a
# published one: its ESLint rules on the source (package.json, nodes/, credentials/) and on the packed
# tarball. The scanner only fetches published packages, so this installs it into a git-ignored cache
# and calls its analyzePackage() on the local source and a local `npm pack`.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
version="0.32.0"
cache="${SCAN_CACHE_DIR:-$repo/.cache/scan-community-package}/$version"
if [ ! -f "$cache/.complete" ]; then
	mkdir -p "$cache"
	echo '{"name":"scan-cache","private":true}' > "$cache/package.json"
	# --ignore-scripts: the scanner pulls in n8n-workflow, whose isolated-vm does not build on Node 20;
	# the ESLint rules do not need it.
	(cd "$cache" && npm_config_yes=true npm install --no-audit --no-fund --ignore-scripts \
		"@n8n/scan-community-package@$version" > install.log 2>&1)
	touch "$cache/.complete"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$repo" && npm pack --silent --pack-destination "$work" > /dev/null)
mkdir "$work/package"
tar -xzf "$work"/*.tgz -C "$work/package" --strip-components=1
cp "$repo/scripts/scan/run-scan.mjs" "$cache/run-scan.mjs"
node "$cache/run-scan.mjs" "$repo" "$work/package"
