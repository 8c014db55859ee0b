#!/usr/bin/env bash
# Installs what the adapters need and builds the ones that are compiled.
# Idempotent: apt-get and npm run only for what is missing, and a program is
# rebuilt only when its source is newer than its build.
#
#   adapters/install.sh
#
# Debian packages: the libraries (python3-hpack, libnetty-java,
# libjetty9-java, libokhttp-java, libhttpcore5-java, libtomcat9-java, libtomcat10-java,
# ruby-protocol-hpack, libprotocol-http2-perl, libnghttp2-dev, libnghttp3-dev), their
# runtimes and compilers (default-jdk-headless, ruby, erlang-base, nodejs,
# npm, gcc, pkg-config). cowlib's cow_hpack comes from rabbitmq-server's
# .deb, fetched with apt-get download and unpacked into adapters/.build
# (installing rabbitmq-server would start a broker). npm: the packages
# pinned in adapters/hpack-js and adapters/node-hpack (package-lock.json).
# Builds go to adapters/.build (ignored by git).
set -euo pipefail
cd "$(dirname "$0")"
build=.build
mkdir -p "$build"

packages=(python3-hpack libnetty-java libjetty9-java libokhttp-java libhttpcore5-java libtomcat9-java
	libtomcat10-java
	default-jdk-headless ruby ruby-protocol-hpack libprotocol-http2-perl erlang-base
	libnghttp2-dev libnghttp3-dev pkg-config gcc nodejs npm
	cargo rustc librust-h2-dev librust-serde-json-dev)
# Haskell's http2 (Network.HPACK) with ghc and aeson; lua-http with Lua 5.3 and cjson.
packages+=(ghc libghc-http2-dev libghc-aeson-dev lua5.3 lua-http lua-cjson)
# libh2o's encoder (with the OpenSSL headers h2o.h includes) and Ruby's http-2.
packages+=(libh2o-evloop-dev libssl-dev ruby-http-2)
missing=()
for p in "${packages[@]}"; do
	if [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" != installed ]; then
		missing+=("$p")
	fi
done
# node and npm may come from elsewhere than Debian; any will do.
if command -v node >/dev/null && command -v npm >/dev/null; then
	kept=()
	for p in "${missing[@]}"; do
		case $p in nodejs | npm) ;; *) kept+=("$p") ;; esac
	done
	missing=("${kept[@]+"${kept[@]}"}")
fi
if [ ${#missing[@]} -gt 0 ]; then
	../ci/apt-install.sh "${missing[@]}"
fi

# newer SRC... -- STAMP: true when STAMP is missing or older than a source.
stale() {
	local stamp=${!#} src
	[ -e "$stamp" ] || return 0
	for src in "${@:1:$#-1}"; do
		[ "$src" -nt "$stamp" ] && return 0
	done
	return 1
}

# cowlib 2.x (cow_hpack) from rabbitmq-server's package, unpacked only.
if ! ls "$build"/cowlib-*/ebin/cow_hpack.beam >/dev/null 2>&1; then
	printf '\n== cowlib: unpacking rabbitmq-server (cowlib 2.x inside)\n'
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	[ "$(id -u)" = 0 ] && [ -d /var/lib/apt/lists ] && ! ls /var/lib/apt/lists/*_Packages >/dev/null 2>&1 && apt-get update -qq
	(cd "$tmp" && apt-get download -qq rabbitmq-server 2>/dev/null)
	dpkg-deb --fsys-tarfile "$tmp"/rabbitmq-server_*.deb |
		tar -x -C "$tmp" --wildcards './usr/lib/rabbitmq/lib/rabbitmq_server-*/plugins/cowlib-*'
	cp -r "$tmp"/usr/lib/rabbitmq/lib/rabbitmq_server-*/plugins/cowlib-* "$build"/
	dpkg-deb -f "$tmp"/rabbitmq-server_*.deb Version >"$build"/rabbitmq-server.version
	rm -rf "$tmp"
	trap - EXIT
fi

# npm packages, pinned by each folder's package-lock.json.
for dir in hpack-js node-hpack; do
	if stale "$dir"/package-lock.json "$dir"/node_modules/.package-lock.json; then
		printf '\n== npm ci in adapters/%s\n' "$dir"
		(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
	fi
done

# The C program around libnghttp2's deflater.
if stale nghttp2-c/adapter.c c-common/hpackstdio-json.h "$build"/nghttp2-c/adapter; then
	printf '\n== gcc adapters/nghttp2-c\n'
	mkdir -p "$build"/nghttp2-c
	# shellcheck disable=SC2046 # pkg-config prints several words
	gcc -O2 -Wall -Wextra -Werror -std=c11 -D_POSIX_C_SOURCE=200809L -o "$build"/nghttp2-c/adapter nghttp2-c/adapter.c \
		$(pkg-config --cflags --libs libnghttp2)
fi
# Its decoder side, around libnghttp2's inflater.
if stale nghttp2-c/decoder.c c-common/hpackstdio-json.h "$build"/nghttp2-c/decoder; then
	printf '\n== gcc adapters/nghttp2-c decoder\n'
	mkdir -p "$build"/nghttp2-c
	# shellcheck disable=SC2046 # pkg-config prints several words
	gcc -O2 -Wall -Wextra -Werror -std=c11 -D_POSIX_C_SOURCE=200809L -o "$build"/nghttp2-c/decoder nghttp2-c/decoder.c \
		$(pkg-config --cflags --libs libnghttp2)
fi
# The QPACK program around libnghttp3's encoder and decoder, with the C
# half of hpackcert's own binding (internal/libnghttp3) compiled in.
n3=../internal/libnghttp3
if stale nghttp3-qpack/adapter.c c-common/hpackstdio-json.h "$n3"/*.c "$n3"/*.h "$build"/nghttp3-qpack/adapter; then
	printf '\n== gcc adapters/nghttp3-qpack\n'
	mkdir -p "$build"/nghttp3-qpack
	# shellcheck disable=SC2046 # pkg-config prints several words
	gcc -O2 -Wall -Wextra -Werror -std=c11 -D_POSIX_C_SOURCE=200809L -o "$build"/nghttp3-qpack/adapter nghttp3-qpack/adapter.c \
		"$n3"/mem.c "$n3"/encoder.c "$n3"/decoder.c "$n3"/codes.c $(pkg-config --cflags --libs libnghttp3)
fi

# The Java programs, against the Debian jars.
J=/usr/share/java
if stale java-common/hpackstdio/*.java "$build"/common/hpackstdio/Stdio.class; then
	printf '\n== javac adapters/java-common\n'
	rm -rf "$build"/common
	javac -Xlint:-deprecation -d "$build"/common java-common/hpackstdio/*.java
fi
javac_adapter() { # DIR CLASSPATH SOURCE [JAVAC-OPTION...]
	local dir=$1 cp=$2 src=$3
	shift 3
	if stale "$src" "$build"/common/hpackstdio/Stdio.class "$build/$dir/.built"; then
		printf '\n== javac adapters/%s\n' "$dir"
		rm -rf "${build:?}/$dir"
		javac -nowarn -Xlint:-deprecation "$@" -d "$build/$dir" -cp "$build/common:$cp" "$src"
		touch "$build/$dir/.built"
	fi
}
javac_adapter netty "$J/netty-codec-http2.jar:$J/netty-buffer.jar:$J/netty-common.jar:$J/netty-codec.jar:$J/netty-transport.jar:$J/netty-codec-http.jar:$J/netty-handler.jar" netty/NettyAdapter.java
javac_adapter jetty9 "$J/jetty9-http2-hpack.jar:$J/jetty9-http.jar:$J/jetty9-util.jar" jetty9/JettyAdapter.java
javac_adapter okhttp "$J/okhttp.jar:$J/okio.jar" okhttp/okhttp3/internal/http2/OkHttpAdapter.java
javac_adapter httpcore5 "$J/httpcore5.jar:$J/httpcore5-h2.jar" httpcore5/HttpCore5Adapter.java
javac_adapter tomcat9 "$J/tomcat9-coyote.jar:$J/tomcat9-util.jar:$J/tomcat9-juli.jar" tomcat9/org/apache/coyote/http2/TomcatAdapter.java
# OpenJDK's own encoder (module java.net.http, package not exported) and
# Tomcat 10.1's.
javac_adapter jdk-httpclient "" jdk-httpclient/JdkAdapter.java --add-exports java.net.http/jdk.internal.net.http.hpack=ALL-UNNAMED
javac_adapter tomcat10 "$J/tomcat10-coyote.jar:$J/tomcat10-util.jar:$J/tomcat10-juli.jar" tomcat10/org/apache/coyote/http2/Tomcat10Adapter.java

# The Java decoder programs (issue 25), each in its own build folder beside
# its encoder's.
javac_adapter netty-decoder "$J/netty-codec-http2.jar:$J/netty-buffer.jar:$J/netty-common.jar:$J/netty-codec.jar:$J/netty-transport.jar:$J/netty-codec-http.jar:$J/netty-handler.jar" netty/NettyDecoder.java
javac_adapter jetty9-decoder "$J/jetty9-http2-hpack.jar:$J/jetty9-http.jar:$J/jetty9-util.jar" jetty9/JettyDecoder.java
javac_adapter okhttp-decoder "$J/okhttp.jar:$J/okio.jar" okhttp/okhttp3/internal/http2/OkHttpDecoder.java
javac_adapter httpcore5-decoder "$J/httpcore5.jar:$J/httpcore5-h2.jar" httpcore5/HttpCore5Decoder.java
# One source for Tomcat 9's decoder and Tomcat 10.1's, compiled against each.
javac_adapter tomcat9-decoder "$J/tomcat9-coyote.jar:$J/tomcat9-util.jar:$J/tomcat9-juli.jar" tomcat9/org/apache/coyote/http2/TomcatDecoder.java
javac_adapter tomcat10-decoder "$J/tomcat10-coyote.jar:$J/tomcat10-util.jar:$J/tomcat10-juli.jar" tomcat9/org/apache/coyote/http2/TomcatDecoder.java
javac_adapter jdk-httpclient-decoder "" jdk-httpclient/JdkDecoder.java --add-exports java.net.http/jdk.internal.net.http.hpack=ALL-UNNAMED

# Rust crates' encoders, built offline from Debian's cargo registry
# (/usr/share/cargo/registry, the librust-*-dev packages) with Debian's
# cargo and rustc: the folder's sources are copied into adapters/.build/DIR,
# where cargo writes its Cargo.lock, and the program is
# adapters/.build/DIR/adapter. Rebuilt when a source changes or when the
# crate's package brings a new version (REGISTRY_GLOB).
cargo_adapter() { # DIR REGISTRY_GLOB
	local dir=$1 crate out=$build/$1
	# shellcheck disable=SC2206 # the glob is meant to expand
	crate=($2)
	if stale "$dir"/Cargo.toml "$dir"/build.rs "$dir"/src/*.rs "${crate[@]}" "$out/adapter"; then
		printf '\n== cargo build adapters/%s (offline, Debian registry)\n' "$dir"
		rm -rf "${out:?}"/src "$out"/adapter
		mkdir -p "$out"/src "$out"/cargo-home
		cp -r "$dir"/Cargo.toml "$dir"/build.rs "$dir"/src "$out"/src/
		printf '%s\n' '[source.crates-io]' 'replace-with = "debian"' '[source.debian]' \
			'directory = "/usr/share/cargo/registry"' '[net]' 'offline = true' >"$out"/cargo-home/config.toml
		CARGO_HOME=$PWD/$out/cargo-home RUSTC=/usr/bin/rustc /usr/bin/cargo build --release --quiet \
			--manifest-path "$out"/src/Cargo.toml --target-dir "$out"/target
		cp "$out"/target/release/adapter "$out"/adapter
	fi
}
cargo_adapter rust-h2 '/usr/share/cargo/registry/h2-*/Cargo.toml'

# The Haskell program around http2's Network.HPACK, rebuilt when its source
# changes or another http2 is installed (the program names its version;
# the package's files keep their build dates, so the id is compared).
http2_id=$(ghc-pkg field http2 id --simple-output)
if stale haskell-http2/Adapter.hs "$build"/haskell-http2/adapter ||
	[ "$(cat "$build"/haskell-http2/http2.id 2>/dev/null)" != "$http2_id" ]; then
	printf '\n== ghc adapters/haskell-http2\n'
	mkdir -p "$build"/haskell-http2
	ghc -O1 -Wall -Werror -DHTTP2_VERSION="\"$(ghc-pkg field http2 version --simple-output)\"" \
		-outputdir "$build"/haskell-http2/obj -o "$build"/haskell-http2/adapter haskell-http2/Adapter.hs
	echo "$http2_id" >"$build"/haskell-http2/http2.id
fi

# The C program around libh2o's HPACK encoder (h2o 2.2.5). Debian's
# libh2o-dev ships no khash.h, which h2o/http2_internal.h includes: the
# adapter's include/ has a stand-in; h2o.h needs OpenSSL's headers.
if stale h2o-c/adapter.c h2o-c/include/khash.h c-common/hpackstdio-json.h "$build"/h2o-c/adapter; then
	printf '\n== gcc adapters/h2o-c\n'
	mkdir -p "$build"/h2o-c
	# shellcheck disable=SC2046 # pkg-config prints several words
	gcc -O2 -Wall -Wextra -Werror -std=c11 -D_POSIX_C_SOURCE=200809L -DH2O_USE_LIBUV=0 -Ih2o-c/include \
		-o "$build"/h2o-c/adapter h2o-c/adapter.c $(pkg-config --cflags --libs libh2o-evloop)
fi
echo "adapters: installed and built"
