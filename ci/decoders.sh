#!/usr/bin/env bash
# ci/decoders.sh: certifies every decoder hpackcert can reach on the dec/
# cases, in one matrix, and writes the published decoder matrix:
# docs/MATRIX-decoders.md (Markdown, with each library's package version,
# the date and the command; hpackcert matrix writes the page from what
# this script gathers) and docs/matrix-decoders.html.
#
# Decoders: the built-in ones (strict, x/net, libnghttp2, ref), the decoder
# programs of adapters/decoders.txt (PACKAGE|COMMAND per line, built by
# adapters/install.sh), and the servers and proxies of hpackcert live's
# catalogue that are installed (ci/live.sh --install-only), over h2c.
#
# Exit status: 0 when the matrix was written (it records failures, it does
# not gate on them: the decoders are other people's libraries and
# servers); 2 when hpackcert could not run them all. The lacks the
# adapters declare (never-indexed, max-header-list) are declared for the
# run below, so that they read "declared", never pass.
#
# Environment: DECODERS_OUT (default docs/) receives the two files;
# DECODERS_JSON names a file for the JSON report too.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
out=${DECODERS_OUT:-docs}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

./adapters/install.sh
./ci/live.sh --install-only

printf '\n== go build -tags nghttp2,nghttp3 ./cmd/hpackcert\n'
go build -tags nghttp2,nghttp3 -o "$tmp/hpackcert" ./cmd/hpackcert

args=(decoders --timeout 30s
	--declare-unsupported 'dec/7.1.3/1: the library does not tell a never-indexed literal from the others (a declared lack)'
	--declare-unsupported 'dec/7.3/1: the library takes no header-list limit (a declared lack)'
	--decoder builtin:strict --decoder builtin:xnet --decoder builtin:nghttp2 --decoder builtin:ref)
packages=()
while IFS='|' read -r pkg cmd; do
	case "$pkg" in '' | '#'*) continue ;; esac
	args+=(--exec "$cmd")
	packages+=("$pkg|$cmd")
done <adapters/decoders.txt
args+=(--live all)

printf '\n== hpackcert %s\n' "${args[*]:0:1}"
status=0
"$tmp/hpackcert" "${args[@]}" --md "$tmp/report.md" --html "$tmp/matrix.html" --json "$tmp/report.json" \
	>"$tmp/report.txt" 2>&1 || status=$?
head -8 "$tmp/report.txt"
if [ "$status" -gt 1 ]; then
	cat "$tmp/report.txt" >&2
	echo "ci/decoders.sh: hpackcert exited $status; the matrix is not written" >&2
	exit 2
fi

# The page (hpackcert matrix --page decoders) around the report: the
# programs with their packages' versions, the command and its exit status.
. ci/versions.sh
for p in "${packages[@]}"; do
	printf '%s\t%s\t%s\n' "${p#*|}" "${p%%|*}" "$(version "${p%%|*}")"
done >"$tmp/programs.tsv"
printf '%s\n' "${args[@]}" >"$tmp/args"
mkdir -p "$out"
"$tmp/hpackcert" matrix --page decoders --from-md "$tmp/report.md" \
	--args "$tmp/args" --programs "$tmp/programs.tsv" --status "$status" \
	--commit "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" --out "$out/MATRIX-decoders.md"
cp "$tmp/matrix.html" "$out/matrix-decoders.html"
if [ -n "${DECODERS_JSON:-}" ]; then
	cp "$tmp/report.json" "$DECODERS_JSON"
fi
echo "ci/decoders.sh: wrote $out/MATRIX-decoders.md and $out/matrix-decoders.html in $(($(date +%s) - start))s"
