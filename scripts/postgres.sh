#!/usr/bin/env bash
# A throwaway PostgreSQL server for tests and the cluster demo, from Debian's packages.
#
#   scripts/postgres.sh start DIR   installs PostgreSQL when missing, creates a cluster in DIR (empty or
#                                   absent), starts it on a free port on 127.0.0.1, prints its URL
#   scripts/postgres.sh stop DIR    stops it (DIR is kept: remove it when done)
#   scripts/postgres.sh resume DIR  starts the cluster in DIR again, on the same port
#   scripts/postgres.sh run CMD…    starts one in a temporary directory, runs CMD with
#                                   ENGINE_TEST_POSTGRES_URL set to it, then stops and removes it
#
# A synchronous standby, and failing over to it (ops/postgresql.md, "Failover"):
#   scripts/postgres.sh standby DIR PRIMARY_DIR   copies the server in PRIMARY_DIR into DIR (pg_basebackup -R),
#                                   starts it streaming from it, and makes it the primary's synchronous
#                                   standby: a commit is acknowledged once DIR has it too. Prints its URL
#   scripts/postgres.sh kill DIR    kill -9 of the server in DIR and every process of it (a lost machine)
#   scripts/postgres.sh promote DIR makes the standby in DIR the primary; it waits for no standby until
#                                   one is attached to it (`standby OLD_PRIMARY_DIR DIR`)
#   scripts/postgres.sh role DIR    prints primary, standby or down
#
# Durability is what the tests check: fsync and synchronous_commit stay on.
set -euo pipefail

# As root, PostgreSQL's commands run as the postgres user, from / (the caller's directory may be
# closed to that user: a clone under a private temp dir).
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}

install_if_missing() {
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    "$(dirname "${BASH_SOURCE[0]}")/apt-install.sh" postgresql
  fi
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
}


start() {
  local dir=$1
  install_if_missing
  mkdir -p "$dir"
  [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
  if ! as_owner test -w "$dir"; then
    echo "postgres.sh: the postgres user cannot reach $dir (a parent is not searchable); use a directory under /tmp" >&2
    exit 1
  fi
  as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 >"$dir/initdb.log"
  "$(dirname "${BASH_SOURCE[0]}")/free-port.sh" >"$dir/port"
  resume "$dir"
  echo "postgres://postgres@127.0.0.1:$(cat "$dir/port")/postgres?sslmode=disable" | tee "$dir/url"
}

resume() {
  local dir=$1
  install_if_missing
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -c port=$(cat "$dir/port") -c unix_socket_directories=$dir -c fsync=on -c synchronous_commit=on -c max_connections=300" \
    start >/dev/null
}

stop() {
  install_if_missing
  as_owner "$bin/pg_ctl" -D "$1/data" -m fast -w stop >/dev/null
}

sql() {  # sql DIR STATEMENT: runs STATEMENT on the server in DIR, printing its rows unaligned
  "$bin/psql" "postgres://postgres@127.0.0.1:$(cat "$1/port")/postgres?sslmode=disable" -qtA -v ON_ERROR_STOP=1 -c "$2"
}

# Any earlier copy in DIR is replaced: a failed primary comes back this way, as the new one's standby.
standby() {
  local dir=$1 primary=$2
  install_if_missing
  [ -s "$primary/port" ] || { echo "postgres.sh: no server in $primary" >&2; exit 1; }
  [ -s "$dir/port" ] && as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  mkdir -p "$dir"; rm -rf "$dir/data"
  [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
  [ -s "$dir/port" ] || "$(dirname "${BASH_SOURCE[0]}")/free-port.sh" >"$dir/port"
  as_owner "$bin/pg_basebackup" -h 127.0.0.1 -p "$(cat "$primary/port")" -U postgres -D "$dir/data" -R -X stream --checkpoint=fast
  # A copy of a promoted server carries its setting: as a standby it waits for nothing.
  echo "synchronous_standby_names = ''" | as_owner tee -a "$dir/data/postgresql.auto.conf" >/dev/null
  resume "$dir"
  sql "$primary" "ALTER SYSTEM SET synchronous_standby_names = '*'" >/dev/null
  sql "$primary" "SELECT pg_reload_conf()" >/dev/null
  local synchronous=""
  for _ in $(seq 100); do
    [ "$(sql "$primary" "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'")" -ge 1 ] && { synchronous=1; break; }
    sleep 0.1
  done
  if [ -z "$synchronous" ]; then
    # Left set, every commit on the primary would wait for a standby that is not there.
    sql "$primary" "ALTER SYSTEM RESET synchronous_standby_names" >/dev/null
    sql "$primary" "SELECT pg_reload_conf()" >/dev/null
    echo "postgres.sh: the standby in $dir did not become synchronous within 10 s (see $dir/server.log); the primary waits for no standby" >&2
    exit 1
  fi
  echo "postgres://postgres@127.0.0.1:$(cat "$dir/port")/postgres?sslmode=disable" | tee "$dir/url"
}

kill_server() {
  local pid
  pid=$(head -1 "$1/data/postmaster.pid" 2>/dev/null) || { echo "postgres.sh: no server running in $1" >&2; exit 1; }
  # Its children with it: the postmaster's death alone leaves backends to finish what they were doing.
  kill -KILL "$pid" $(pgrep -P "$pid")
}

promote() {
  install_if_missing
  as_owner "$bin/pg_ctl" -D "$1/data" -w -t 60 promote >/dev/null
  sql "$1" "ALTER SYSTEM RESET synchronous_standby_names" >/dev/null
  sql "$1" "SELECT pg_reload_conf()" >/dev/null
}

role() {
  install_if_missing
  case "$(sql "$1" "SELECT pg_is_in_recovery()" 2>/dev/null)" in
    f) echo primary ;;
    t) echo standby ;;
    *) echo down ;;
  esac
}

# DIRs as given, made absolute: as root the server's commands run from / (a relative DIR named nothing there).
absolute() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
[ $# -ge 2 ] && [ "$1" != run ] && set -- "$1" "$(absolute "$2")" "${@:3}"
[ $# -ge 3 ] && [ "$1" = standby ] && set -- "$1" "$2" "$(absolute "$3")"

case "${1:-}" in
  start) start "$2" ;;
  stop) stop "$2" ;;
  resume) resume "$2" ;;
  standby) standby "$2" "$3" ;;
  kill) kill_server "$2" ;;
  promote) promote "$2" ;;
  role) role "$2" ;;
  run)
    shift
    dir=$(mktemp -d)
    trap 'stop "$dir" || true; rm -rf "$dir"' EXIT
    ENGINE_TEST_POSTGRES_URL=$(start "$dir") "$@"
    ;;
  *) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2; exit 2 ;;
esac
