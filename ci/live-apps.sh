#!/usr/bin/env bash
# Builds the apps of the live targets jetty9-server, tomcat10-server,
# warp-server and jdk-client (source/live/targets/apps-java and
# apps-haskell) into the directory hpackcert live looks in:
# $HPACKCERT_LIVE_APPS, else hpackcert/live-apps in the user's cache
# directory ($XDG_CACHE_HOME, else ~/.cache). It installs the Debian
# packages they need, and libwebsockets-test-server for lws-server, when
# missing (through ci/apt-install.sh), and rebuilds
# an app only when its sources, its class path or its compiler changed
# (a stamp of their SHA-256 beside it). ci/live.sh runs it.
#
# Usage: ci/live-apps.sh
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(openjdk-17-jdk-headless libjetty9-java libtomcat10-embed-java libtomcat10-java ghc libghc-warp-dev libghc-warp-tls-dev libwebsockets-test-server)
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	ci/apt-install.sh "${missing[@]}"
fi

apps=${HPACKCERT_LIVE_APPS:-${XDG_CACHE_HOME:-$HOME/.cache}/hpackcert/live-apps}
mkdir -p "$apps"
java_src=source/live/targets/apps-java/hpackcertlive
haskell_src=source/live/targets/apps-haskell

# jars NAME... prints the class path of /usr/share/java/NAME.jar, each of
# which must exist.
jars() {
	local out=() j
	for j in "$@"; do
		[ -f "/usr/share/java/$j.jar" ] || {
			echo "ci/live-apps.sh: /usr/share/java/$j.jar is missing" >&2
			exit 2
		}
		out+=("/usr/share/java/$j.jar")
	done
	(
		IFS=:
		echo "${out[*]}"
	)
}

# stale APP STAMP says whether APP must be built: its stamp differs.
stale() {
	[ "$(cat "$apps/$1/stamp" 2>/dev/null)" != "$2" ]
}

# build_java APP CLASSPATH SOURCE... compiles the sources against the
# class path into APP/classes.
build_java() {
	local app=$1 cp=$2
	shift 2
	local stamp
	stamp=$( (
		cat "$@"
		echo "$cp"
		javac -version 2>&1
	) | sha256sum | cut -d' ' -f1)
	stale "$app" "$stamp" || return 0
	local start tmp
	start=$(date +%s)
	tmp=$(mktemp -d "$apps/.$app.XXXXXX")
	javac -d "$tmp/classes" -cp "$cp" "$@" || {
		rm -rf "$tmp"
		exit 2
	}
	echo "$cp" >"$tmp/classpath"
	echo "$stamp" >"$tmp/stamp"
	rm -rf "$apps/$app"
	mv "$tmp" "$apps/$app"
	echo "ci/live-apps.sh: built $app in $(($(date +%s) - start))s"
}

common=("$java_src/Origin.java" "$java_src/Tls.java" "$java_src/Args.java")
jetty_cp=$(jars jetty9-server jetty9-http jetty9-util jetty9-io jetty9-http2-server jetty9-http2-common jetty9-http2-hpack jetty9-alpn-server jetty9-alpn-java-server servlet-api)
tomcat_cp=$(jars tomcat10-embed-core tomcat10-annotations-api)
build_java jetty9 "$jetty_cp" "${common[@]}" "$java_src/JettyServer.java"
build_java tomcat10 "$tomcat_cp" "${common[@]}" "$java_src/TomcatServer.java"
build_java jdk-client "" "$java_src/JdkClient.java"

# The warp app, compiled with ghc against Debian's Haskell packages.
stamp=$( (
	cat "$haskell_src"/*.hs
	ghc --version
	for p in warp warp-tls http2 network; do ghc-pkg list --simple-output "$p"; done
) | sha256sum | cut -d' ' -f1)
if stale warp "$stamp"; then
	start=$(date +%s)
	tmp=$(mktemp -d "$apps/.warp.XXXXXX")
	ghc -O1 -threaded -outputdir "$tmp/obj" -o "$tmp/hpackcert-warp" "$haskell_src/Main.hs" >"$tmp/ghc.log" 2>&1 || {
		cat "$tmp/ghc.log" >&2
		rm -rf "$tmp"
		exit 2
	}
	rm -rf "$tmp/obj"
	echo "$stamp" >"$tmp/stamp"
	rm -rf "$apps/warp"
	mv "$tmp" "$apps/warp"
	echo "ci/live-apps.sh: built warp in $(($(date +%s) - start))s"
fi
