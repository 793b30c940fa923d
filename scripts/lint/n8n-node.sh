#!/usr/bin/env bash
# n8n's own checks on exactly what ships: `n8n-node lint` (strict mode, n8n's default
# eslint.config.mjs, no rule turned off) and `n8n-node cloud-support`, run on a copy of package.json,
# eslint.config.mjs, nodes/ and credentials/. The cli lints every file under its folder, and the
# project's test/, bench/ and scripts/ are dev tooling that its default config rejects (console,
# process, file access): they are checked by the project's own eslint instead (npm run lint:project).
# Usage: scripts/lint/n8n-node.sh [lint|cloud-support]...   (default: both)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
eval "$(bash "$repo/scripts/lint/install-node-cli.sh")"

# The copy sits inside the cli's cache folder: eslint, the community-node rules and the packages the
# node imports (n8n-workflow, zod) resolve from there, and `npm exec eslint` finds its binary.
work="$(mktemp -d "$NODE_CLI_DIR/shipped.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cp -R "$repo/package.json" "$repo/eslint.config.mjs" "$repo/nodes" "$repo/credentials" "$work/"
ln -s "$NODE_CLI_DIR/node_modules" "$work/node_modules"

export PATH="$(dirname "$NODE24"):$PATH" npm_config_yes=true npm_config_update_notifier=false
export CI=true FORCE_COLOR=0 NO_COLOR=1
cli="$NODE_CLI_DIR/node_modules/.bin/n8n-node"
run() {
	echo "::: n8n-node $1 (@n8n/node-cli $(basename "$NODE_CLI_DIR"), Node $("$NODE24" -v))"
	(cd "$work" && "$cli" "$1" 2>&1)
}
status=0
commands=("$@")
[[ ${#commands[@]} -gt 0 ]] || commands=(lint cloud-support)
for command in "${commands[@]}"; do
	case "$command" in
	lint) run lint || status=1 ;;
	cloud-support)
		# It only prints its verdict (exit 0 either way): a package that is not eligible fails here.
		output="$(run cloud-support)" || status=1
		echo "$output"
		if ! grep -q 'Status: eligible' <<<"$output"; then
			echo "n8n-node cloud-support: NOT eligible for n8n Cloud verification" >&2
			status=1
		fi
		;;
	*) echo "n8n-node.sh: unknown command $command" >&2 && exit 2 ;;
	esac
done
exit $status
