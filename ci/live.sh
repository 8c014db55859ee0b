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
# --install-only installs the packages and stops (for the tests of
# source/live and source/live/targets, which need them under CI=true); --out writes the section
# to FILE rather than docs/MATRIX-live.md. --clients certifies the client
# targets only (curl, nghttp, go-client, node-client, jdk-client,
# grpc-client), with the lines of live/expect-fail.txt that name them,
# and writes its section to FILE, by default
# ${TMPDIR:-/tmp}/MATRIX-live-clients.md, never to docs/MATRIX-live.md.
# LIVE_JSON, when set, names a file for the JSON report too (ci/golden.sh
# reads it).
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

# Debian package and the program hpackcert runs from it, in pairs.
targets=(
	nginx-light nginx
	h2o h2o
	haproxy haproxy
	nghttp2-proxy nghttpx
	apache2 apache2
	caddy caddy
	curl curl
	nghttp2-client nghttp
	lighttpd lighttpd
	lighttpd-mod-openssl lighttpd
	varnish varnishd
	trafficserver traffic_server
	libwebsockets-test-server libwebsockets-test-server
	openjdk-17-jdk-headless javac
	nodejs node
	npm npm
	python3-hypercorn hypercorn
)
missing=()
for ((i = 0; i < ${#targets[@]}; i += 2)); do
	command -v "${targets[i + 1]}" >/dev/null 2>&1 || missing+=("${targets[i]}")
done
# gRPC C-core for Debian's Python (grpc-server, grpc-client): a module,
# no program.
/usr/bin/python3 -c 'import grpc' >/dev/null 2>&1 || missing+=(python3-grpcio)
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

bin=$(mktemp -d "${TMPDIR:-/tmp}/hpackcert-live.XXXXXX")
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/hpackcert" ./cmd/hpackcert

names=(
	nginx nginx:tls h2o haproxy nghttpx
	haproxy:h2c-origin apache2 apache2:h2c-origin caddy
	nghttpx:h2c-origin caddy:h2c-origin go-proxy:h2c-origin
	curl nghttp
	go-server go-proxy go-client
	lighttpd lighttpd:tls varnish trafficserver
	lws-server jdk-client jetty9-server tomcat10-server warp-server
	node-server node-proxy node-client bun-node-http2 bun-serve
	hypercorn grpc-server grpc-client
)
expect=live/expect-fail.txt
if $clients; then
	names=(curl nghttp go-client node-client jdk-client grpc-client)
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
