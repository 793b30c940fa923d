# shellcheck shell=bash
# Sourced by the scripts that install tools from npm into a cache (scripts/n8n/install-n8n.sh,
# scripts/lint/install-node-cli.sh, scripts/scan/scan-package.sh). Each installs a committed
# package-lock.json with npm ci: installed from its ranges, a tree takes whatever the registry holds
# that day, and the reachable registry has held releases only in part (on 2026-11-26 the package
# scanner's install got ETARGET for @typescript-eslint/visitor-keys@8.74.0 and failed CI on a fresh
# clone).

# install_is_current DIR LOCK: DIR holds a finished install (DIR/.complete, written last) of exactly
# LOCK's tree. npm ci never writes the lock it installs, so a lock changed since is a redo; with no
# LOCK (a version installed from its ranges) a finished install is current.
install_is_current() {
	[[ -f "$1/.complete" ]] || return 1
	[[ ! -f "$2" ]] || cmp -s "$2" "$1/package-lock.json"
}
