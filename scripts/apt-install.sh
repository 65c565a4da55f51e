#!/usr/bin/env bash
# Installs Debian packages that are missing, one install at a time across the project's scripts: the
# tests start several clusters at once, and apt refuses a second install while one runs. Each caller
# waits for the others, then installs what is still missing.
#
# Usage: scripts/apt-install.sh PACKAGE...
set -euo pipefail
[ $# -gt 0 ] || exit 0
exec 9>"${TMPDIR:-/tmp}/nuvie-apt-install.lock"
flock 9
missing=()
for package in "$@"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -gt 0 ] || exit 0
echo "installing ${missing[*]}" >&2
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq -o DPkg::Lock::Timeout=600 "${missing[@]}" >/dev/null
