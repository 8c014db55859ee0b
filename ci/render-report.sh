#!/usr/bin/env bash
# Renders an HTML report of hpackcert in headless Chromium, as a user's
# browser shows it, and fails when the page would not show as written: it
# does not load, a resource it names does not load, the page logs an error
# to the console (a script error, console.error, a Content Security Policy
# violation, a network error), or what rendered is not a report (no
# "hpackcert" heading, no matrix with a row per case).
#
# It builds and runs internal/browser/renderreport, which drives Chromium
# with chromedp (package internal/browser, which tests use directly). When
# Chromium is missing, it is installed with ci/apt-install.sh chromium
# (Debian's package).
#
# Usage: ci/render-report.sh [--screenshot PNG] [--size WIDTHxHEIGHT] REPORT.html
#   --screenshot PNG   also write what the first screen shows, as a PNG
#   --size WxH         the window (default 1280x800)
#
# On success it prints one line: the verdict, the matrix rows and sections
# it found, and where the first failure's section starts on the screen.
#
# Environment:
#   CHROMIUM         the browser (default: chromium, else chromium-browser)
#   RENDER_TIMEOUT   seconds the rendering may take (default 30)
#
# Exit status: 0 rendered cleanly, 1 did not, 2 usage or no browser.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
	"$root/ci/apt-install.sh" chromium >&2 || exit 2
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
(cd "$root" && go build -o "$dir/renderreport" ./internal/browser/renderreport) || {
	echo "render-report.sh: building internal/browser/renderreport failed" >&2
	exit 2
}
status=0
"$dir/renderreport" "$@" || status=$?
exit $status
