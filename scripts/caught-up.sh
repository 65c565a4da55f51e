#!/usr/bin/env bash
# Whether the server at URL has caught up: /health answers 200 with status "ok" and every
# projection at lag 0. Exits 0 and prints the log head if so, 1 at once if not (callers poll).
#
#   scripts/caught-up.sh http://127.0.0.1:PORT
set -euo pipefail
curl -sf "$1/health" 2>/dev/null | python3 -c '
import json, sys
health = json.load(sys.stdin)
projections = health.get("projections", [])
if health.get("status") != "ok" or not projections or any(p.get("lag") != 0 for p in projections):
    sys.exit(1)
print(health.get("log_head_position", health.get("logHeadPosition")))' 2>/dev/null
