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
# The flags are hpackcert run's (hpackcert help), checked here before
# anything is built or installed; name at least one encoder (--exec,
# --stories or --encoder). The reports are always
# $HPACKCERT_OUT/{report.json,junit.xml,report.html,summary.md}, with
# each failure's blocks in $HPACKCERT_OUT/repro/ (replay one with
# hpackcert repro --story FILE), so --json, --junit, --html, --md and
# --repro are refused.
#
# Your encoder speaks hpack-stdio/1 (one JSON object per line on stdin and
# stdout; see the hpackcert README). Go encoders can call
# certify.TestEncoder from their own tests instead.
#
# Environment:
#   HPACKCERT_BIN      the hpackcert binary to run. Default: built from the
#                      checkout of github.com/hpackcert/hpackcert this
#                      script sits in, if it sits in one; else hpackcert on
#                      PATH; else installed with go install
#   HPACKCERT_VERSION  version to go install (default: latest)
#   HPACKCERT_NGHTTP2  whether hpackcert is built with libnghttp2, the third
#                      oracle, when this script builds or installs it:
#                      auto (default; when pkg-config finds libnghttp2),
#                      true (installs libnghttp2-dev and pkg-config with
#                      apt-get when missing, through sudo when not root),
#                      false
#   HPACKCERT_OUT      directory for the reports (default: hpackcert-report)
#   GITHUB_STEP_SUMMARY  when set (GitHub Actions), the Markdown report is
#                      appended to the job summary
set -uo pipefail

die() {
	echo "gate.sh: $*" >&2
	exit 2
}

out="${HPACKCERT_OUT:-hpackcert-report}"
nghttp2="${HPACKCERT_NGHTTP2:-auto}"
case $nghttp2 in
auto | true | false) ;;
*) die "HPACKCERT_NGHTTP2 is \"$nghttp2\"; want auto, true or false" ;;
esac

# The flags of hpackcert run, by kind. A test (cmd/hpackcert/gate_test.go)
# keeps these lists in step with hpackcert's usage text.
value_flags=" encoder exec stories cases expect-fail timeout testcases traffic-stories traffic-blocks seed max-block max-header-list max-story-size "
bool_flags=" strict "
report_flags=" json junit html md repro "

encoders=0
args=("$@")
i=0
while [ $i -lt ${#args[@]} ]; do
	arg=${args[i]}
	i=$((i + 1))
	case $arg in
	-h | -help | --help)
		awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
		exit 0
		;;
	--) die "unexpected argument \"--\": give hpackcert run flags only" ;;
	-*) ;;
	*) die "unexpected argument \"$arg\": give hpackcert run flags only (ci/gate.sh --help)" ;;
	esac
	name=${arg#-}
	name=${name#-}
	inline=false
	case $name in
	*=*)
		name=${name%%=*}
		inline=true
		;;
	esac
	case $value_flags$bool_flags$report_flags in
	*" $name "*) ;;
	*)
		read -ra names <<<"$value_flags$bool_flags"
		die "unknown flag $arg (hpackcert run's flags are: ${names[*]})"
		;;
	esac
	case $report_flags in
	*" $name "*) die "$arg: gate.sh writes every report into \$HPACKCERT_OUT ($out); set HPACKCERT_OUT instead" ;;
	esac
	case $value_flags in
	*" $name "*)
		if ! $inline; then
			[ $i -lt ${#args[@]} ] || die "flag $arg needs a value"
			i=$((i + 1))
		fi
		;;
	esac
	case $name in
	encoder | exec | stories) encoders=$((encoders + 1)) ;;
	esac
done
if [ $encoders -eq 0 ]; then
	die "name the encoder to certify: --exec './my-encoder --hpack-stdio', --stories DIR or --encoder builtin:NAME"
fi

# have_nghttp2 reports whether cgo can find libnghttp2.
have_nghttp2() {
	command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libnghttp2
}

# build_tags prints the tags to build hpackcert with, installing
# libnghttp2 first when HPACKCERT_NGHTTP2=true and it is missing.
build_tags() {
	case $nghttp2 in
	false) return ;;
	auto)
		if have_nghttp2; then
			echo nghttp2
		else
			echo "gate.sh: libnghttp2 not found: hpackcert is built without its nghttp2 oracle (install libnghttp2-dev and pkg-config, or set HPACKCERT_NGHTTP2=true)" >&2
		fi
		return
		;;
	esac
	if ! have_nghttp2; then
		command -v apt-get >/dev/null 2>&1 ||
			die "libnghttp2 not found and there is no apt-get to install it: install libnghttp2 and pkg-config, or set HPACKCERT_NGHTTP2=false"
		local sudo=()
		if [ "$(id -u)" != 0 ]; then
			sudo -n true 2>/dev/null ||
				die "libnghttp2 not found; installing it needs root: apt-get install libnghttp2-dev pkg-config, or set HPACKCERT_NGHTTP2=false"
			sudo=(sudo -n)
		fi
		echo "gate.sh: installing libnghttp2-dev and pkg-config" >&2
		"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || true
		"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libnghttp2-dev pkg-config >&2 ||
			die "apt-get install libnghttp2-dev pkg-config failed"
		have_nghttp2 || die "libnghttp2 still not found by pkg-config after installing libnghttp2-dev"
	fi
	echo nghttp2
}

# checkout prints the root of the checkout of this module that this
# script sits in, if it sits in one.
checkout() {
	local root
	root=$(cd "$(dirname "$0")/.." && pwd) || return 1
	[ -d "$root/cmd/hpackcert" ] &&
		grep -Eq '^module[[:space:]]+"?github\.com/hpackcert/hpackcert"?[[:space:]]*(//.*)?$' "$root/go.mod" 2>/dev/null &&
		echo "$root"
}

bin="${HPACKCERT_BIN:-}"
if [ -z "$bin" ] && root=$(checkout); then
	command -v go >/dev/null 2>&1 || die "go is needed to build hpackcert from $root (or set HPACKCERT_BIN)"
	tags=$(build_tags) || exit 2
	bindir=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/hpackcert-gate.XXXXXX") || die "cannot make a directory for the build"
	trap 'rm -rf "$bindir"' EXIT
	echo "gate.sh: building hpackcert from $root (tags: ${tags:-none})" >&2
	(cd "$root" && GOFLAGS='' go build -tags="$tags" -o "$bindir/hpackcert" ./cmd/hpackcert) ||
		die "building hpackcert from $root failed"
	bin="$bindir/hpackcert"
elif [ -z "$bin" ] && command -v hpackcert >/dev/null 2>&1; then
	bin=hpackcert
elif [ -z "$bin" ]; then
	command -v go >/dev/null 2>&1 || die "hpackcert is not installed and there is no go command to install it"
	tags=$(build_tags) || exit 2
	echo "gate.sh: installing hpackcert@${HPACKCERT_VERSION:-latest} (tags: ${tags:-none})" >&2
	GOFLAGS='' go install -tags="$tags" "github.com/hpackcert/hpackcert/cmd/hpackcert@${HPACKCERT_VERSION:-latest}" ||
		die "go install of hpackcert failed"
	bin="$(go env GOPATH)/bin/hpackcert"
fi

mkdir -p "$out" || die "cannot create the report directory $out"
# --repro writes each failure's blocks as a story file, so that the
# uploaded reports can be replayed with hpackcert repro --story FILE.
"$bin" run "$@" \
	--repro "$out/repro" \
	--json "$out/report.json" \
	--junit "$out/junit.xml" \
	--html "$out/report.html" \
	--md "$out/summary.md"
status=$?

# GitHub refuses a step summary over 1 MiB; the matrix and the first
# failures come first in the Markdown, so a long report is cut short, at
# a line end.
summary_limit=1000000
if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$out/summary.md" ]; then
	size=$(wc -c <"$out/summary.md")
	if [ $((size)) -le $summary_limit ]; then
		cat "$out/summary.md" >>"$GITHUB_STEP_SUMMARY"
	else
		{
			LC_ALL=C awk -v limit=$summary_limit '{ n += length($0) + 1; if (n > limit) exit; print }' "$out/summary.md"
			printf '\n\n*(cut short: the whole report is in %s)*\n' "$out/summary.md"
		} >>"$GITHUB_STEP_SUMMARY"
	fi
fi

case $status in
0) echo "gate.sh: HPACK conformance gate passed; reports in $out/" >&2 ;;
1) echo "gate.sh: HPACK conformance gate FAILED: see the first failure above and $out/report.html" >&2 ;;
*) echo "gate.sh: hpackcert could not run (exit $status)" >&2 ;;
esac
exit $status
