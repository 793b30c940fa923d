#!/usr/bin/env bash
# Installs one n8n version into a cache folder outside git and writes env.sh/env.json there naming
# the n8n binary and the node binary to run it with. Reuses a finished install.
# Usage: scripts/n8n/install-n8n.sh VERSION      (VERSION: exact, e.g. 2.8.4)
set -euo pipefail

version="${1:?usage: install-n8n.sh VERSION}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cache="${N8N_CACHE_DIR:-$repo/.cache/n8n}"
dir="$cache/$version"
mkdir -p "$cache"
# shellcheck source=node-runtime.sh
source "$here/node-runtime.sh"
# shellcheck source=../locked-install.sh
source "$repo/scripts/locked-install.sh"

# The machine-wide npmrc sets yes=false (breaks npx in install scripts) and a nodedir for Node 20;
# every npm call here says what it needs instead of inheriting that.
export npm_config_yes=true npm_config_fund=false npm_config_audit=false
export npm_config_update_notifier=false npm_config_loglevel=error

# Which Node: versions.json says so for pinned versions (1.123.x needs 22: its isolated-vm 6 does
# not build on 20); otherwise n8n 2.10+ gets 24 and older ones the system Node.
read -r node_major < <(node -e '
	const m = require(process.argv[1]);
	const v = process.argv[2];
	const entry = m.versions.find((e) => e.n8n === v);
	const [maj, min] = v.split(".").map(Number);
	const major = process.env.N8N_NODE_MAJOR || (entry ? entry.node : maj > 2 || (maj === 2 && min >= 10) ? 24 : 20);
	console.log(major);
' "$here/versions.json" "$version")

# Two installs into one folder at once (a test run and a demo) would corrupt it: serialise.
exec 9>"$cache/.$version.lock"
flock 9

system_major="$(node -p 'process.versions.node.split(".")[0]')"
if [[ "$node_major" == "$system_major" ]]; then
	node_bin="$(command -v node)"
	export npm_config_nodedir="$(dirname "$(dirname "$node_bin")")"
else
	ensure_node_package "$node_major" "$cache"
	node_pkg="$NODE_PKG"
	node_bin="$node_pkg/bin/node"
	# That Node first on PATH so npm and install scripts run under it; its bundled headers let
	# node-gyp build native modules (sqlite3, isolated-vm) without downloading anything.
	export PATH="$node_pkg/bin:$PATH" npm_config_nodedir="$node_pkg"
fi

# A matrix version installs its committed tree (locks/VERSION/package-lock.json) with npm ci.
lock="$here/locks/$version/package-lock.json"
if ! install_is_current "$dir" "$lock"; then
	echo "install-n8n: installing n8n@$version with Node $("$node_bin" -v) into $dir" >&2
	started=$SECONDS
	rm -rf "$dir" && mkdir -p "$dir"
	# overrides: xlsx (n8n-nodes-base pins a tarball on a host that cannot be reached) and, per
	# version, dependencies whose pinned release the reachable registry lacks. denyScripts: native
	# builds that need downloads from elsewhere (npm 11 skips scripts denied in allowScripts).
	node -e '
		const m = require(process.argv[1]);
		const v = process.argv[2];
		const entry = m.versions.find((e) => e.n8n === v) || {};
		const pkg = { private: true, dependencies: { n8n: v }, overrides: { ...m.overrides, ...entry.overrides } };
		const denied = entry.denyScripts || [];
		if (denied.length) pkg.allowScripts = Object.fromEntries(denied.map((name) => [name, false]));
		require("fs").writeFileSync(process.argv[3], JSON.stringify(pkg, null, "\t") + "\n");
	' "$here/versions.json" "$version" "$dir/package.json"
	# Logs kept next to the install: npm rotates its shared log folder after 10 runs.
	if [[ -f "$lock" ]]; then
		cp "$lock" "$dir/package-lock.json"
		(cd "$dir" && npm ci --logs-dir="$dir/.npm-logs" >&2)
	else
		(cd "$dir" && npm install --logs-dir="$dir/.npm-logs" >&2)
	fi
	"$node_bin" "$dir/node_modules/n8n/bin/n8n" --version >/dev/null
	cat >"$dir/env.sh" <<SH
export N8N_VERSION='$version'
export N8N_BIN='$dir/node_modules/n8n/bin/n8n'
export N8N_NODE='$node_bin'
SH
	cat >"$dir/env.json" <<JSON
{ "version": "$version", "n8nBin": "$dir/node_modules/n8n/bin/n8n", "nodeBin": "$node_bin" }
JSON
	echo "install-n8n: n8n@$version installed in $((SECONDS - started)) s" >&2
	# Written last: a folder without it is an interrupted install and is redone next time.
	date -u +%FT%TZ >"$dir/.complete"
fi

cat "$dir/env.sh"
