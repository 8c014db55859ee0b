#!/usr/bin/env bash
# HPACK conformance gate: copy this file into your project's CI.
#
# It builds hpackcert, then runs hpackcert gate, which certifies your HPACK
# encoder, writes the reports CI systems read, and exits with its status:
#   0  no case failed
#   1  a case failed (a MUST broken; with --strict also a SHOULD), or a
#      MUST case was left unsupported (your encoder could not express what
#      it needs) and you did not declare it
#   2  the certifier could not run (bad flags, encoder never answered hello)
#
# Usage:
#   ci/gate.sh --exec './my-encoder --hpack-stdio' [hpackcert gate flags...]
#   ci/gate.sh --stories recorded/ --strict
#   ci/gate.sh --exec 'python3 enc.py' --expect-fail ci/hpackcert-expected.txt
#   ci/gate.sh --exec 'python3 enc.py' \
#       --declare-unsupported 'enc/7.1.3/1: no never-index API'
#
# A MUST case your encoder leaves unsupported fails the gate, --strict or
# not, unless you declare it: --declare-unsupported 'CASES: REASON'
# (repeatable; CASES are case ids or id prefixes, comma-separated; 'CASES
# for ENCODER: REASON' for one encoder), or the same line after the word
# "unsupported" in the --expect-fail file. A declared case is reported as
# declared, never as pass. Recorded stories (--stories) are not driven:
# the verdict line names the MUST cases they do not exercise, and the exit
# status follows the cases they did.
#
# The flags are hpackcert gate's (hpackcert help gate), those of hpackcert
# run but the report files: the reports are always
# $HPACKCERT_OUT/{report.json,junit.xml,report.html,summary.md}, with each
# failure's blocks in $HPACKCERT_OUT/repro/ and the hpackcert that was built
# in $HPACKCERT_OUT/bin/, so that the replay command the gate prints works
# after it exits.
#
# Your encoder speaks hpack-stdio/1 (one JSON object per line on stdin and
# stdout; see the hpackcert README). Go encoders can call
# certify.TestEncoder from their own tests instead.
#
# Environment: where hpackcert comes from, one of (in this order)
#   HPACKCERT_BIN      an hpackcert binary to run as it is
#   HPACKCERT_SRC      a checkout of github.com/hpackcert/hpackcert to build
#                      it from (default: the checkout this script sits in,
#                      if it sits in one)
#   HPACKCERT_VERSION  a published version of the module to go install
# and
#   HPACKCERT_NGHTTP2  whether hpackcert is built with libnghttp2, the third
#                      oracle: auto (default; when pkg-config finds
#                      libnghttp2), true (installs libnghttp2-dev and
#                      pkg-config with apt-get when missing, through sudo
#                      when not root), false
#   HPACKCERT_OUT      directory for the reports (default: hpackcert-report)
#   GITHUB_STEP_SUMMARY  when set (GitHub Actions), the Markdown report is
#                      appended to the job summary
set -uo pipefail

die() {
	echo "gate.sh: $*" >&2
	exit 2
}

for arg; do
	case $arg in
	-h | -help | --help)
		awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
		exit 0
		;;
	esac
done

out="${HPACKCERT_OUT:-hpackcert-report}"
nghttp2="${HPACKCERT_NGHTTP2:-auto}"
case $nghttp2 in
auto | true | false) ;;
*) die "HPACKCERT_NGHTTP2 is \"$nghttp2\"; want auto, true or false" ;;
esac

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

# is_checkout reports whether $1 is a checkout of this module.
is_checkout() {
	[ -d "$1/cmd/hpackcert" ] &&
		grep -Eq '^module[[:space:]]+"?github\.com/hpackcert/hpackcert"?[[:space:]]*(//.*)?$' "$1/go.mod" 2>/dev/null
}

need_go() {
	command -v go >/dev/null 2>&1 || die "go is needed to $1 (or set HPACKCERT_BIN to an hpackcert binary)"
}

src="${HPACKCERT_SRC:-}"
if [ -z "${HPACKCERT_BIN:-}" ] && [ -z "$src" ]; then
	here=$(cd "$(dirname "$0")/.." && pwd) && is_checkout "$here" && src=$here
fi
if [ -n "$src" ]; then
	is_checkout "$src" || die "HPACKCERT_SRC=$src is not a checkout of github.com/hpackcert/hpackcert (no go.mod of that module with cmd/hpackcert beside it)"
	src=$(cd "$src" && pwd)
fi

# The binary goes beside the reports, where the replay command the gate
# prints finds it after the gate exits.
bindir="$out/bin"
if [ -n "${HPACKCERT_BIN:-}" ]; then
	bin=$HPACKCERT_BIN
	[ -x "$bin" ] || command -v "$bin" >/dev/null 2>&1 || die "HPACKCERT_BIN=$bin: no such program"
elif [ -n "$src" ]; then
	need_go "build hpackcert from $src"
	tags=$(build_tags) || exit 2
	mkdir -p "$bindir" && bindir=$(cd "$bindir" && pwd) || die "cannot create $bindir for the hpackcert binary"
	echo "gate.sh: building hpackcert from $src (tags: ${tags:-none}) into $bindir" >&2
	# GOFLAGS is the user's project's (say -mod=vendor), not hpackcert's.
	(cd "$src" && GOFLAGS='' go build -tags="$tags" -o "$bindir/hpackcert" ./cmd/hpackcert) ||
		die "building hpackcert from $src failed"
	bin="$bindir/hpackcert"
elif [ -n "${HPACKCERT_VERSION:-}" ]; then
	need_go "install hpackcert@$HPACKCERT_VERSION"
	tags=$(build_tags) || exit 2
	mkdir -p "$bindir" && bindir=$(cd "$bindir" && pwd) || die "cannot create $bindir for the hpackcert binary"
	echo "gate.sh: installing hpackcert@$HPACKCERT_VERSION (tags: ${tags:-none}) into $bindir" >&2
	GOFLAGS='' GOBIN="$bindir" go install -tags="$tags" "github.com/hpackcert/hpackcert/cmd/hpackcert@$HPACKCERT_VERSION" ||
		die "go install of hpackcert@$HPACKCERT_VERSION failed"
	bin="$bindir/hpackcert"
else
	die "no hpackcert to run: set HPACKCERT_SRC=/path/to/hpackcert (a checkout to build it from), HPACKCERT_VERSION=vX.Y.Z (a published version to go install) or HPACKCERT_BIN=/path/to/hpackcert-binary"
fi

exec "$bin" gate --out "$out" "$@"
