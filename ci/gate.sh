#!/usr/bin/env bash
# HPACK conformance gate: copy this file into your project's CI.
#
# It certifies your HPACK encoder with hpackcert, writes the reports CI
# systems read, and exits with hpackcert's status:
#   0  no case failed
#   1  a case failed (a MUST broken; with --strict also a SHOULD)
#   2  the certifier could not run (bad flags, encoder never answered hello)
#
# Usage:
#   ci/gate.sh --exec './my-encoder --hpack-stdio' [hpackcert run flags...]
#   ci/gate.sh --stories recorded/ --strict
#   ci/gate.sh --exec 'python3 enc.py' --expect-fail ci/hpackcert-expected.txt
#
# Your encoder speaks hpack-stdio/1 (one JSON object per line on stdin and
# stdout; see the hpackcert README). Go encoders can call
# certify.TestEncoder from their own tests instead.
#
# Environment:
#   HPACKCERT_BIN      the hpackcert binary to run (default: hpackcert on
#                      PATH, else installed with go install)
#   HPACKCERT_VERSION  version to go install (default: latest)
#   HPACKCERT_OUT      directory for the reports (default: hpackcert-report)
#   GITHUB_STEP_SUMMARY  when set (GitHub Actions), the Markdown report is
#                      appended to the job summary
set -uo pipefail

out="${HPACKCERT_OUT:-hpackcert-report}"
bin="${HPACKCERT_BIN:-}"
if [ -z "$bin" ]; then
	if command -v hpackcert >/dev/null 2>&1; then
		bin=hpackcert
	else
		if ! command -v go >/dev/null 2>&1; then
			echo "gate.sh: hpackcert is not installed and there is no go command to install it" >&2
			exit 2
		fi
		echo "gate.sh: installing hpackcert@${HPACKCERT_VERSION:-latest}" >&2
		GOFLAGS= go install "github.com/hpackcert/hpackcert/cmd/hpackcert@${HPACKCERT_VERSION:-latest}" || exit 2
		bin="$(go env GOPATH)/bin/hpackcert"
	fi
fi

if [ "$#" -eq 0 ]; then
	echo "gate.sh: name the encoder to certify, e.g. ci/gate.sh --exec './my-encoder --hpack-stdio'" >&2
	exit 2
fi

mkdir -p "$out" || exit 2
"$bin" run "$@" \
	--json "$out/report.json" \
	--junit "$out/junit.xml" \
	--html "$out/report.html" \
	--md "$out/summary.md"
status=$?

if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$out/summary.md" ]; then
	cat "$out/summary.md" >>"$GITHUB_STEP_SUMMARY"
fi

case $status in
0) echo "gate.sh: HPACK conformance gate passed; reports in $out/" >&2 ;;
1) echo "gate.sh: HPACK conformance gate FAILED: see the first failure above and $out/report.html" >&2 ;;
*) echo "gate.sh: hpackcert could not run (exit $status)" >&2 ;;
esac
exit $status
