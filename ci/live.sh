#!/usr/bin/env bash
# Live certification: grades the HPACK encoders of HTTP/2 servers,
# proxies and clients over the wire with hpackcert live, and writes the
# live section of the matrix, docs/MATRIX-live.md.
#
# It installs the Debian packages of the targets that are missing
# (through ci/apt-install.sh; services are kept from starting while
# packages install), then certifies, each started by hpackcert on free
# loopback ports from its configuration in source/live/targets/conf and stopped
# at the end: nginx (h2c and TLS), h2o, HAProxy, nghttpx, Apache httpd
# with mod_http2 and Caddy as reverse proxies of hpackcert's origin (over
# HTTP/1.1, and over h2c for HAProxy and httpd), the clients curl and
# nghttp, the libwebsockets test server and OpenJDK's HttpClient (jdk-client,
# its app built by ci/live-apps.sh), and Go's server, reverse proxy and
# client in process. Known failures are listed in live/expect-fail.txt. The
# certification is bounded to 5 minutes once the packages are installed.
#
# Usage: ci/live.sh [--install-only | [--clients] [--out FILE]]
# --install-only builds hpackcert (for its catalogue), installs the
# packages and stops (for the tests of source/live and
# source/live/targets, which need them under CI=true); --out writes the section
# to FILE rather than docs/MATRIX-live.md. --clients certifies the client
# targets only (curl, nghttp, go-client, node-client, jdk-client,
# grpc-client), with the lines of live/expect-fail.txt that name them,
# and writes its section to FILE, by default
# ${TMPDIR:-/tmp}/MATRIX-live-clients.md, never to docs/MATRIX-live.md.
# LIVE_JSON, when set, names a file for the JSON report too (ci/golden.sh
# reads it).
# The targets and their Debian packages come from hpackcert's own
# catalogue (hpackcert targets); this script only adds the runs over TLS
# and, for each proxy the catalogue marks, with an h2c origin.
# Exit status: that of hpackcert live (0 nothing failed but the expected,
# 1 a case failed, 2 the run could not happen), or 2 for a bad option.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
	echo "usage: ci/live.sh [--install-only | [--clients] [--out FILE]]" >&2
	exit 2
}
install_only=false
clients=false
out=
while [ $# -gt 0 ]; do
	case "$1" in
	--install-only) install_only=true ;;
	--clients) clients=true ;;
	--out)
		[ $# -ge 2 ] || usage
		out=$2
		shift
		;;
	*) usage ;;
	esac
	shift
done
if $install_only && { $clients || [ -n "$out" ]; }; then
	usage
fi
if [ -z "$out" ]; then
	out=docs/MATRIX-live.md
	$clients && out=${TMPDIR:-/tmp}/MATRIX-live-clients.md
fi

# The catalogue comes from the binary (hpackcert targets: a header line,
# then one target a line: name, role, Debian package, program, h2c-origin,
# decoder; "-" for none), so hpackcert is built first, even for
# --install-only.
bin=$(mktemp -d "${TMPDIR:-/tmp}/hpackcert-live.XXXXXX")
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/hpackcert" ./cmd/hpackcert
"$bin/hpackcert" targets | tail -n +2 >"$bin/catalogue.tsv"

# installed PACKAGE PROGRAM: whether the program is on PATH, or, for a
# package that holds no program hpackcert runs (a Python module, a
# library an app links), whether dpkg has the package.
installed() {
	if [ "$2" != - ]; then
		command -v "$2" >/dev/null 2>&1
	else
		[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]
	fi
}
# What the targets' apps need beyond the catalogue's packages, PACKAGE
# PROGRAM in pairs: npm (Bun's install), lighttpd's TLS module, the JDK's
# compiler (ci/live-apps.sh builds the JDK client).
needs=(npm npm lighttpd-mod-openssl - openjdk-17-jdk-headless javac)
while IFS=$'\t' read -r _ _ pkg program _; do
	# A package that is no Debian package name (Bun comes from npm,
	# through its own install.sh below) is not apt's to install.
	if [[ $pkg =~ ^[a-z0-9][a-z0-9+.-]+$ ]]; then
		needs+=("$pkg" "$program")
	fi
done <"$bin/catalogue.tsv"
missing=()
declare -A listed=()
for ((i = 0; i < ${#needs[@]}; i += 2)); do
	pkg=${needs[i]}
	if [ -z "${listed[$pkg]:-}" ] && ! installed "$pkg" "${needs[i + 1]}"; then
		missing+=("$pkg")
		listed[$pkg]=1
	fi
done
if [ ${#missing[@]} -gt 0 ]; then
	# A package's maintainer script would start its service on port 80
	# and more; policy-rc.d (101: action forbidden) keeps them stopped.
	policy=/usr/sbin/policy-rc.d
	made_policy=false
	if [ "$(id -u)" = 0 ] && [ ! -e "$policy" ]; then
		printf '#!/bin/sh\nexit 101\n' >"$policy"
		chmod 755 "$policy"
		made_policy=true
	fi
	status=0
	ci/apt-install.sh "${missing[@]}" || status=$?
	if $made_policy; then
		rm -f "$policy"
	fi
	[ $status -eq 0 ] || exit $status
fi
# The apps of the targets that need one (Jetty, Tomcat, warp, the JDK
# client), and their packages.
ci/live-apps.sh
# Bun from npm, at the version its package-lock.json pins (bun-node-http2,
# bun-serve).
source/live/targets/apps/bun/install.sh
$install_only && exit 0

# The targets: every one of the catalogue (clients only with --clients)
# but hpackcert's own server, a check of hpackcert rather than of a
# library; and, after its plain run, each proxy that can reach the origin
# over h2c once more so, and nginx and lighttpd once more over TLS.
variants=(nginx:tls lighttpd:tls)
names=()
declare -A chosen=()
choose() {
	if [ -z "${chosen[$1]:-}" ]; then
		names+=("$1")
		chosen[$1]=1
	fi
}
while IFS=$'\t' read -r name role _ _ h2c _; do
	if [ "$name" = ref-server ] || { $clients && [ "$role" != client ]; }; then
		continue
	fi
	choose "$name"
	if ! $clients && [ "$h2c" = yes ]; then
		choose "$name:h2c-origin"
	fi
	if ! $clients; then
		for v in "${variants[@]}"; do
			if [ "${v%%:*}" = "$name" ]; then
				choose "$v"
			fi
		done
	fi
done <"$bin/catalogue.tsv"
[ ${#names[@]} -gt 0 ] || {
	echo "ci/live.sh: hpackcert targets named no target" >&2
	exit 2
}
expect=live/expect-fail.txt
if $clients; then
	# The known failures and declared lacks of the clients: "NAME CASE"
	# and "unsupported CASES for NAME: REASON" lines.
	expect=$bin/expect-fail-clients.txt
	pattern=$(
		IFS='|'
		echo "${names[*]}"
	)
	grep -E "^($pattern) |^unsupported [^ ]+ for ($pattern):" live/expect-fail.txt >"$expect" || true
fi
args=()
for n in "${names[@]}"; do
	args+=(--target "$n")
done

printf '\n== hpackcert live\n'
start=$(date +%s)
status=0
timeout --kill-after=10s 300s "$bin/hpackcert" live "${args[@]}" \
	--expect-fail "$expect" --md "$out" ${LIVE_JSON:+--json "$LIVE_JSON"} || status=$?
echo "ci/live.sh: hpackcert live took $(($(date +%s) - start))s, exit status $status"
exit $status
