#!/usr/bin/env bash
# The operator console in a real browser (Tests/Browser/console_test.py): headless Chromium and its
# driver from Debian, Selenium from PyPI in a virtual environment under .build, and every product's
# binary from $CONSOLE_BIN_DIR (default .build/debug, built when missing). Each product's demo server
# runs on a free loopback port over a temporary data directory, removed afterwards. Screenshots of
# each page, desktop and phone width, land in .build/console-screenshots.
#
#   scripts/browser-tests.sh                 all four products
#   scripts/browser-tests.sh savry news      some of them
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/apt-install.sh chromium chromium-driver python3-venv
venv=.build/browser-venv
if ! "$venv/bin/python" -c "import selenium" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "selenium==4.51.0"
fi
export CONSOLE_BIN_DIR="${CONSOLE_BIN_DIR:-.build/debug}"
for product in nuvie savry chat news; do
  [ -x "$CONSOLE_BIN_DIR/$product" ] || swift build --product "$product"
done
exec "$venv/bin/python" Tests/Browser/console_test.py "$@"
