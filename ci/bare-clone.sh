#!/usr/bin/env bash
# Runs go test -short ./... in a copy of the repository's tracked files
# placed where no ../shared sits beside it, as a user's fresh clone would
# be: everything must pass, and a test may skip only for missing external
# data, through internal/testenv.Missing, or as a long battery under
# -short (ci/test.sh's go test step has run those in full). The skips are
# listed.
#
# CI=true and HPACKCERT_REQUIRE_NGHTTP2 are unset for this run (they turn
# those skips into failures); GOFLAGS, and so the build tags, are kept.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d "${TMPDIR:-/tmp}/hpackcert-bare.XXXXXX")
trap 'rm -rf "$work"' EXIT
clone="$work/hpackcert"
mkdir "$clone"
git ls-files -z | xargs -0 cp --parents -t "$clone"
if [ -e "$work/shared" ]; then
	echo "bare-clone: $work/shared exists; the copy is not bare" >&2
	exit 1
fi

log="$work/test.json"
status=0
(cd "$clone" && env -u CI -u HPACKCERT_REQUIRE_NGHTTP2 -u HPACKCERT_TESTCASE_DIR \
	go test -count=1 -short -json ./... >"$log" 2>&1) || status=$?
if [ $status -ne 0 ]; then
	go run ./ci/skips -failures <"$log" >&2 || true
	echo "bare-clone: go test failed in a copy without ../shared (exit $status)" >&2
	exit 1
fi

# Every skip with its reason; testenv.Missing's reasons end in this text,
# and the long batteries' skips under -short name -short.
echo "bare-clone: tests skipped (each for missing external data, or a long battery under -short):"
go run ./ci/skips -require 'set CI=true to make this a failure' -allow '-short' <"$log" | sed 's/^/  /'
