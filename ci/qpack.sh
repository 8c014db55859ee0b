#!/usr/bin/env bash
# ci/qpack.sh: certifies every QPACK (RFC 9204) encoder and decoder
# hpackcert can reach, and writes the published QPACK matrix,
# docs/MATRIX-qpack.md: the encoder page (hpackcert qpack) and the decoder
# page (hpackcert qpack-decoders), each with the programs' packages and
# versions, the date and the command (hpackcert matrix writes the pages
# from what this script gathers).
#
# Encoders: the built-in ones (ref, quic-go/qpack, libnghttp3), the QPACK
# encoder programs of adapters/qpack-encoders.txt (PACKAGE|COMMAND per
# line, built by adapters/install.sh), the six recordings of
# ../shared/qifs/encoded/qpack-05, and the live HTTP/3 peers installed
# (quic-go's server and client, Caddy). Decoders: the built-in ones
# (strict, libnghttp3, quic-go/qpack) and adapters/qpack-decoders.txt.
#
# Exit status: 0 when the matrix was written (it records failures, it does
# not gate on them: the encoders are other people's libraries); 2 when
# hpackcert could not run them all.
#
# Environment: QPACK_OUT (default docs/) receives the page; QPACK_QIFS
# (default ../shared/qifs) is the qifs data.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
out=${QPACK_OUT:-docs}
qifs=${QPACK_QIFS:-../shared/qifs}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

./adapters/install.sh

printf '\n== go build -tags nghttp2,nghttp3 ./cmd/hpackcert\n'
go build -tags nghttp2,nghttp3 -o "$tmp/hpackcert" ./cmd/hpackcert

. ci/versions.sh
modversion() { go list -m -f '{{.Version}}' "$1"; }
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)

# run SIDE ARGS...: one run, its page written to $tmp/SIDE.md.
run() {
	local side=$1
	shift
	local status=0
	printf '\n== hpackcert %s\n' "$1"
	"$tmp/hpackcert" "$@" --md "$tmp/$side.report.md" --json "$tmp/$side.json" >"$tmp/$side.txt" 2>&1 || status=$?
	head -8 "$tmp/$side.txt"
	if [ "$status" -gt 1 ]; then
		cat "$tmp/$side.txt" >&2
		echo "ci/qpack.sh: hpackcert $1 exited $status; the matrix is not written" >&2
		exit 2
	fi
	printf '%s\n' "$@" >"$tmp/$side.args"
	"$tmp/hpackcert" matrix --page "$side" --from-md "$tmp/$side.report.md" \
		--args "$tmp/$side.args" --programs "$tmp/$side.tsv" --status "$status" \
		--commit "$commit" --out "$tmp/$side.md"
}

# The encoders.
enc=(qpack --encoder builtin:ref --encoder builtin:quicgo --encoder builtin:nghttp3)
{
	printf 'builtin:ref\thpackcert (package qencoder)\t%s\n' "$commit"
	printf 'builtin:quicgo\tgithub.com/quic-go/qpack\t%s\n' "$(modversion github.com/quic-go/qpack)"
	printf 'builtin:nghttp3\tlibnghttp3-dev\t%s\n' "$(version libnghttp3-dev)"
} >"$tmp/qpack-encoders.tsv"
if [ -f adapters/qpack-encoders.txt ]; then
	while IFS='|' read -r pkg cmd; do
		case "$pkg" in '' | '#'*) continue ;; esac
		enc+=(--exec "$cmd")
		printf '%s\t%s\t%s\n' "$cmd" "$pkg" "$(version "$pkg")" >>"$tmp/qpack-encoders.tsv"
	done <adapters/qpack-encoders.txt
fi
enc+=(--recorded "$qifs/encoded/qpack-05")
for impl in "$qifs"/encoded/qpack-05/*/; do
	printf '%s\tqpackers/qifs encoded/qpack-05 (draft-05 era)\tda52cd9\n' "$(basename "$impl")" >>"$tmp/qpack-encoders.tsv"
done
enc+=(--live all)
printf 'quicgo-h3-server, quicgo-h3-client\tgithub.com/quic-go/quic-go\t%s\n' "$(modversion github.com/quic-go/quic-go)" >>"$tmp/qpack-encoders.tsv"
if command -v caddy >/dev/null; then
	printf 'caddy-h3\tcaddy\t%s\n' "$(version caddy)" >>"$tmp/qpack-encoders.tsv"
fi
run qpack-encoders "${enc[@]}"

# The decoders.
dec=(qpack-decoders --decoder builtin:strict --decoder builtin:nghttp3 --decoder builtin:quicgo
	--declare-unsupported 'qdec/ for quic-go/qpack: static table only, no dynamic table and no never-indexed flag in its API (quic-go/qpack issue 33; a declared lack)')
{
	printf 'builtin:strict\thpackcert (oracle/qstrict)\t%s\n' "$commit"
	printf 'builtin:nghttp3\tlibnghttp3-dev\t%s\n' "$(version libnghttp3-dev)"
	printf 'builtin:quicgo\tgithub.com/quic-go/qpack\t%s\n' "$(modversion github.com/quic-go/qpack)"
} >"$tmp/qpack-decoders.tsv"
if [ -f adapters/qpack-decoders.txt ]; then
	while IFS='|' read -r pkg cmd; do
		case "$pkg" in '' | '#'*) continue ;; esac
		dec+=(--exec "$cmd")
		printf '%s\t%s\t%s\n' "$cmd" "$pkg" "$(version "$pkg")" >>"$tmp/qpack-decoders.tsv"
	done <adapters/qpack-decoders.txt
fi
run qpack-decoders "${dec[@]}"

mkdir -p "$out"
cat "$tmp/qpack-encoders.md" "$tmp/qpack-decoders.md" >"$out/MATRIX-qpack.md"
echo "ci/qpack.sh: wrote $out/MATRIX-qpack.md in $(($(date +%s) - start))s"
