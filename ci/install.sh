#!/usr/bin/env bash
# Installs what the test suite needs when it is missing: libnghttp2-dev,
# libnghttp3-dev and pkg-config (the nghttp2 and nghttp3 tags), Chromium (the HTML report's browser
# check), python3-hpack (the docs' decoder example), and the HTTP/2
# servers, proxies and clients hpackcert live certifies (ci/live.sh
# --install-only). ci/test.sh and ci/flaky.sh run it first: under CI=true
# a test missing any of these fails instead of skipping.
set -euo pipefail
cd "$(dirname "$0")/.."

need_pkgs=()
command -v pkg-config >/dev/null 2>&1 || need_pkgs+=(pkg-config)
if ! pkg-config --exists libnghttp2 2>/dev/null; then need_pkgs+=(libnghttp2-dev); fi
if ! pkg-config --exists libnghttp3 2>/dev/null; then need_pkgs+=(libnghttp3-dev); fi
command -v chromium >/dev/null 2>&1 || need_pkgs+=(chromium)
/usr/bin/python3 -c 'import hpack' 2>/dev/null || need_pkgs+=(python3-hpack)
if [ ${#need_pkgs[@]} -gt 0 ]; then
	./ci/apt-install.sh "${need_pkgs[@]}"
fi

./ci/live.sh --install-only
