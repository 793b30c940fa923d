#!/usr/bin/env bash
# n8n's community package scanner (@n8n/scan-community-package) over this package, the way it scans a
# published one: its ESLint rules on the source (package.json, nodes/, credentials/) and on the packed
# tarball. The scanner only fetches published packages, so this installs it into a git-ignored cache
# and calls its analyzePackage() on the local source and a local `npm pack`.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=../locked-install.sh
source "$repo/scripts/locked-install.sh"
# The scanner's whole tree is pinned: scanner/package.json and its package-lock.json.
pinned="$repo/scripts/scan/scanner"
version="$(node -p "require('$pinned/package.json').dependencies['@n8n/scan-community-package']")"
cache="${SCAN_CACHE_DIR:-$repo/.cache/scan-community-package}/$version"
if ! install_is_current "$cache" "$pinned/package-lock.json"; then
	rm -rf "$cache" && mkdir -p "$cache"
	cp "$pinned/package.json" "$pinned/package-lock.json" "$cache/"
	# --ignore-scripts: the scanner pulls in n8n-workflow, whose isolated-vm does not build on Node 20;
	# the ESLint rules do not need it.
	if ! (cd "$cache" && npm_config_yes=true npm ci --no-audit --no-fund --ignore-scripts \
		> install.log 2>&1); then
		echo "scan: installing @n8n/scan-community-package@$version failed:" >&2
		cat "$cache/install.log" >&2
		exit 1
	fi
	touch "$cache/.complete"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$repo" && npm pack --silent --pack-destination "$work" > /dev/null)
mkdir "$work/package"
tar -xzf "$work"/*.tgz -C "$work/package" --strip-components=1
cp "$repo/scripts/scan/run-scan.mjs" "$cache/run-scan.mjs"
node "$cache/run-scan.mjs" "$repo" "$work/package"
