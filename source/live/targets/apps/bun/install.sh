#!/usr/bin/env bash
# Installs Bun from npm for hpackcert live (targets bun-node-http2 and
# bun-serve), at the version package-lock.json pins, into node_modules
# beside this script. Idempotent: it does nothing when the binary is there
# and was installed from the same package-lock.json.
#
# The npm package bun ships its binary in an optional dependency per
# platform (@oven/bun-linux-x64 here); its postinstall script only links
# it, so scripts are not run and hpackcert runs the binary where npm put
# it (node_modules/.bin/bun is not used).
set -euo pipefail
cd "$(dirname "$0")"
stamp=node_modules/.hpackcert-lock
lock=$(sha256sum package-lock.json | cut -d' ' -f1)
bin=node_modules/@oven/bun-linux-x64/bin/bun
if [ -x "$bin" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$lock" ]; then
	exit 0
fi
command -v npm >/dev/null 2>&1 || {
	echo "apps/bun/install.sh: npm is missing (Debian package npm, or Node's)" >&2
	exit 2
}
printf '\n== installing bun from npm (%s)\n' "$(grep -m1 '"bun":' package.json | tr -d ' ,')"
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
[ -x "$bin" ] || {
	echo "apps/bun/install.sh: npm ci left no $bin (not linux x64?)" >&2
	exit 1
}
echo "$lock" >"$stamp"
"$bin" --version
