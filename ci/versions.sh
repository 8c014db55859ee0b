# ci/versions.sh, sourced by ci/matrix.sh and ci/decoders.sh from the
# repository root: version PACKAGE prints the version of an adapter's
# package (a Debian package, an npm package of an adapter's lock file, the
# cowlib unpacked from rabbitmq-server's .deb, a crate of Debian's cargo
# registry).
version() { # PACKAGE -> its version, from dpkg or the adapter's npm lock
	case $1 in
	npm:*)
		local name=${1#npm:} dir
		case $name in hpack.js) dir=hpack-js ;; *) dir=node-hpack ;; esac
		node -e 'const l=require(process.argv[1]);console.log(l.packages["node_modules/"+process.argv[2]].version)' \
			"$PWD/adapters/$dir/package-lock.json" "$name"
		;;
	rabbitmq-server) # not installed: adapters/install.sh unpacks cowlib from its .deb
		printf '%s (%s, unpacked from the .deb)' "$(basename adapters/.build/cowlib-*)" "$(cat adapters/.build/rabbitmq-server.version)"
		;;
	librust-*) # a crate of Debian's cargo registry, built with Debian's rustc
		printf '%s (rustc %s)' "$(dpkg-query -W -f='${Version}' "$1")" "$(dpkg-query -W -f='${Version}' rustc)"
		;;
	*) dpkg-query -W -f='${Version}' "$1" ;;
	esac
}
