#!/usr/bin/env bash
# The step of the GitHub Action (action.yml): it turns the action's inputs
# into hpackcert gate flags, runs ci/gate.sh with HPACKCERT_SRC set to the
# action's own checkout (hpackcert is built from it), and writes the step
# outputs. It exits with hpackcert's status: 0 pass, 1 a case failed or a
# MUST case was left ungraded undeclared, 2 the run could not happen.
#
# action.yml passes each input as an environment variable; to try the
# action locally, set them yourself (unset ones take the action's default):
#   INPUT_EXEC         hpack-stdio/1 encoder commands, one per line (--exec)
#   INPUT_STORIES      directories of recorded stories, one per line (--stories)
#   INPUT_CASES        case id prefixes, one per line or comma-separated (--cases)
#   INPUT_STRICT       true or false (--strict; default false)
#   INPUT_EXPECT_FAIL  file of expected failures and of "unsupported
#                      CASES: REASON" declarations (--expect-fail)
#   INPUT_DECLARE_UNSUPPORTED  declarations, one per line, "CASES: REASON"
#                      or "CASES for ENCODER: REASON": the cases the
#                      encoder cannot be graded on, and why
#                      (--declare-unsupported, once per line)
#   INPUT_ARGS         more hpackcert run flags, quoted as in a shell
#                      (parsed by xargs, never evaluated)
#   INPUT_OUT          directory for the reports (default hpackcert-report)
#   INPUT_NGHTTP2      true or false: build with libnghttp2, the third
#                      oracle, installing it when missing (default true)
# and what GitHub sets:
#   GITHUB_ACTION_PATH   the action's checkout (default: the one this
#                        script sits in)
#   GITHUB_OUTPUT        file the outputs are appended to: json, junit,
#                        html, markdown (absolute report paths) and status
#   GITHUB_STEP_SUMMARY  file the Markdown report is appended to
#
# Example:
#   INPUT_EXEC='./my-encoder --hpack-stdio' GITHUB_OUTPUT=/dev/stdout ci/action.sh
set -uo pipefail

report_dir=

# finish writes the outputs and exits with status $1. The report paths
# are written whatever the status; a file is absent when hpackcert could
# not run.
finish() {
	local status=$1
	local outputs=()
	if [ -n "$report_dir" ]; then
		outputs+=(
			"json=$report_dir/report.json"
			"junit=$report_dir/junit.xml"
			"html=$report_dir/report.html"
			"markdown=$report_dir/summary.md"
		)
	fi
	outputs+=("status=$status")
	if [ -n "${GITHUB_OUTPUT:-}" ]; then
		printf '%s\n' "${outputs[@]}" >>"$GITHUB_OUTPUT" ||
			{ echo "action.sh: cannot write the outputs to $GITHUB_OUTPUT" >&2; exit 2; }
	fi
	exit "$status"
}

fail() {
	echo "action.sh: $*" >&2
	finish 2
}

# boolean prints true or false for the value $2 of input $1.
boolean() {
	case $2 in
	true | True | TRUE) echo true ;;
	false | False | FALSE) echo false ;;
	*)
		echo "action.sh: input $1 is \"$2\"; want true or false" >&2
		return 1
		;;
	esac
}

out="${INPUT_OUT:-hpackcert-report}"
case $out in
*$'\n'* | *$'\r'*) fail "input out holds a line break" ;;
/*) report_dir=$out ;;
*) report_dir=$PWD/$out ;;
esac

action_path="${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}"
[ -f "$action_path/ci/gate.sh" ] || fail "no ci/gate.sh in the action's checkout $action_path"

strict=$(boolean strict "${INPUT_STRICT:-false}") || finish 2
nghttp2=$(boolean nghttp2 "${INPUT_NGHTTP2:-true}") || finish 2

flags=()
# add_lines adds flag $1 once for each non-blank line of $2.
add_lines() {
	local line
	while IFS= read -r line; do
		line="${line#"${line%%[![:space:]]*}"}"
		line="${line%"${line##*[![:space:]]}"}"
		[ -z "$line" ] || flags+=("$1" "$line")
	done <<<"$2"
}
add_lines --exec "${INPUT_EXEC:-}"
add_lines --stories "${INPUT_STORIES:-}"
add_lines --cases "${INPUT_CASES:-}"
add_lines --declare-unsupported "${INPUT_DECLARE_UNSUPPORTED:-}"
if [ "$strict" = true ]; then
	flags+=(--strict)
fi
if [ -n "${INPUT_EXPECT_FAIL:-}" ]; then
	flags+=(--expect-fail "$INPUT_EXPECT_FAIL")
fi
extra="${INPUT_ARGS:-}"
if [ -n "${extra//[[:space:]]/}" ]; then
	words=$(mktemp "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/hpackcert-args.XXXXXX") || fail "cannot make a temporary file"
	if ! printf '%s\n' "$extra" | xargs printf '%s\0' >"$words"; then
		rm -f "$words"
		fail "input args: cannot split it into words (an unmatched quote?): $extra"
	fi
	while IFS= read -r -d '' word; do
		flags+=("$word")
	done <"$words"
	rm -f "$words"
fi

# The gate builds hpackcert from the action's checkout: never a binary
# or a version from the job's environment.
env -u HPACKCERT_BIN -u HPACKCERT_VERSION HPACKCERT_SRC="$action_path" \
	HPACKCERT_OUT="$out" HPACKCERT_NGHTTP2="$nghttp2" \
	bash "$action_path/ci/gate.sh" ${flags[@]+"${flags[@]}"}
finish $?
