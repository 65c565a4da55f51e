#!/usr/bin/env bash
# Whether the server at URL has caught up: /health answers 200 with status "ok" and every
# projection at lag 0. Exits 0 and prints the log head if so, 1 at once if not.
# With --wait, asks every second for up to SECONDS; with --pid, gives up as soon as that process
# has exited, with the last lines of --log.
#
#   scripts/caught-up.sh http://127.0.0.1:PORT [--wait SECONDS [--pid PID --log FILE]]
set -euo pipefail
url=$1 wait=0 pid="" log=""
shift
while [ $# -gt 0 ]; do
  case "$1" in
    --wait) wait=$2; shift 2 ;;
    --pid) pid=$2; shift 2 ;;
    --log) log=$2; shift 2 ;;
    *) echo "caught-up.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
check() {
  curl -sf "$url/health" 2>/dev/null | python3 -c '
import json, sys
health = json.load(sys.stdin)
projections = health.get("projections", [])
if health.get("status") != "ok" or not projections or any(p.get("lag") != 0 for p in projections):
    sys.exit(1)
print(health.get("log_head_position", health.get("logHeadPosition")))' 2>/dev/null
}
for _ in $(seq 0 "$wait"); do
  check && exit 0
  [ "$wait" -gt 0 ] || exit 1
  if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
    echo "the server at $url exited" >&2
    [ -z "$log" ] || tail -n 20 "$log" >&2
    exit 1
  fi
  sleep 1
done
echo "the server at $url did not catch up within $wait s" >&2
[ -z "$log" ] || tail -n 20 "$log" >&2
exit 1
