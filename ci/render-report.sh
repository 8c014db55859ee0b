#!/usr/bin/env bash
# Renders an HTML report of hpackcert in headless Chromium, as a user's
# browser shows it, and fails when the page would not show as written: it
# does not load, a resource it names does not load, the page logs an error
# to the console (a script error, console.error, a Content Security Policy
# violation, a network error), or what rendered is not a report (no
# "hpackcert" heading, no matrix with a row per case).
#
# It speaks the DevTools protocol over --remote-debugging-pipe (JSON
# messages ended by a NUL octet on file descriptors 3 and 4), so it needs
# nothing but Chromium, bash and coreutils. When Chromium is missing, it is
# installed with ci/apt-install.sh chromium (Debian's package).
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
#   RENDER_TIMEOUT   seconds to wait for each step (default 30)
#
# Exit status: 0 rendered cleanly, 1 did not, 2 usage or no browser.
set -euo pipefail

usage() {
	echo "usage: ci/render-report.sh [--screenshot PNG] [--size WIDTHxHEIGHT] REPORT.html" >&2
	exit 2
}

screenshot='' size=1280x800 report=''
while [ $# -gt 0 ]; do
	case $1 in
	--screenshot) [ $# -ge 2 ] || usage; screenshot=$2; shift 2 ;;
	--size) [ $# -ge 2 ] || usage; size=$2; shift 2 ;;
	-*) usage ;;
	*) [ -z "$report" ] || usage; report=$1; shift ;;
	esac
done
[ -n "$report" ] || usage
[[ $size =~ ^[0-9]+x[0-9]+$ ]] || usage
if [ ! -f "$report" ]; then
	echo "render-report.sh: $report: no such file" >&2
	exit 1
fi

browser=${CHROMIUM:-}
if [ -z "$browser" ]; then
	for b in chromium chromium-browser; do
		if command -v "$b" >/dev/null 2>&1; then
			browser=$b
			break
		fi
	done
fi
if [ -z "$browser" ]; then
	"$(dirname "$0")/apt-install.sh" chromium >&2 || exit 2
	browser=chromium
fi
command -v "$browser" >/dev/null 2>&1 || { echo "render-report.sh: no browser $browser" >&2; exit 2; }
timeout=${RENDER_TIMEOUT:-30}

# fileURL prints the file URL of a path, each octet percent-encoded where
# a URL needs it.
fileURL() {
	local LC_ALL=C path c i url=file://
	path=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
	for ((i = 0; i < ${#path}; i++)); do
		c=${path:i:1}
		case $c in
		[A-Za-z0-9/._~-]) url+=$c ;;
		*) url+=$(printf '%%%02X' "'$c") ;;
		esac
	done
	printf '%s\n' "$url"
}
url=$(fileURL "$report")

dir=$(mktemp -d)
pid=
cleanup() {
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	rm -rf "$dir"
}
trap cleanup EXIT

fail() {
	echo "render-report.sh: $report: $*" >&2
	exit 1
}

# The browser reads requests from a FIFO, kept open for writing on fd 5,
# and writes answers and events to a file read as it grows. --no-sandbox:
# the page is a local file, and CI containers often run as root, where
# Chromium's sandbox does not start. setsid puts the browser and its
# helpers in a process group of their own, killed whole on exit.
mkfifo "$dir/in"
: >"$dir/out"
exec 5<>"$dir/in"
setsid "$browser" --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
	--no-first-run --no-default-browser-check --user-data-dir="$dir/profile" \
	--window-size="${size/x/,}" --remote-debugging-pipe \
	3<"$dir/in" 4>"$dir/out" 2>"$dir/stderr" &
pid=$!

# messages prints the messages received so far, one per line (JSON
# strings escape line breaks, so a message is one line).
messages() { tr '\0' '\n' <"$dir/out"; }

# call sends a request (method, params as JSON, on the page's session once
# there is one) and sets answer to the browser's answer; it fails on a
# timeout, a protocol error or a browser that went away. It runs in this
# shell, never in a subshell, so that request ids stay unique.
id=0 session='' answer=''
call() {
	id=$((id + 1))
	local t msg="{\"id\":$id"
	[ -z "$session" ] || msg+=",\"sessionId\":\"$session\""
	msg+=",\"method\":\"$1\",\"params\":${2:-{\}}}"
	printf '%s\0' "$msg" >&5
	for ((t = 0; t < timeout * 10; t++)); do
		if answer=$(messages | grep -m1 -E "^\{\"id\":${id}[,}]"); then
			case $answer in
			"{\"id\":$id,\"error\":"*) fail "$1: $answer" ;;
			esac
			return 0
		fi
		kill -0 "$pid" 2>/dev/null || fail "the browser exited during $1: $(tail -5 "$dir/stderr")"
		sleep 0.1
	done
	fail "no answer to $1 within ${timeout}s"
}

# field prints the value of a string field of the last answer.
field() { printf '%s' "$answer" | sed -nE "s/.*\"$1\":\"([^\"]*)\".*/\1/p"; }

call Target.createTarget '{"url":"about:blank"}'
target=$(field targetId)
call Target.attachToTarget "{\"targetId\":\"$target\",\"flatten\":true}"
session=$(field sessionId)
w=${size%x*} h=${size#*x}
call Emulation.setDeviceMetricsOverride "{\"width\":$w,\"height\":$h,\"deviceScaleFactor\":1,\"mobile\":false}"
call Runtime.enable
call Log.enable
call Page.enable
call Page.navigate "{\"url\":\"$url\"}"
case $answer in
*'"errorText":'*) fail "did not load: $(field errorText)" ;;
esac
loaded=
for ((t = 0; t < timeout * 10; t++)); do
	if messages | grep -q '"method":"Page.loadEventFired"'; then
		loaded=1
		break
	fi
	sleep 0.1
done
[ -n "$loaded" ] || fail "no load event within ${timeout}s"

# What the page found, measured in the page: the heading, the rows of the
# matrix (the table of grade cells), the sections, and where the first
# failure's section starts.
probe='(() => {
	const h1 = document.querySelector("h1"), cell = document.querySelector("td.g"), matrix = cell && cell.closest("table");
	const first = document.querySelector("section.fail, section.expected");
	return ["rows=" + (matrix ? matrix.rows.length : 0),
		"sections=" + document.querySelectorAll("section").length,
		"first-failure=" + (first ? Math.round(first.getBoundingClientRect().top) : -1),
		"height=" + window.innerHeight,
		"heading=" + (h1 ? h1.textContent.replace(/[^ -~]/g, "?").replace(/["\\]/g, "") : "")].join(" ");
})()'
probe=${probe//\\/\\\\}
probe=${probe//\"/\\\"}
probe=${probe//$'\n'/\\n}
probe=${probe//$'\t'/\\t}
call Runtime.evaluate "{\"expression\":\"$probe\",\"returnByValue\":true}"
found=$(field value)

if [ -n "$screenshot" ]; then
	call Page.captureScreenshot '{"format":"png"}'
	field data | base64 -d >"$screenshot"
fi

# Every error the page logged, whatever logged it.
errors=$(messages | grep -E '"method":"Runtime\.exceptionThrown"|"method":"Runtime\.consoleAPICalled","params":\{"type":"(error|assert)"|"method":"Log\.entryAdded".*"level":"error"|"method":"(Inspector\.detached|Target\.targetCrashed)"' || true)
if [ -n "$errors" ]; then
	echo "render-report.sh: $report: the page logged errors:" >&2
	printf '%s\n' "$errors" | cut -c1-600 >&2
	exit 1
fi
case $found in
*" heading=hpackcert"*) ;;
*) fail "rendered without an hpackcert heading ($found)" ;;
esac
case $found in
rows=0* | rows=1\ *) fail "rendered without a matrix of cases ($found)" ;;
esac
printf '{"id":0,"method":"Browser.close"}\0' >&5
for ((t = 0; t < 50; t++)); do
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
echo "render-report.sh: $report: rendered: $found"
