#!/usr/bin/env bash
# Certifies the real HPACK encoders of adapters/ and the built-in ones in one
# run, and writes the published matrix: docs/MATRIX.md (Markdown, with the
# version of every library, the date and the command; hpackcert matrix
# writes the page from what this script gathers) and docs/matrix.html.
#
#   ci/matrix.sh            # from anywhere; installs what is missing first
#
# Exit status: 0 when the matrix was written (whatever the grades: the
# matrix records failures, it does not gate on them); 2 when hpackcert could
# not run, in particular when an adapter no longer starts or answers hello,
# or when adapters/declared.txt names an encoder the run does not have (a
# library's new version renames its adapter's encoder).
#
# What each library lacks is declared in adapters/declared.txt, passed with
# --expect-fail: a MUST case left unsupported fails a run unless declared,
# so a case a library newly leaves ungraded shows in hpackcert's verdict
# ("N MUST cases not graded for E: ...") until it gets its line there.
# Environment: MATRIX_OUT (default docs/) receives MATRIX.md and matrix.html;
# MATRIX_JSON names a file for the JSON report too.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${MATRIX_OUT:-docs}
start=$(date +%s)

./adapters/install.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '\n== go build -tags nghttp2,nghttp3 ./cmd/hpackcert\n'
go build -tags nghttp2,nghttp3 -o "$tmp/hpackcert" ./cmd/hpackcert

# One --exec per adapter: library (Debian or npm package) and command.
adapters=(
	"libnghttp2-14|adapters/nghttp2-c/run"
	"python3-hpack|/usr/bin/python3 adapters/python-hpack/adapter.py"
	"libnetty-java|adapters/netty/run"
	"libjetty9-java|adapters/jetty9/run"
	"libokhttp-java|adapters/okhttp/run"
	"libhttpcore5-java|adapters/httpcore5/run"
	"libtomcat9-java|adapters/tomcat9/run"
	"ruby-protocol-hpack|ruby adapters/ruby-protocol-hpack/adapter.rb"
	"libprotocol-http2-perl|perl adapters/perl-protocol-http2/adapter.pl"
	"npm:hpack.js|node adapters/hpack-js/adapter.js"
	"npm:hpack|node adapters/node-hpack/adapter.js"
	"rabbitmq-server|adapters/erlang-cowlib/run"
	"openjdk-17-jre-headless|adapters/jdk-httpclient/run"
	"libtomcat10-java|adapters/tomcat10/run"
	"librust-h2-dev|adapters/rust-h2/run"
	"libghc-http2-dev|adapters/haskell-http2/run naive"
	"libghc-http2-dev|adapters/haskell-http2/run naive-huffman"
	"libghc-http2-dev|adapters/haskell-http2/run static"
	"libghc-http2-dev|adapters/haskell-http2/run static-huffman"
	"libghc-http2-dev|adapters/haskell-http2/run linear"
	"libghc-http2-dev|adapters/haskell-http2/run linear-huffman"
	"lua-http|lua5.3 adapters/lua-http/adapter.lua"
	"libh2o-evloop0.13|adapters/h2o-c/run"
	"ruby-http-2|ruby adapters/ruby-http-2/adapter.rb"
)
# --timeout: a JVM answers hello in 0.3 s on an idle machine, but in
# several seconds on a loaded one; 30 s keeps the matrix from failing on load.
# --jobs: two adapters at once, one a core (the report is the same).
args=(--timeout 30s --jobs 2 --expect-fail adapters/declared.txt --encoder builtin:ref --encoder builtin:xnet --encoder builtin:nghttp2)
for a in "${adapters[@]}"; do
	args+=(--exec "${a#*|}")
done

# version PACKAGE prints the version of an adapter's package.
. ci/versions.sh

printf '\n== hpackcert (%d encoders)\n' $((${#adapters[@]} + 3))
status=0
"$tmp/hpackcert" run "${args[@]}" --md "$tmp/report.md" --html "$tmp/matrix.html" --json "$tmp/report.json" \
	>"$tmp/report.txt" 2>"$tmp/stderr.txt" || status=$?
cat "$tmp/stderr.txt" >&2
if [ "$status" -ge 2 ]; then
	echo "ci/matrix.sh: hpackcert exited $status (an adapter did not start, or adapters/declared.txt names an encoder the run does not have?); the matrix is not written" >&2
	exit 2
fi

# The page (hpackcert matrix --page encoders) around the report: the
# programs with their packages' versions, the command and its exit status.
{
	for a in "${adapters[@]}"; do
		printf '%s\t%s\t%s\n' "${a#*|}" "${a%%|*}" "$(version "${a%%|*}")"
	done
	printf 'built-in\tgolang.org/x/net\t%s\n' "$(go list -m -f '{{.Version}}' golang.org/x/net)"
	printf 'built-in\tlibnghttp2 (cgo)\t%s\n' "$(dpkg-query -W -f='${Version}' libnghttp2-14)"
	printf 'runtimes\t\tpython3 %s, %s, ruby %s, perl %s, node %s, erlang OTP %s, gcc %s\n' \
		"$(/usr/bin/python3 -c 'import platform;print(platform.python_version())')" \
		"$(java -version 2>&1 | head -n 1 | tr -d '"')" \
		"$(ruby -e 'print RUBY_VERSION')" "$(perl -e 'print substr($^V,1)')" "$(node --version)" \
		"$(erl -noshell -eval 'io:put_chars(erlang:system_info(otp_release)), halt().')" "$(gcc -dumpversion)"
} >"$tmp/programs.tsv"
printf '%s\n' run "${args[@]}" >"$tmp/args"
mkdir -p "$out"
"$tmp/hpackcert" matrix --page encoders --from-md "$tmp/report.md" --from-json "$tmp/report.json" \
	--args "$tmp/args" --programs "$tmp/programs.tsv" --status "$status" \
	--commit "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" --out "$out/MATRIX.md"
cp "$tmp/matrix.html" "$out/matrix.html"
if [ -n "${MATRIX_JSON:-}" ]; then
	cp "$tmp/report.json" "$MATRIX_JSON"
fi
head -n 1 "$tmp/report.txt"
echo "ci/matrix.sh: wrote $out/MATRIX.md and $out/matrix.html in $(($(date +%s) - start))s"
