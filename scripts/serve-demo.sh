#!/usr/bin/env bash
# Serves the demo on 127.0.0.1:8080: a new data dir imports the bundled MovieLens data as events.
# Extra arguments go to `nuvie serve` (e.g. --port 9000, --data-dir /tmp/nuvie).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh
exec swift run nuvie serve "$@"
