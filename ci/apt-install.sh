#!/usr/bin/env bash
# Installs the given Debian packages with apt-get: the one place the CI
# scripts install what they find missing. Needs root; otherwise it says
# what to install and exits 2.
#
# Usage: ci/apt-install.sh PKG...
set -euo pipefail
[ $# -gt 0 ] || exit 0
printf '\n== installing %s\n' "$*"
if [ "$(id -u)" != 0 ]; then
	echo "ci: missing $*; install them (apt-get install $*) or run as root" >&2
	exit 2
fi
export DEBIAN_FRONTEND=noninteractive
# Several installs may run at once (a helper script, a user's terminal):
# wait for the dpkg lock rather than failing on it.
lock=(-o DPkg::Lock::Timeout=900)
apt-get "${lock[@]}" update -qq || true
apt-get "${lock[@]}" install -y -qq "$@"
